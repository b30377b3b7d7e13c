/** Sessions: what the pull compares against the service's list, the sweep of gone ones, and the UI's reads. */
import type { Session } from '../../common/api';
import type { DocumentSummary, SessionSort, SessionSummary } from '../../common/ipc';
import { count, now, stmt, type ReadableDb, type WritableDb } from './db';
import { summaryOf, type DocumentRow } from './documents';
import { enqueue, outboxCountOfSession } from './outbox';

interface SummaryRow {
  data: string;
  deleted_on_server: number;
  pending: number;
  refused: string | null;
}

const summaryOfRow = (r: SummaryRow): SessionSummary => ({
  ...(JSON.parse(r.data) as Session),
  pending_edits: r.pending,
  deleted_on_server: r.deleted_on_server === 1,
  delete_refused: r.refused,
});

function sessionMeta(db: ReadableDb, sessionId: string) {
  return stmt(db, 'SELECT last_modified, docs_version FROM sessions WHERE session_id = ?').get(sessionId) as { last_modified: string | null; docs_version: string | null } | undefined;
}

/** Whether the session's documents must be pulled: new, or changed since we pulled them. */
export function sessionNeedsDocs(db: ReadableDb, s: Session): boolean {
  const row = sessionMeta(db, s.session_id);
  return !row || row.docs_version === null || row.docs_version !== (s.last_modified ?? null);
}

/** The local version of a session, to compare with a listed one. */
export function sessionVersion(db: ReadableDb, sessionId: string): string | null | undefined {
  const row = sessionMeta(db, sessionId);
  return row ? row.last_modified : undefined;
}

/** The session's documents as last pulled from the service (id to last_modified), to compare with the service's list. */
export function pulledDocumentVersions(db: ReadableDb, sessionId: string): Map<string, string> {
  const rows = stmt(db, 'SELECT id, last_modified FROM documents WHERE session_id = ? AND local_only = 0 AND deleted_on_server = 0').all(sessionId) as { id: string; last_modified: string }[];
  return new Map(rows.map((r) => [r.id, r.last_modified]));
}

/**
 * Sessions the service no longer lists: removed with their documents, unless they hold unsent
 * edits, in which case they stay and are flagged. Returns the ids removed or flagged.
 */
export function sweepSessions(db: WritableDb, accountId: number, onServer: Set<string>): string[] {
  const gone: string[] = [];
  db.transaction(() => {
    const local = stmt(db, 'SELECT session_id FROM sessions WHERE account_id = ? AND deleted_on_server = 0').all(accountId) as { session_id: string }[];
    for (const { session_id } of local) {
      if (onServer.has(session_id)) continue;
      gone.push(session_id);
      if (outboxCountOfSession(db, session_id) > 0) {
        stmt(db, 'UPDATE sessions SET deleted_on_server = 1 WHERE session_id = ?').run(session_id);
        stmt(db, 'UPDATE documents SET deleted_on_server = 1 WHERE session_id = ?').run(session_id);
      } else {
        stmt(db, 'DELETE FROM sessions WHERE session_id = ?').run(session_id);
      }
    }
  }).immediate();
  return gone;
}

export function sessionCount(db: ReadableDb, accountId: number): number {
  return count(db, 'SELECT count(*) AS n FROM sessions WHERE account_id = ? AND deleted_on_server = 0', accountId);
}

// The same expressions as the indexes of migration 7, so SQLite serves each order from one.
const UPLOADED = "coalesce(json_extract(s.data, '$.date_upload'), s.last_modified)";
const DURATION = "coalesce(json_extract(s.data, '$.duration'), 0)";
const MODE = "json_extract(s.data, '$.session_mode')";

const ORDER: Record<SessionSort, string> = {
  date: UPLOADED,
  name: 's.filename COLLATE NOCASE',
  duration: DURATION,
  status: 's.status',
};

/**
 * Hidden from the list: deleted here, the delete sent or waiting (a refused one shows again).
 * NOT IN over the uncorrelated set is built once per query; a correlated NOT EXISTS probed
 * session_deletions for every row scanned, the rows an OFFSET skips included (a third of a page's time).
 */
const NOT_DELETED = 's.session_id NOT IN (SELECT session_id FROM session_deletions WHERE refused IS NULL AND session_id IS NOT NULL)';
const COLUMNS = `s.data, s.deleted_on_server, (SELECT count(*) FROM outbox o WHERE o.session_id = s.session_id) AS pending,
  (SELECT refused FROM session_deletions d WHERE d.session_id = s.session_id) AS refused`;

