/**
 * The pull's background threads, which do the heavy parts of a first sync so that the main
 * thread (the one that answers every IPC call and drives the window) only downloads:
 * - the parse thread (parse-worker.ts) checks document pages: a page's bytes are handed over
 *   (transferred, not copied), parsed and validated (main/api/check.ts, the same check and errors
 *   as on this thread) and turned into rows, which go straight to the writer over a port of their
 *   own; this thread hears only their count and a ref;
 * - the writer thread (pull-worker.ts), with its own connection to the cache file (WAL lets it
 *   write while this thread reads), applies pulled pages, each in one transaction
 *   (Cache.applyPreparedPage), the documents named by those refs included.
 * Two threads rather than one: a page's parse would otherwise wait behind the transaction of the
 * page before, and the downloads behind the parse (README: First sync).
 *
 * Both start the first time a pull asks for them and live as long as the cache; should either
 * fail, both go (the writer once it has answered the page it is applying, when it is the parse
 * thread that failed), and the caller carries on on this thread. Where they cannot run (an in-memory
 * cache, a build without the worker files, S2T_PULL_WORKER=0) the caller parses and applies on
 * this thread as before.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import type { Db } from './db';
import type { PreparedPage, PulledChanges } from './pull-apply';
import { CLOSE, fromWriterError, type ParsedDocuments, type ParseReply, type ParseRequest, type WriterData, type WriterReply, type WriterRequest } from './worker-protocol';

export type { ParsedDocuments };

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

const CLOSE_WAIT_MS = 10_000;
/**
 * The parse thread's young generation. A 5,000-word page parses into about a megabyte of short-
 * lived objects; V8's default (a semi-space growing from 1 MB) scavenges several times during
 * each, copying the half-built page each time (README: First sync).
 */
const PARSE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 64 };

/** A thread's script: beside the bundle in a build (dist/main/<built>.js), the TypeScript source under tsx/vitest. */
function spawn(source: string, built: string, options: { workerData: unknown; transferList?: MessagePort[]; resourceLimits?: ResourceLimits }): Worker | null {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const script = new URL(`./${source}`, here).href;
    // tsx's ESM entry (its require entry cannot register the ESM hooks in a worker).
    const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    const code = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(script)}))`;
    return new Worker(code, { ...options, eval: true });
  }
  const script = new URL(`./${built}`, here);
  if (!existsSync(fileURLToPath(script))) return null;
  return new Worker(script, options);
}

/** The writer thread failed or stopped (as opposed to the page's transaction failing in it). */
export class WriterFailure extends Error {}

type Pending = { resolve: (v: never) => void; reject: (e: Error) => void };

/** Numbered requests to a thread and their replies; the thread keeps the process alive only while one is in flight. */
function requests(w: Worker, pending: Map<number, Pending>) {
  w.unref();
  w.on('message', (m: WriterReply | ParseReply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (!pending.size) w.unref();
    if ('ok' in m) p.resolve(m.ok as never);
    else p.reject(fromWriterError(m.error));
  });
  return <T>(id: number, m: object, transfer: ArrayBuffer[] = []): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: never) => void, reject });
      w.ref();
      w.postMessage({ ...m, id }, transfer);
    });
}

export function startBackgroundWriter(db: Db): BackgroundWriter | null {
  if (process.env.S2T_PULL_WORKER === '0' || db.memory || !db.name || !existsSync(db.name)) return null;
  const closed = new Int32Array(new SharedArrayBuffer(4));
  const { port1: toWriter, port2: parsed } = new MessageChannel();
  let writer: Worker | null = null;
  let parser: Worker | null = null;
  try {
    const data: WriterData = { file: db.name, closed, parsed };
    writer = spawn('pull-worker.ts', 'cache-worker.js', { workerData: data, transferList: [parsed] });
    parser = writer && spawn('parse-worker.ts', 'parse-worker.js', { workerData: { writer: toWriter }, transferList: [toWriter], resourceLimits: PARSE_LIMITS });
  } catch {
    // fall through: whichever started is stopped below
  }
  if (!writer || !parser) {
    void writer?.terminate();
    return null;
  }
  const [w, p] = [writer, parser];
  const writerPending = new Map<number, Pending>();
  const parsePending = new Map<number, Pending>();
  let nextId = 1;
  let batches = 0;
  let dead: Error | null = null;
  const refuse = (pending: Map<number, Pending>, err: Error) => {
    for (const q of pending.values()) q.reject(err);
    pending.clear();
  };
  const failAll = (err: Error) => {
    if (!dead) void p.terminate();
    // Either thread gone: both go, and the pull carries on on this thread.
    void w.terminate();
    dead ??= err;
    refuse(parsePending, err);
    refuse(writerPending, err);
  };
  /**
   * The parse thread gone: it goes, and so does the writer, but not before it has answered the
   * page it is applying. That page may already be committed: refused here, it would be applied
   * again on this thread, change nothing, and the pull would report none of its changes (nor tell
   * the window). It cannot wait forever: every document it names was posted to the writer before
   * the parse thread answered for it, and a port delivers what was posted before its thread ended.
   */
  const parseFailed = (err: Error) => {
    if (!dead) void p.terminate();
    dead ??= err;
    refuse(parsePending, err);
    if (!writerPending.size) void w.terminate();
  };
  w.on('error', (err) => failAll(new WriterFailure(`the cache's background writer failed: ${err.message}`)));
  w.on('exit', (code) => failAll(new WriterFailure(`the cache's background writer stopped (exit code ${code})`)));
  p.on('error', (err) => parseFailed(new WriterFailure(`the cache's background parse thread failed: ${err.message}`)));
  p.on('exit', (code) => parseFailed(new WriterFailure(`the cache's background parse thread stopped (exit code ${code})`)));
  const toWriterThread = requests(w, writerPending);
  const toParseThread = requests(p, parsePending);
  const send = <T>(to: typeof toWriterThread, m: object, transfer?: ArrayBuffer[]): Promise<T> => (dead ? Promise.reject(dead) : to<T>(nextId++, m, transfer));
  return {
    apply(accountId, page) {
      const applied = send<PulledChanges>(toWriterThread, { kind: 'apply', accountId, page } satisfies Omit<Extract<WriterRequest, { kind: 'apply' }>, 'id'>);
      // The writer outlived the parse thread only to answer this: now it goes.
      const settled = () => void (dead && !writerPending.size && w.terminate());
      applied.then(settled, settled);
      return applied;
    },
    parseDocuments(batch, sessionId, status, bytes) {
      // A whole ArrayBuffer moves without a copy; a view into a shared one is copied.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes : bytes.slice();
      return send<ParsedDocuments>(toParseThread, { batch, sessionId, status, bytes: own } satisfies Omit<ParseRequest, 'id'>, [own.buffer as ArrayBuffer]);
    },
    newBatch: () => ++batches,
    forget(batch) {
      if (!dead) w.postMessage({ kind: 'forget', batch } satisfies WriterRequest);
    },
    close() {
      // Waits (briefly) for the writer's connection to close, so the cache's own close is the
      // last one and checkpoints the WAL into the file, as before there was a second connection.
      if (!dead) {
        w.postMessage(CLOSE);
        Atomics.wait(closed, 0, 0, CLOSE_WAIT_MS);
      }
      failAll(new WriterFailure('the cache was closed'));
    },
  };
}
