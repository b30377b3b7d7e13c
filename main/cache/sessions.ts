/** Sessions: what the pull compares against the service's list, the sweep of gone ones, and the UI's reads. */
import type { Session } from '../../common/api';
import type { DocumentSummary, SessionSummary } from '../../common/ipc';
import { count, stmt, type ReadableDb, type WritableDb } from './db';
import { summaryOf, type DocumentRow } from './documents';
import { outboxCountOfSession } from './outbox';

interface SummaryRow {
  data: string;
  deleted_on_server: number;
  pending: number;
}

const summaryOfRow = (r: SummaryRow): SessionSummary => ({ ...(JSON.parse(r.data) as Session), pending_edits: r.pending, deleted_on_server: r.deleted_on_server === 1 });

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

export function listSessions(db: ReadableDb, accountId: number, page: { offset: number; limit: number; q?: string }): { items: SessionSummary[]; total: number } {
  const where = ['s.account_id = ?'];
  const args: unknown[] = [accountId];
  if (page.q) {
    where.push("(s.filename LIKE ? ESCAPE '\\' OR s.language LIKE ? ESCAPE '\\' OR s.status LIKE ? ESCAPE '\\')");
    const like = `%${page.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    args.push(like, like, like);
  }
  const w = where.join(' AND '); // one of two texts: with or without the filter
  const total = count(db, `SELECT count(*) AS n FROM sessions s WHERE ${w}`, ...args);
  const rows = stmt(db, `SELECT s.data, s.deleted_on_server, (SELECT count(*) FROM outbox o WHERE o.session_id = s.session_id) AS pending
    FROM sessions s WHERE ${w} ORDER BY s.last_modified DESC, s.session_id LIMIT ? OFFSET ?`).all(...args, page.limit, page.offset) as SummaryRow[];
  return { items: rows.map(summaryOfRow), total };
}

export function getSession(db: ReadableDb, accountId: number, sessionId: string): { session: SessionSummary; documents: DocumentSummary[] } | null {
  const r = stmt(db, 'SELECT data, deleted_on_server, (SELECT count(*) FROM outbox o WHERE o.session_id = s.session_id) AS pending FROM sessions s WHERE account_id = ? AND session_id = ?')
    .get(accountId, sessionId) as SummaryRow | undefined;
  if (!r) return null;
  const docs = stmt(db, 'SELECT * FROM documents WHERE session_id = ? AND deleted = 0 ORDER BY filename, id').all(sessionId) as DocumentRow[];
  return { session: summaryOfRow(r), documents: docs.map((d) => summaryOf(db, d)) };
}
