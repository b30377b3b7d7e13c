/**
 * The one way main writes a file whole: to a hidden temp file in the target's folder, synced,
 * then renamed into place, so no reader (a watcher, the app after a crash) sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface WriteAtomicOptions {
  /** The file's permissions; 0o600 for what is the user's alone (caches under the data dir). */
  mode?: number;
  /** The permissions of folders made on the way. */
  dirMode?: number;
}

/** Writes bytes (or text) to `target` through a temp file in the same folder and a rename. */
export async function writeAtomic(target: string, bytes: Uint8Array | string, { mode = 0o644, dirMode }: WriteAtomicOptions = {}): Promise<void> {
  await mkdir(dirname(target), { recursive: true, ...(dirMode === undefined ? {} : { mode: dirMode }) });
  const temp = join(dirname(target), `.s2t-${basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(temp, 'w', mode);
  try {
    await fh.writeFile(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
