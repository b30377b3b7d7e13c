/**
 * The pull's background worker: a thread with its own connection to the cache file (WAL lets it
 * write while this thread reads). It does the two heavy parts of a first sync, so that the main
 * thread — the one that answers every IPC call and drives the window — only downloads:
 * - checking document pages: a page's bytes are handed over (transferred, not copied), and the
 *   worker parses and validates them (main/api/check.ts, the same check and errors as on this
 *   thread), turns the documents into rows and keeps them, answering only their count and a ref;
 * - applying pulled pages, each in one transaction (Cache.applyPreparedPage), the documents named
 *   by those refs included.
 * Messages are handled in the order sent, so a page's documents are always parsed before the page
 * that names them is applied.
 *
 * The worker is started the first time a pull asks for it and lives as long as the cache. Where it
 * cannot run (an in-memory cache, a build without the worker file, S2T_PULL_WORKER=0) the caller
 * parses and applies on this thread as before.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { MalformedResponseError } from '../api/errors';
import { sqliteOptions } from '../platform/sqlite';
import type { Db } from './db';
import type { PreparedPage, PulledChanges } from './pull-apply';

/** What a checked documents page left in the worker: its documents are kept under `ref`. */
export interface ParsedDocuments {
  ref: number;
  count: number;
  total: number;
}

export type WriterRequest =
  | { id: number; kind: 'apply'; accountId: number; page: PreparedPage }
  | { id: number; kind: 'parse'; batch: number; sessionId: string; status: number; bytes: Uint8Array }
  /** Drops what a pull parsed and did not apply (it failed or was cancelled); no reply. */
  | { kind: 'forget'; batch: number };
export type WriterError = { message: string; code?: string; malformed?: { status: number; field: string; problem: string } };
export type WriterReply = { id: number; ok: PulledChanges | ParsedDocuments } | { id: number; error: WriterError };
export interface WriterData {
  file: string;
  nativeBinding?: string;
  /** Set to 1 by the worker once its connection is closed (close() waits on it). */
  closed: Int32Array;
}
/** The message that closes the worker's connection (after the pages sent before it). */
export const CLOSE = 'close';

export interface BackgroundWriter {
  /** Rejects with a WriterFailure when the writer itself failed (the page may not be applied). */
  apply(accountId: number, page: PreparedPage): Promise<PulledChanges>;
  /**
   * Checks a documents.list answer (its bytes are handed over: unusable here afterwards) and keeps
   * its documents for a page that names `ref` in PreparedPage.parsed. Rejects with the
   * MalformedResponseError this thread's check would throw, or a WriterFailure.
   */
  parseDocuments(batch: number, sessionId: string, status: number, bytes: Uint8Array): Promise<ParsedDocuments>;
  /** A number for one pull's parsed documents, to forget them by when the pull ends early. */
  newBatch(): number;
  forget(batch: number): void;
  close(): void;
}

type Unnumbered = WriterRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

const CLOSE_WAIT_MS = 10_000;
/** The worker's script: beside the bundle in a build (dist/main/cache-worker.js), the TypeScript source under tsx/vitest. */
function spawnWorker(data: WriterData): Worker | null {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const script = new URL('./pull-worker.ts', here).href;
    // tsx's ESM entry (its require entry cannot register the ESM hooks in a worker).
    const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    const code = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(script)}))`;
    return new Worker(code, { eval: true, workerData: data});
  }
  const script = new URL('./cache-worker.js', here);
  if (!existsSync(fileURLToPath(script))) return null;
  return new Worker(script, { workerData: data});
}

/** The writer thread failed or stopped (as opposed to the page's transaction failing in it). */
export class WriterFailure extends Error {}

function errorOf(e: WriterError): Error {
  if (e.malformed) return new MalformedResponseError('documents.list', e.malformed.status, e.malformed.field, e.malformed.problem);
  return Object.assign(new Error(e.message), e.code ? { code: e.code } : {});
}

export function startBackgroundWriter(db: Db): BackgroundWriter | null {
  if (process.env.S2T_PULL_WORKER === '0' || db.memory || !db.name || !existsSync(db.name)) return null;
  let worker: Worker | null;
  const closed = new Int32Array(new SharedArrayBuffer(4));
  try {
    worker = spawnWorker({ file: db.name, nativeBinding: sqliteOptions().nativeBinding as string | undefined, closed });
  } catch {
    return null;
  }
  if (!worker) return null;
  const w = worker;
  const pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let batches = 0;
  let dead: Error | null = null;
  w.unref(); // held only while a request is in flight, so an idle writer never keeps the process alive
  const failAll = (err: Error) => {
    dead = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('message', (m: WriterReply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (!pending.size) w.unref();
    if ('ok' in m) p.resolve(m.ok as never);
    else p.reject(errorOf(m.error));
  });
  w.on('error', (err) => failAll(new WriterFailure(`the cache's background writer failed: ${err.message}`)));
  w.on('exit', (code) => failAll(new WriterFailure(`the cache's background writer stopped (exit code ${code})`)));
  const send = <T>(m: Unnumbered, transfer: ArrayBuffer[] = []): Promise<T> => {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: never) => void, reject });
      w.ref();
      w.postMessage({ ...m, id }, transfer);
    });
  };
  return {
    apply: (accountId, page) => send<PulledChanges>({ kind: 'apply', accountId, page }),
    parseDocuments(batch, sessionId, status, bytes) {
      // A whole ArrayBuffer moves without a copy; a view into a shared one is copied.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes : bytes.slice();
      return send<ParsedDocuments>({ kind: 'parse', batch, sessionId, status, bytes: own }, [own.buffer as ArrayBuffer]);
    },
    newBatch: () => ++batches,
    forget(batch) {
      if (!dead) w.postMessage({ kind: 'forget', batch } satisfies WriterRequest);
    },
    close() {
      // Waits (briefly) for the worker's connection to close, so the cache's own close is the
      // last one and checkpoints the WAL into the file, as before there was a second connection.
      if (!dead) {
        w.postMessage(CLOSE);
        Atomics.wait(closed, 0, 0, CLOSE_WAIT_MS);
      }
      failAll(new WriterFailure('the cache was closed'));
      void w.terminate();
    },
  };
}
