/**
 * Exactly once across machines that sync one folder (a network share, a sync client): before
 * uploading, a machine leaves a claim for the content hash in the folder's hidden .s2t/claims/;
 * another machine that finds a claim by someone else leaves that media alone. The claim is made
 * with an exclusive create, so on a shared file system only one machine wins; on a sync folder the
 * claim travels with the folder and the window is the sync delay.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

export const CLAIMS_DIR = join('.s2t', 'claims');
const Claim = z.object({ machine: z.string(), at: z.string() });

/** Claims `hash` for `machine`; returns null when the claim is (now) ours, or the machine that holds it. */
export async function claim(folderPath: string, hash: string, machine: string): Promise<string | null> {
  const dir = join(folderPath, CLAIMS_DIR);
  const file = join(dir, `${hash}.json`);
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(file, JSON.stringify({ machine, at: new Date().toISOString() }), { flag: 'wx' });
    return null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const held = Claim.safeParse(JSON.parse(await readFile(file, 'utf8').catch(() => '{}')));
  // An unreadable claim (half-synced) is treated as someone else's: better late than twice.
  if (!held.success) return 'another machine';
  return held.data.machine === machine ? null : held.data.machine;
}