/** A page of the list, searched, filtered and sorted in SQLite (indexes in migration 7). */
export function listSessions(db: ReadableDb, accountId: number, page: SessionListPage): { items: SessionSummary[]; total: number } {
  const where = ['s.account_id = ?'];
  const args: unknown[] = [accountId];
  if (page.q) {
    where.push("(s.filename LIKE ? ESCAPE '\\' OR s.language LIKE ? ESCAPE '\\' OR s.status LIKE ? ESCAPE '\\')");
    const like = `%${page.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    args.push(like, like, like);
  }
  if (page.status?.length) {
    where.push('s.status IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(page.status));
  }
  if (page.language) {
    where.push('s.language = ?');
    args.push(page.language);
  }
  if (page.mode) {
    where.push(`${MODE} = ?`);
    args.push(page.mode);
  }
  const filters = where.join(' AND '); // a few texts only: which filters are on, not their values
  const dir = page.direction === 'asc' ? 'ASC' : 'DESC';
  const order = `${ORDER[page.sort ?? 'date']} ${dir}${page.sort === 'status' ? `, ${UPLOADED} ${dir}` : ''}, s.session_id ${dir}`;
  // Counted as all that match less the few hidden ones: the first count is served by an index alone.
  const total =
    count(db, `SELECT count(*) AS n FROM sessions s WHERE ${filters}`, ...args) -
    count(db, `SELECT count(*) AS n FROM session_deletions d JOIN sessions s ON s.session_id = d.session_id WHERE d.refused IS NULL AND ${filters}`, ...args);
  const rows = stmt(db, `SELECT ${COLUMNS} FROM sessions s WHERE ${filters} AND ${NOT_DELETED} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...args, page.limit, page.offset) as SummaryRow[];
  return { items: rows.map(summaryOfRow), total };
}

export interface SessionListPage {
  offset: number;
  limit: number;
  q?: string;
  sort?: SessionSort;
  direction?: 'asc' | 'desc';
  status?: string[];
  language?: string;
  mode?: string;
}

/** The languages and modes the account's sessions have, for the list's filters. */
export function sessionFacets(db: ReadableDb, accountId: number): { languages: string[]; modes: string[] } {
  const languages = (stmt(db, 'SELECT DISTINCT language FROM sessions WHERE account_id = ? ORDER BY language').all(accountId) as { language: string }[]).map((r) => r.language);
  const modes = (stmt(db, `SELECT DISTINCT ${MODE} AS mode FROM sessions s WHERE s.account_id = ? AND mode IS NOT NULL ORDER BY mode`).all(accountId) as { mode: string }[]).map((r) => r.mode);
  return { languages, modes };
}

/** A small remembered piece of the UI (the list's view), per account. */
export function uiState(db: ReadableDb, accountId: number, name: string): string | null {
  return (stmt(db, 'SELECT value FROM ui_state WHERE account_id = ? AND name = ?').get(accountId, name) as { value: string } | undefined)?.value ?? null;
}

export function setUiState(db: WritableDb, accountId: number, name: string, value: string): void {
  stmt(db, 'INSERT INTO ui_state (account_id, name, value) VALUES (?, ?, ?) ON CONFLICT(account_id, name) DO UPDATE SET value = excluded.value').run(accountId, name, value);
}

/**
 * Deletes sessions here: hidden at once, and a delete queued for each (the outbox entry is keyed
 * by the session id). Edits already queued for its documents go first, in outbox order. Returns
 * the ids that were the account's.
 */
export function deleteSessions(db: WritableDb, accountId: number, sessionIds: string[]): string[] {
  const done: string[] = [];
  db.transaction(() => {
    for (const id of sessionIds) {
      const own = stmt(db, 'SELECT 1 AS y FROM sessions WHERE session_id = ? AND account_id = ?').get(id, accountId);
      if (!own) continue;
      stmt(db, `INSERT INTO session_deletions (session_id, account_id, requested_at, refused) VALUES (?, ?, ?, NULL)
        ON CONFLICT(session_id) DO UPDATE SET requested_at = excluded.requested_at, refused = NULL`).run(id, accountId, now());
      stmt(db, "DELETE FROM outbox WHERE document_id = ? AND op = 'deleteSession'").run(id);
      enqueue(db, { id, session_id: id }, { op: 'deleteSession' });
      done.push(id);
    }
  }).immediate();
  return done;
}

/**
 * The service erased the session: its rows go with the entry and any left for its documents. The
 * mark stays, since the service keeps an erased session in its list and the pull brings it back.
 */
export function sessionDeleted(db: WritableDb, seq: number, sessionId: string): void {
  db.transaction(() => {
    stmt(db, 'DELETE FROM outbox WHERE seq = ? OR session_id = ?').run(seq, sessionId);
    stmt(db, 'DELETE FROM sessions WHERE session_id = ?').run(sessionId);
  }).immediate();
}

/** The service refused the delete for good: the session shows again, with the reason. */
export function sessionDeleteRefused(db: WritableDb, seq: number, sessionId: string, reason: string): void {
  db.transaction(() => {
    stmt(db, 'DELETE FROM outbox WHERE seq = ?').run(seq);
    stmt(db, 'UPDATE session_deletions SET refused = ? WHERE session_id = ?').run(reason, sessionId);
  }).immediate();
}

