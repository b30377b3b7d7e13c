/**
 * The pull's parse thread (see background.ts): checks document pages and turns their documents
 * into rows, handing the rows straight to the writer thread over its own port, so that neither
 * the main thread nor the writer spends time on a parse, and a page's parse never waits behind
 * the writer's transaction of the page before.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Document } from '../../common/api';
import { checkJsonAnswer } from '../api/check';
import { runInBackground, testExitAt, toWriterError, type HeldDocuments, type ParseReply, type ParseRequest } from './worker-protocol';
import { prepareDocumentsPage } from './pull-apply';

const { writer } = workerData as { writer: MessagePort };
runInBackground();
const exitAt = testExitAt('parse');
let received = 0;

parentPort!.on('message', (m: ParseRequest) => {
  if (++received === exitAt) process.exit(70);
  let reply: ParseReply;
  try {
    const { data: checked, text } = checkJsonAnswer('documents.list', m.status, m.bytes);
    const page = checked as { result: Document[]; total_results: number };
    const docs = prepareDocumentsPage(page.result, m.sessionId, { bytes: m.bytes, text });
    // To the writer before the answer: whatever ref the main thread learns is already on its way there.
    writer.postMessage({ ref: m.id, batch: m.batch, docs } satisfies HeldDocuments);
    reply = { id: m.id, ok: { ref: m.id, count: page.result.length, total: page.total_results } };
  } catch (err) {
    reply = { id: m.id, error: toWriterError(err) };
  }
  parentPort!.postMessage(reply);
});
