/**
 * The background writer's thread (see background.ts): its own connection to the cache file,
 * applying prepared pull pages one message at a time, each in one transaction.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { CLOSE, type WriterData, type WriterReply, type WriterRequest } from './background';
import { Cache } from './cache';
import { configure } from './open';

const data = workerData as WriterData;
const db = new Database(data.file, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {});
configure(db);
const cache = new Cache(db);

parentPort!.on('message', (m: WriterRequest | typeof CLOSE) => {
  if (m === CLOSE) {
    db.close();
    Atomics.store(data.closed, 0, 1);
    Atomics.notify(data.closed, 0);
    return;
  }
  let reply: WriterReply;
  try {
    reply = { id: m.id, ok: cache.applyPreparedPage(m.accountId, m.page) };
  } catch (err) {
    reply = { id: m.id, error: { message: (err as Error).message, code: (err as { code?: string }).code } };
  }
  parentPort!.postMessage(reply);
});
