/**
 * The messages between the main thread and the pull's two threads (background.ts): the parse
 * thread (parse-worker.ts) and the writer thread (pull-worker.ts), and between the two of them.
 */
import { setPriority } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { MalformedResponseError } from '../api/errors';
import type { PreparedDocument, PreparedPage, PulledChanges } from './pull-apply';

/** What a checked documents page left with the writer: its documents are kept there under `ref`. */
export interface ParsedDocuments {
  ref: number;
  count: number;
  total: number;
}

export type WriterError = { message: string; code?: string; malformed?: { status: number; field: string; problem: string } };

/** Main → parse thread: a documents.list answer's bytes (handed over, not copied). */
export type ParseRequest = { id: number; batch: number; sessionId: string; status: number; bytes: Uint8Array };
export type ParseReply = { id: number; ok: ParsedDocuments } | { id: number; error: WriterError };

/** Parse thread → writer: a checked page's documents, as rows, to keep until a page names `ref`. */
export type HeldDocuments = { ref: number; batch: number; docs: PreparedDocument[] };

export type WriterRequest =
  | { id: number; kind: 'apply'; accountId: number; page: PreparedPage }
  /** Drops what a pull parsed and did not apply (it failed or was cancelled); no reply. */
  | { kind: 'forget'; batch: number };
export type WriterReply = { id: number; ok: PulledChanges } | { id: number; error: WriterError };

export interface WriterData {
  file: string;
  /** Set to 1 by the writer once its connection is closed (close() waits on it). */
  closed: Int32Array;
  /** Where the parse thread's documents arrive. */
  parsed: MessagePort;
}
/** The message that closes the writer's connection (after the pages sent before it). */
export const CLOSE = 'close';

/** An error made in a thread, as plain data; a MalformedResponseError keeps its parts so that the main thread can make it again. */
export function toWriterError(err: unknown): WriterError {
  if (err instanceof MalformedResponseError) {
    // The problem is what follows the route and field in the message.
    const lead = `malformed response from ${err.routeId}: ${err.field ? `field "${err.field}"` : 'body'} `;
    return { message: err.message, malformed: { status: err.status, field: err.field, problem: err.message.slice(lead.length) } };
  }
  return { message: (err as Error).message, code: (err as { code?: string }).code };
}

export function fromWriterError(e: WriterError): Error {
  if (e.malformed) return new MalformedResponseError('documents.list', e.malformed.status, e.malformed.field, e.malformed.problem);
  return Object.assign(new Error(e.message), e.code ? { code: e.code } : {});
}

/**
 * For the crash tests only (test/main/sync/parse-worker.test.ts): S2T_TEST_PULL_WORKER_EXIT_AT
 * `parse:N` ends the parse thread abruptly on its Nth request, `apply:N` the writer on its Nth.
 */
export function testExitAt(kind: 'parse' | 'apply'): number {
  const [k, n] = (process.env.S2T_TEST_PULL_WORKER_EXIT_AT ?? ':0').split(':');
  return k === kind ? Number(n) : 0;
}

/**
 * Lowers the calling thread's scheduling priority, on Linux, where the nice value belongs to a
 * thread (elsewhere it is the whole process's, which must keep its own). The parse thread and the
 * writer are background work: the main thread, which answers the window, and the embedded local
 * service, which paces the downloads, go first, and the sync's threads take what CPU is left.
 */
const BACKGROUND_NICE = 10;

export function runInBackground(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, BACKGROUND_NICE);
  } catch {
    // Not permitted: run at the usual priority.
  }
}
