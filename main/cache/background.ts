/**
 * The pull's background writer: a worker thread with its own connection to the cache file (WAL
 * lets it write while this thread reads), so applying a pulled page — the document rows and the
 * full-text index, most of a first sync's CPU — overlaps with downloading and checking the next
 * page. Pages are applied in the order given, each in one transaction (Cache.applyPreparedPage).
 *
 * The worker is started the first time a pull asks for it and lives as long as the cache. Where it
 * cannot run (an in-memory cache, a build without the worker file, S2T_PULL_WORKER=0) the caller
 * applies pages on this thread as before.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sqliteOptions } from '../platform/sqlite';
import type { PreparedPage, PulledChanges } from './cache';
import type { Db } from './open';

export interface WriterRequest {
  id: number;
  accountId: number;
  page: PreparedPage;
}
export type WriterReply = { id: number; ok: PulledChanges } | { id: number; error: { message: string; code?: string } };
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
  close(): void;
}

const CLOSE_WAIT_MS = 10_000;

/** The worker's script: beside the bundle in a build (dist/main/cache-worker.js), the TypeScript source under tsx/vitest. */
function spawnWorker(data: WriterData): Worker | null {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const script = new URL('./pull-worker.ts', here).href;
    // tsx's ESM entry (its require entry cannot register the ESM hooks in a worker).
    const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    const code = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(script)}))`;
    return new Worker(code, { eval: true, workerData: data });
  }
  const script = new URL('./cache-worker.js', here);
  if (!existsSync(fileURLToPath(script))) return null;
  return new Worker(script, { workerData: data });
}

/** The writer thread failed or stopped (as opposed to the page's transaction failing in it). */
export class WriterFailure extends Error {}

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
  const pending = new Map<number, { resolve: (c: PulledChanges) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let dead: Error | null = null;
  w.unref(); // held only while a page is in flight, so an idle writer never keeps the process alive
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
    if ('ok' in m) p.resolve(m.ok);
    else p.reject(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
  });
  w.on('error', (err) => failAll(new WriterFailure(`the cache's background writer failed: ${err.message}`)));
  w.on('exit', (code) => failAll(new WriterFailure(`the cache's background writer stopped (exit code ${code})`)));
  return {
    apply(accountId, page) {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      return new Promise<PulledChanges>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.ref();
        w.postMessage({ id, accountId, page } satisfies WriterRequest);
      });
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
