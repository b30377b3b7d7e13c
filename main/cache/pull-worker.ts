/**
 * The pull's writer thread (see background.ts): its own connection to the cache file; keeps the
 * documents the parse thread checked (parse-worker.ts) and applies pulled pages one message at a
 * time, each in one transaction.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { applyPreparedPage, type PreparedDocument, type PreparedPage } from './pull-apply';
import { configure } from './open';
import { CLOSE, runInBackground, testExitAt, toWriterError, type HeldDocuments, type WriterData, type WriterReply, type WriterRequest } from './worker-protocol';

const data = workerData as WriterData;
runInBackground();
const db = new Database(data.file);
configure(db);

/** Checked documents waiting for the page that names them, by ref. */
const held = new Map<number, { batch: number; docs: PreparedDocument[] }>();
const forgotten = new Set<number>();
/** Refs of forgotten batches: a page naming one is refused rather than applied without its documents (or left waiting). */
const dropped = new Set<number>();
/**
 * The page waiting for documents still on their way from the parse thread. The parse thread sends
 * a page's documents before the main thread hears of them, but the two ports' messages may be
 * taken in either order. The main thread sends one page at a time, so there is at most one.
 */
let waiting: { id: number; accountId: number; page: PreparedPage; refs: number[] } | null = null;
const exitAt = testExitAt('apply');
let applies = 0;

function apply(accountId: number, page: PreparedPage, refs: number[]) {
  try {
    for (const [sessionId, list] of page.parsed ?? []) page.docs.set(sessionId, list.flatMap((ref) => held.get(ref)!.docs));
    return applyPreparedPage(db, accountId, page);
  } finally {
    for (const ref of refs) held.delete(ref);
  }
}

/** Applies the waiting page once every document it names is here. */
function applyWhenHeld(): void {
  if (!waiting) return;
  const lost = [...(waiting.page.parsed ?? [])].find(([, refs]) => refs.some((ref) => dropped.has(ref)));
  if (!lost && waiting.refs.some((ref) => !held.has(ref))) return;
  const { id, accountId, page, refs } = waiting;
  waiting = null;
  let reply: WriterReply;
  try {
    if (lost) throw new Error(`the documents of session ${lost[0]} are not held by the background writer`);
    reply = { id, ok: apply(accountId, page, refs) };
  } catch (err) {
    reply = { id, error: toWriterError(err) };
  }
  parentPort!.postMessage(reply);
}

data.parsed.on('message', (m: HeldDocuments) => {
  if (forgotten.has(m.batch)) dropped.add(m.ref);
  else held.set(m.ref, { batch: m.batch, docs: m.docs });
  applyWhenHeld();
});

parentPort!.on('message', (m: WriterRequest | typeof CLOSE) => {
  if (m === CLOSE) {
    // A page still waiting is dropped: the main thread has given up on this writer and applies it itself.
    waiting = null;
    data.parsed.close();
    db.close();
    Atomics.store(data.closed, 0, 1);
    Atomics.notify(data.closed, 0);
    return;
  }
  if (m.kind === 'forget') {
    forgotten.add(m.batch);
    for (const [ref, h] of held) {
      if (h.batch !== m.batch) continue;
      held.delete(ref);
      dropped.add(ref);
    }
    applyWhenHeld();
    return;
  }
  if (++applies === exitAt) process.exit(70);
  waiting = { id: m.id, accountId: m.accountId, page: m.page, refs: [...(m.page.parsed?.values() ?? [])].flat() };
  applyWhenHeld();
});
