/**
 * The pull's background worker thread (see background.ts): its own connection to the cache file;
 * checks document pages and keeps their rows, and applies pulled pages one message at a time,
 * each in one transaction.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { Document } from '../../common/api';
import { checkJsonAnswer } from '../api/check';
import { MalformedResponseError } from '../api/errors';
import { listMemberTexts } from '../api/json-members';
import { CLOSE, type ParsedDocuments, type WriterData, type WriterError, type WriterReply, type WriterRequest } from './background';
import { applyPreparedPage, prepareDocument, type PreparedDocument, type PreparedPage } from './pull-apply';
import { configure } from './open';

const data = workerData as WriterData;
const db = new Database(data.file, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {});
configure(db);

/** Checked documents waiting for the page that names them, by ref. */
const held = new Map<number, { batch: number; docs: PreparedDocument[] }>();
const forgotten = new Set<number>();
let nextRef = 1;
/** For the crash tests only: `parse:N` or `apply:N` ends the thread abruptly on receiving that request (test/main/sync/parse-worker.test.ts). */
const [exitKind, exitAt] = (process.env.S2T_TEST_PULL_WORKER_EXIT_AT ?? ':0').split(':');
const received = { parse: 0, apply: 0 };

function parse(m: Extract<WriterRequest, { kind: 'parse' }>): ParsedDocuments {
  const { data: checked, text } = checkJsonAnswer('documents.list', m.status, m.bytes);
  const page = checked as { result: Document[]; total_results: number };
  // Each body stored as the service wrote it, cut out of the checked bytes (json-members.ts).
  const texts = listMemberTexts({ bytes: m.bytes, text }, 'result', 'document');
  const usable = texts?.length === page.result.length;
  const docs = page.result.map((doc, i) => prepareDocument(doc, m.sessionId, usable && doc.document ? texts[i] : undefined));
  const ref = nextRef++;
  if (!forgotten.has(m.batch)) held.set(ref, { batch: m.batch, docs });
  return { ref, count: page.result.length, total: page.total_results };
}

function apply(accountId: number, page: PreparedPage) {
  const refs = [...(page.parsed?.values() ?? [])].flat();
  try {
    for (const [sessionId, list] of page.parsed ?? []) {
      const docs: PreparedDocument[] = [];
      for (const ref of list) {
        const h = held.get(ref);
        if (!h) throw new Error(`the documents of session ${sessionId} are not held by the background writer`);
        docs.push(...h.docs);
      }
      page.docs.set(sessionId, docs);
    }
    return applyPreparedPage(db, accountId, page);
  } finally {
    for (const ref of refs) held.delete(ref);
  }
}

function errorOf(err: unknown): WriterError {
  if (err instanceof MalformedResponseError) {
    // The same error is made again on the other side from its parts; the problem is what follows them in the message.
    const lead = `malformed response from ${err.routeId}: ${err.field ? `field "${err.field}"` : 'body'} `;
    return { message: err.message, malformed: { status: err.status, field: err.field, problem: err.message.slice(lead.length) } };
  }
  return { message: (err as Error).message, code: (err as { code?: string }).code };
}

parentPort!.on('message', (m: WriterRequest | typeof CLOSE) => {
  if (m === CLOSE) {
    db.close();
    Atomics.store(data.closed, 0, 1);
    Atomics.notify(data.closed, 0);
    return;
  }
  if (m.kind === 'forget') {
    forgotten.add(m.batch);
    for (const [ref, h] of held) if (h.batch === m.batch) held.delete(ref);
    return;
  }
  if (++received[m.kind] === Number(exitAt) && m.kind === exitKind) process.exit(70);
  let reply: WriterReply;
  try {
    reply = { id: m.id, ok: m.kind === 'parse' ? parse(m) : apply(m.accountId, m.page) };
  } catch (err) {
    reply = { id: m.id, error: errorOf(err) };
  }
  parentPort!.postMessage(reply);
});
