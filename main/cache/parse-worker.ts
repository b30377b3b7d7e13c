/**
 * The pull's parse thread (see background.ts): checks document pages and turns their documents
 * into rows, handing the rows straight to the writer thread over its own port, so that neither
 * the main thread nor the writer spends time on a parse, and a page's parse never waits behind
 * the writer's transaction of the page before.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { checkDocumentsPage } from './documents-page';
import { runInBackground, testExitAt, toWriterError, type HeldDocuments, type ParseReply, type ParseRequest } from './worker-protocol';

const { writer } = workerData as { writer: MessagePort };
runInBackground();
const exitAt = testExitAt('parse');
let received = 0;

parentPort!.on('message', (m: ParseRequest) => {
  if (++received === exitAt) process.exit(70);
  let reply: ParseReply;
  try {
    const { docs, count, total } = checkDocumentsPage(m.status, m.bytes, m.sessionId);
    // To the writer before the answer: whatever ref the main thread learns is already on its way there.
    // The page's bytes go with them, not copied: bodies may be views into them (documents-page.ts).
    writer.postMessage({ ref: m.id, batch: m.batch, docs } satisfies HeldDocuments, [m.bytes.buffer as ArrayBuffer]);
    reply = { id: m.id, ok: { ref: m.id, count, total } };
  } catch (err) {
    reply = { id: m.id, error: toWriterError(err) };
  }
  parentPort!.postMessage(reply);
});
