/**
 * The outbox: unsent local changes, one entry per change, sent in order per document by the push
 * (main/sync/push.ts). Entries are only written beside the change they carry, in its transaction
 * (documents.ts, conflicts.ts); this module reads them and records what a send did.
 */
import type { DocumentMutation } from '../../common/ipc';
import type { DocumentContent } from '../../common/transcript/model';
import { count, now, stmt, type ReadableDb, type WritableDb } from './db';

/** What an outbox entry asks of the service. `save` carries content; the rest are DocumentMutation ops. */
export type OutboxOp =
  | { op: 'save'; content: DocumentContent; filename?: string }
  | { op: 'merge'; documentIds: string[]; outputFilename: string }
  /** Keyed by the session id in document_id (main/cache/sessions.ts deleteSessions). */
  | { op: 'deleteSession' }
  /** Keyed by the session id too (main/cache/sessions.ts renameSession). */
  | { op: 'renameSession'; filename: string }
  | (DocumentMutation & { sourceId?: string });

export interface OutboxEntry {
  seq: number;
  document_id: string;
  session_id: string;
  op: OutboxOp;
  /** Sends tried; above 0 a retry must first check whether an earlier send landed. */
  attempts: number;
  /** Error answers so far; at MAX_FAILURES the entry is blocked. */
  failures: number;
  /** The document's service version when it was last sent. */
  sent_version: string | null;
  state: 'queued' | 'blocked';
  last_error: string | null;
}

/** After this many error answers (the service answered, but not with success) an entry is blocked. */
export const MAX_FAILURES = 5;

type OutboxRow = Omit<OutboxEntry, 'op'> & { payload: string };
const entryOf = (r: OutboxRow): OutboxEntry => ({
  seq: r.seq, document_id: r.document_id, session_id: r.session_id, op: JSON.parse(r.payload) as OutboxOp, attempts: r.attempts, failures: r.failures,
  sent_version: r.sent_version, state: r.state, last_error: r.last_error,
});

/** An outbox row `o` held back by a blocked earlier entry of its document. */
const HELD = "EXISTS (SELECT 1 FROM outbox b WHERE b.document_id = o.document_id AND b.state = 'blocked' AND b.seq < o.seq)";

/** Queues `op` for the document; only inside the transaction that makes the change locally. */
export function enqueue(db: WritableDb, d: { id: string; session_id: string }, op: OutboxOp): void {
  stmt(db, 'INSERT INTO outbox (document_id, session_id, op, payload, created_at) VALUES (?, ?, ?, ?, ?)').run(d.id, d.session_id, op.op, JSON.stringify(op), now());
}

export function outboxCountOfDocument(db: ReadableDb, documentId: string): number {
  return count(db, 'SELECT count(*) AS n FROM outbox WHERE document_id = ?', documentId);
}

export function outboxCountOfSession(db: ReadableDb, sessionId: string): number {
  return count(db, 'SELECT count(*) AS n FROM outbox WHERE session_id = ?', sessionId);
}

/** The oldest entry that may go now, leaving out the documents in `skip`. */
export function nextOutbox(db: ReadableDb, skip: Iterable<string> = []): OutboxEntry | null {
  // Per-document order: nothing of a document goes while an earlier entry of it is blocked
  // (held), nor, within one push, after one of its entries failed (the skipped ids, JSON).
  const r = stmt(db, `SELECT * FROM outbox o WHERE o.state = 'queued' AND NOT (${HELD})
    AND o.document_id NOT IN (SELECT value FROM json_each(?)) ORDER BY o.seq LIMIT 1`).get(JSON.stringify([...skip])) as OutboxRow | undefined;
  return r ? entryOf(r) : null;
}

/** Entries that will be sent (those blocked, or held behind a blocked one, are counted apart). */
export function pendingCount(db: ReadableDb): number {
  return count(db, `SELECT count(*) AS n FROM outbox o WHERE o.state = 'queued' AND NOT (${HELD})`);
}

/** Entries kept but not sent: refused by the service or failed MAX_FAILURES times, and those held behind them. */
export function blockedCount(db: ReadableDb): number {
  return count(db, 'SELECT count(*) AS n FROM outbox') - pendingCount(db);
}

export function outboxEntries(db: ReadableDb): OutboxEntry[] {
  return (stmt(db, 'SELECT * FROM outbox ORDER BY seq').all() as OutboxRow[]).map(entryOf);
}

/** The entries kept but no longer sent, oldest first, each with why (last_error). */
export function blockedEntries(db: ReadableDb): OutboxEntry[] {
  return (stmt(db, "SELECT * FROM outbox WHERE state = 'blocked' ORDER BY seq").all() as OutboxRow[]).map(entryOf);
}

/** Why the document's first blocked entry was refused, if it has one. */
export function blockedReason(db: ReadableDb, documentId: string): string | null {
  const r = stmt(db, "SELECT last_error FROM outbox WHERE document_id = ? AND state = 'blocked' ORDER BY seq LIMIT 1").get(documentId) as { last_error: string | null } | undefined;
  return r?.last_error ?? null;
}

/** The service id of a document made here, once the service has named it. */
export function resolveId(db: ReadableDb, id: string): string {
  return (stmt(db, 'SELECT server_id FROM id_aliases WHERE local_id = ?').get(id) as { server_id: string } | undefined)?.server_id ?? id;
}

/** New file names of copies and merges in this session that were sent but not yet confirmed. */
export function unfinishedCreations(db: ReadableDb, sessionId: string): Set<string> {
  const rows = stmt(db, "SELECT payload FROM outbox WHERE session_id = ? AND op IN ('copy', 'merge') AND attempts > 0").all(sessionId) as { payload: string }[];
  return new Set(rows.map((r) => {
    const op = JSON.parse(r.payload) as { newFilename?: string; outputFilename?: string };
    return op.newFilename ?? op.outputFilename ?? '';
  }));
}

/** Recorded (committed) before a send, so a retry after a lost answer knows to look first. */
export function noteSent(db: WritableDb, seq: number, sentVersion: string | null): void {
  stmt(db, 'UPDATE outbox SET attempts = attempts + 1, sent_version = ? WHERE seq = ?').run(sentVersion, seq);
}

/** The service answered with an error; returns the failures so far. */
export function noteFailure(db: WritableDb, seq: number, error: string): number {
  const r = stmt(db, 'UPDATE outbox SET failures = failures + 1, last_error = ? WHERE seq = ? RETURNING failures').get(error, seq) as { failures: number } | undefined;
  return r?.failures ?? 0;
}

/** Rewrites an entry's payload (the merged content a retry must send). */
export function rewrite(db: WritableDb, seq: number, op: OutboxOp): void {
  stmt(db, 'UPDATE outbox SET payload = ? WHERE seq = ?').run(JSON.stringify(op), seq);
}
