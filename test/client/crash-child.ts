/**
 * The crash test's child: edits one document and syncs, in a loop, until it is killed. Each edit
 * appends a segment with a unique marker; "ACK <marker>" is printed only after documents.save
 * returned, i.e. after the edit was acknowledged to the caller.
 * argv: serviceUrl dataDir documentId ; env S2T_TEST_TOKEN: the access token.
 */
import { createCore } from '../../main/core';
import { MemorySecretStore } from '../../main/platform/secrets';
import type { DocumentContent } from '../../common/transcript/model';
import { segment } from './fixtures';

async function main() {
  const [serviceUrl, dataDir, documentId] = process.argv.slice(2);
  const secrets = new MemorySecretStore();
  await secrets.set(`access-token@${serviceUrl}`, process.env.S2T_TEST_TOKEN!);
  const core = await createCore({ dataDir, serviceUrl, mode: 'cloud', secrets, emit: () => {}, background: false, retries: 0, timeoutMs: 5000 });
  const h = core.handlers;
  process.stdout.write('READY\n');
  for (let i = 0; ; i++) {
    const rec = await h['documents.get']({ documentId });
    if (!rec?.body) throw new Error('document missing from the cache');
    const content = rec.body.content as DocumentContent & { kind: 'transcript' };
    const marker = `m${process.pid}x${i}`;
    const next = { ...content, segments: [...content.segments, segment(marker, content.segments.length * 1000, `edit ${marker}`)] };
    await h['documents.save']({ documentId, content: next });
    process.stdout.write(`ACK ${marker}\n`);
    if (i % 2 === 1) await h['sync.now']({});
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`crash child failed: ${(err as Error).stack}\n`);
  process.exit(2);
});