/**
 * Renames a session here at once and queues the rename for the service (keyed by the session id,
 * as a delete is). Only the newest name matters, so a rename still waiting replaces the one before.
 * False when the session is not the account's (or is deleted).
 */
export function renameSession(db: WritableDb, accountId: number, sessionId: string, filename: string): boolean {
  return db.transaction(() => {
    const own = stmt(db, `SELECT 1 AS y FROM sessions s WHERE s.session_id = ? AND s.account_id = ? AND ${NOT_DELETED}`).get(sessionId, accountId);
    if (!own) return false;
    setSessionName(db, sessionId, filename);
    stmt(db, "DELETE FROM outbox WHERE document_id = ? AND op = 'renameSession'").run(sessionId);
    enqueue(db, { id: sessionId, session_id: sessionId }, { op: 'renameSession', filename });
    return true;
  }).immediate();
}

/** The name column and the stored resource's filename, which the list and the page read. */
function setSessionName(db: WritableDb, sessionId: string, filename: string): void {
  stmt(db, "UPDATE sessions SET filename = ?, data = json_set(data, '$.filename', ?) WHERE session_id = ?").run(filename, filename, sessionId);
}

/** The name a rename still waiting in the outbox gives the session, which a pull must not undo. */
export function pendingSessionName(db: ReadableDb, sessionId: string): string | null {
  const r = stmt(db, "SELECT payload FROM outbox WHERE document_id = ? AND op = 'renameSession' ORDER BY seq DESC LIMIT 1").get(sessionId) as { payload: string } | undefined;
  return r ? (JSON.parse(r.payload) as { filename: string }).filename : null;
}

/** The service took the rename: the entry goes, and the session is stored as the service answered (its new version). */
export function sessionRenamed(db: WritableDb, seq: number, session: Session): void {
  db.transaction(() => {
    stmt(db, 'DELETE FROM outbox WHERE seq = ?').run(seq);
    // A newer rename queued meanwhile keeps its name until it is sent.
    const name = pendingSessionName(db, session.session_id) ?? session.filename;
    stmt(db, 'UPDATE sessions SET filename = ?, last_modified = ?, data = ? WHERE session_id = ?')
      .run(name, session.last_modified ?? null, JSON.stringify({ ...session, filename: name }), session.session_id);
  }).immediate();
}

/** The session's name for messages (deleted or not). */
export function sessionName(db: ReadableDb, sessionId: string): string | null {
  return (stmt(db, 'SELECT filename FROM sessions WHERE session_id = ?').get(sessionId) as { filename: string } | undefined)?.filename ?? null;
}

export function getSession(db: ReadableDb, accountId: number, sessionId: string): { session: SessionSummary; documents: DocumentSummary[]; engine: string | null } | null {
  const r = stmt(db, `SELECT ${COLUMNS} FROM sessions s WHERE s.account_id = ? AND s.session_id = ? AND ${NOT_DELETED}`)
    .get(accountId, sessionId) as SummaryRow | undefined;
  if (!r) return null;
  const docs = stmt(db, 'SELECT * FROM documents WHERE session_id = ? AND deleted = 0 ORDER BY filename, id').all(sessionId) as DocumentRow[];
  const session = summaryOfRow(r);
  // The service stores 0 for a session without media (upload mode): its length is where its documents end.
  if (!(session.duration > 0)) session.duration = contentEndMs(db, sessionId) / 1000;
  return { session, documents: docs.map((d) => summaryOf(db, d)), engine: transcriptEngine(db, sessionId) };
}

/** The engine the service says made the session's first transcript (its body's metadata.engine); an uploaded document names none. */
function transcriptEngine(db: ReadableDb, sessionId: string): string | null {
  const r = stmt(db, `SELECT json_extract(body, '$.metadata.engine') AS engine FROM documents
    WHERE session_id = ? AND type = 'document' AND deleted = 0 AND local_only = 0 AND body IS NOT NULL ORDER BY id LIMIT 1`).get(sessionId) as { engine: unknown } | undefined;
  return typeof r?.engine === 'string' && r.engine !== 'upload' ? r.engine.slice(0, 120) : null;
}

/** Where the session's documents end, in ms (the last segment's or cue's end); 0 without content. */
export function contentEndMs(db: ReadableDb, sessionId: string): number {
  const r = stmt(db, `SELECT max(coalesce(json_extract(body, '$.content.segments[#-1].end_ms'), json_extract(body, '$.content.cues[#-1].end_ms'), 0)) AS end_ms
    FROM documents WHERE session_id = ? AND deleted = 0 AND body IS NOT NULL`).get(sessionId) as { end_ms: number | null };
  return r.end_ms ?? 0;
}
