/**
 * The crash test's child, killed with SIGKILL at a random moment from its spawn.
 *
 * mode "work": opens the core and, in a loop, saves (appending a segment with a unique marker),
 * copies, renames, deletes and merges documents of one session, syncing every few steps. Before
 * each step it prints "WILL <json>" and, once the handler returned (the change is acknowledged to
 * the caller), "ACK <json>".
 * mode "open": opens the core (which runs integrity checks and any migrations) and waits.
 * Both print "OPENING" before opening the cache and "READY" after.
 * argv: mode serviceUrl dataDir sessionId documentId ; env S2T_TEST_TOKEN: the access token.
 */
import { createCore, type Core } from '../../../main/core';
import { MemorySecretStore } from '../../../main/platform/secrets';
import type { DocumentContent } from '../../../common/transcript/model';
import { segment } from '../helpers/fixtures';

export type Step =
  | { op: 'save'; marker: string }
  | { op: 'copy' | 'merge' | 'rename'; filename: string }
  | { op: 'delete'; filename: string; documentId: string };

const say = (line: string) => process.stdout.write(`${line}\n`);

async function step(h: Core['handlers'], sessionId: string, mainId: string, marker: string): Promise<Step | null> {
  const roll = Math.random();
  if (roll < 0.5) {
    const rec = await h['documents.get']({ documentId: mainId });
    if (!rec?.body) throw new Error('document missing from the cache');
    const content = rec.body.content as DocumentContent & { kind: 'transcript' };
    const next = { ...content, segments: [...content.segments, segment(marker, content.segments.length * 1000, `edit ${marker}`)] };
    const s: Step = { op: 'save', marker };
    say(`WILL ${JSON.stringify(s)}`);
    await h['documents.save']({ documentId: mainId, content: next });
    return s;
  }
  if (roll < 0.62) {
    const s: Step = { op: 'copy', filename: `copy ${marker}.json` };
    say(`WILL ${JSON.stringify(s)}`);
    await h['documents.mutate']({ documentId: mainId, mutation: { op: 'copy', newFilename: s.filename } });
    return s;
  }
  if (roll < 0.72) {
    const s: Step = { op: 'rename', filename: `main ${marker}.json` };
    say(`WILL ${JSON.stringify(s)}`);
    await h['documents.mutate']({ documentId: mainId, mutation: { op: 'rename', filename: s.filename } });
    return s;
  }
  const others = ((await h['sessions.get']({ sessionId }))?.documents ?? []).filter((d) => d.id !== mainId);
  // Merges take a copy (not an earlier merge), so documents grow only linearly.
  const pool = roll < 0.88 ? others : others.filter((d) => d.filename.startsWith('copy '));
  const pick = pool[Math.floor(Math.random() * pool.length)];
  if (!pick) return null;
  if (roll < 0.88) {
    const s: Step = { op: 'delete', filename: pick.filename, documentId: pick.id };
    say(`WILL ${JSON.stringify(s)}`);
    await h['documents.mutate']({ documentId: pick.id, mutation: { op: 'delete' } });
    return s;
  }
  const s: Step = { op: 'merge', filename: `merged ${marker}.json` };
  say(`WILL ${JSON.stringify(s)}`);
  await h['documents.merge']({ documentIds: [pick.id, mainId], outputFilename: s.filename });
  return s;
}

async function main() {
  const [mode, serviceUrl, dataDir, sessionId, documentId] = process.argv.slice(2);
  const secrets = new MemorySecretStore();
  await secrets.set(`access-token@${serviceUrl}`, process.env.S2T_TEST_TOKEN!);
  say('OPENING');
  const core = await createCore({ dataDir, serviceUrl, mode: 'cloud', secrets, emit: () => {}, background: false, retries: 0, timeoutMs: 5000 });
  say('READY');
  if (mode === 'open') {
    setInterval(() => {}, 60_000); // wait to be killed
    return;
  }
  for (let i = 0; ; i++) {
    const done = await step(core.handlers, sessionId, documentId, `m${process.pid}x${i}`);
    if (done) say(`ACK ${JSON.stringify(done)}`);
    if (i % 3 === 2) await core.handlers['sync.now']({});
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`crash child failed: ${(err as Error).stack}\n`);
  process.exit(2);
});
