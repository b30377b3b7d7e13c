/**
 * What a pull writes: pages of sessions and their documents turned into rows (plain data, so a
 * page can be handed to the background writer, background.ts), and each page applied in one
 * IMMEDIATE transaction.
 */
import type { Document, Session } from '../../common/api';
import { listMemberTexts } from '../api/json-members';
import { stmt, type WritableDb } from './db';
import { documentRow, deleteDocumentRow, metaOf, type DocumentRow } from './documents';
import { outboxCountOfDocument, unfinishedCreations } from './outbox';
import { replaceSearchRows, segmentRows, type SearchRow } from './search-rows';

/** What a pulled page changed: the ids of sessions and documents. */
export interface PulledChanges {
  sessions: string[];
  documents: string[];
}

/**
 * A service document as the columns it is stored in, with its search rows (null: no content).
 * `body` may be the JSON's UTF-8 bytes as the service sent them (documents-page.ts): they go to
 * the writer thread without a copy and are stored as the same TEXT (UPSERT_DOCUMENT casts them).
 */
export interface PreparedDocument extends Pick<DocumentRow, 'id' | 'session_id' | 'filename' | 'type' | 'language' | 'last_modified' | 'finished' | 'timecode_offset' | 'meta'> {
  body: string | Uint8Array | null;
  segments: SearchRow[] | null;
}

/**
 * A pulled page turned into rows: every string the transaction writes, made beforehand (plain
 * data, so it can be handed to the background writer without copying objects).
 */
export interface PreparedPage {
  sessions: { session_id: string; filename: string; language: string; status: string | null; last_modified: string | null; data: string }[];
  docs: Map<string, PreparedDocument[]>;
  /** Sessions whose documents the background writer checked and holds, by its refs (background.ts); only it can apply them. */
  parsed?: Map<string, number[]>;
}

/**
 * `body`: the body's JSON exactly as the service sent it (cut from the checked page by
 * main/api/json-members.ts or documents-page.ts), stored as it is rather than serialised again,
 * with its search rows when they were made from the bytes. A key the schema does not know stays
 * in it; readers ignore it, as they do on the service's side.
 */
export function prepareDocument(d: Document, sessionId: string, body?: { text: string | Uint8Array; rows?: SearchRow[] }): PreparedDocument {
  return {
    id: d.id, session_id: d.session_id ?? sessionId, filename: d.filename, type: d.type, language: d.language, last_modified: d.last_modified,
    finished: d.finished ? 1 : 0, timecode_offset: d.timecode_offset, meta: metaOf(d),
    body: d.document ? (body?.text ?? JSON.stringify(d.document)) : null, segments: d.document ? (body?.rows ?? segmentRows(d.document)) : null,
  };
}

/**
 * A checked documents page's documents as rows. `answer`: the page's bytes and the text they
 * decode to, from which each body is cut as the service wrote it (json-members.ts); without it,
 * or where the cut does not match the list, a body is serialised again.
 */
export function prepareDocumentsPage(docs: Document[], sessionId: string, answer: { bytes: Uint8Array; text: string } | undefined): PreparedDocument[] {
  const texts = answer ? listMemberTexts(answer, 'result', 'document') : null;
  const usable = texts?.length === docs.length;
  return docs.map((doc, i) => prepareDocument(doc, sessionId, usable && doc.document && texts[i] !== undefined ? { text: texts[i] } : undefined));
}

export function preparePullPage(sessions: Session[], docs: Map<string, Document[]>): PreparedPage {
  const out: PreparedPage = { sessions: [], docs: new Map() };
  for (const s of sessions) {
    out.sessions.push({ session_id: s.session_id, filename: s.filename, language: s.language, status: s.status ?? null, last_modified: s.last_modified ?? null, data: JSON.stringify(s) });
    const list = docs.get(s.session_id);
    if (list) out.docs.set(s.session_id, list.map((d) => prepareDocument(d, s.session_id)));
  }
  return out;
}

// An unchanged session is not written at all: DO UPDATE rewrites the entry of every index over a
// column it sets (the list's expression indexes, migration 7), equal values or not, and most
// sessions of a full pass are unchanged. The page's stored sessions and the renames still waiting
// to be sent are read in one statement each, not two for every session of the page.
const STORED_SESSIONS = `
  SELECT session_id, account_id, filename, language, status, last_modified, data, deleted_on_server
  FROM sessions WHERE session_id IN (SELECT value FROM json_each(?))`;
const PENDING_RENAMES = `SELECT document_id, payload FROM outbox WHERE op = 'renameSession' AND document_id IN (SELECT value FROM json_each(?)) ORDER BY seq`;

type SessionColumns = PreparedPage['sessions'][number] & { account_id: number };
type StoredSession = SessionColumns & { deleted_on_server: number };

const sameSession = (a: StoredSession, b: SessionColumns) =>
  a.deleted_on_server === 0 && a.account_id === b.account_id && a.filename === b.filename && a.language === b.language && a.status === b.status && a.last_modified === b.last_modified && a.data === b.data;

/** The name a rename still waiting to be sent gives each of these sessions (the latest), which a pull must not undo. */
function pendingNames(db: WritableDb, ids: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const r of stmt(db, PENDING_RENAMES).all(ids) as { document_id: string; payload: string }[]) names.set(r.document_id, (JSON.parse(r.payload) as { filename: string }).filename);
  return names;
}

const UPSERT_SESSION = `
  INSERT INTO sessions (session_id, account_id, filename, language, status, last_modified, data, deleted_on_server)
  VALUES (@session_id, @account_id, @filename, @language, @status, @last_modified, @data, 0)
  ON CONFLICT(session_id) DO UPDATE SET account_id = excluded.account_id, filename = excluded.filename, language = excluded.language,
    status = excluded.status, last_modified = excluded.last_modified, data = excluded.data, deleted_on_server = 0`;

// CAST: a body given as UTF-8 bytes is stored as TEXT, the same bytes as that text given as a string.
const UPSERT_DOCUMENT = `
  INSERT INTO documents (id, session_id, filename, type, language, last_modified, finished, timecode_offset, meta, body, base_body, server_version, local_state, local_only, deleted, deleted_on_server)
  VALUES (@id, @session_id, @filename, @type, @language, @last_modified, @finished, @timecode_offset, @meta, CAST(@body AS TEXT), NULL, @last_modified, 'synced', 0, 0, 0)
  ON CONFLICT(id) DO UPDATE SET session_id = excluded.session_id, filename = excluded.filename, type = excluded.type, language = excluded.language,
    last_modified = excluded.last_modified, finished = excluded.finished, timecode_offset = excluded.timecode_offset, meta = excluded.meta,
    body = COALESCE(excluded.body, documents.body), base_body = NULL, server_version = excluded.last_modified, local_state = 'synced', deleted_on_server = 0`;

/**
 * One pulled page (already turned into rows, preparePullPage) in one transaction: the sessions,
 * and for each session whose documents were fetched, its complete document list. Documents with
 * unsent edits are left to the push, which merges; documents gone from the service vanish unless
 * they hold unsent edits (then flagged).
 */
export function applyPreparedPage(db: WritableDb, accountId: number, page: PreparedPage): PulledChanges {
  const changedDocs: string[] = [];
  const changedSessions: string[] = [];
  const searchRows: [string, SearchRow[]][] = [];
  // IMMEDIATE: the write lock is taken at BEGIN (waiting on busy_timeout), so another
  // connection's commit between our first read and first write cannot fail the page.
  db.transaction(() => {
    const ids = JSON.stringify(page.sessions.map((s) => s.session_id));
    const stored = new Map((stmt(db, STORED_SESSIONS).all(ids) as StoredSession[]).map((r) => [r.session_id, r]));
    const renames = pendingNames(db, ids);
    for (const s of page.sessions) {
      // A rename still waiting to be sent wins over the listed name until the service has it.
      const renamed = renames.get(s.session_id) ?? null;
      const row: SessionColumns = { ...s, account_id: accountId, ...(renamed !== null && renamed !== s.filename ? { filename: renamed, data: JSON.stringify({ ...(JSON.parse(s.data) as object), filename: renamed }) } : {}) };
      const before = stored.get(s.session_id);
      if (!before || !sameSession(before, row)) stmt(db, UPSERT_SESSION).run(row);
      if (before?.last_modified !== s.last_modified) changedSessions.push(s.session_id);
      const list = page.docs.get(s.session_id);
      if (!list) continue;
      const seen = new Set<string>();
      const creating = unfinishedCreations(db, s.session_id);
      for (const d of list) {
        seen.add(d.id);
        // Maybe made by a send of ours whose answer was lost: left for the push to find and adopt.
        if (creating.has(d.filename) && !documentRow(db, d.id)) continue;
        if (upsertPreparedDocument(db, d, searchRows)) changedDocs.push(d.id);
      }
      for (const local of stmt(db, 'SELECT id, local_only FROM documents WHERE session_id = ?').all(s.session_id) as { id: string; local_only: number }[]) {
        if (seen.has(local.id) || local.local_only) continue;
        if (outboxCountOfDocument(db, local.id) > 0) stmt(db, 'UPDATE documents SET deleted_on_server = 1 WHERE id = ?').run(local.id);
        else deleteDocumentRow(db, local.id);
        changedDocs.push(local.id);
      }
      stmt(db, 'UPDATE sessions SET docs_version = ? WHERE session_id = ? AND docs_version IS NOT ?').run(s.last_modified, s.session_id, s.last_modified);
    }
    replaceSearchRows(db, searchRows); // once for the page (search-rows.ts says why)
  }).immediate();
  return { sessions: changedSessions, documents: changedDocs };
}

/** A document as the service has it; skipped while it has unsent edits. True when something changed. */
export function upsertServerDocument(db: WritableDb, d: Document, sessionId: string): boolean {
  return db.transaction(() => {
    const searchRows: [string, SearchRow[]][] = [];
    const changed = upsertPreparedDocument(db, prepareDocument(d, sessionId), searchRows);
    replaceSearchRows(db, searchRows);
    return changed;
  })();
}

/** Writes the document's row; its search rows, when it has content, go into `searchRows` for the caller to write. */
function upsertPreparedDocument(db: WritableDb, d: PreparedDocument, searchRows: [string, SearchRow[]][]): boolean {
  const cur = stmt(db, 'SELECT server_version, body IS NOT NULL AS has_body, local_state FROM documents WHERE id = ?').get(d.id) as
    | { server_version: string | null; has_body: number; local_state: string }
    | undefined;
  if (cur && outboxCountOfDocument(db, d.id) > 0) return false;
  if (cur && cur.server_version === d.last_modified && (cur.has_body || d.body === null) && cur.local_state === 'synced') return false;
  const { segments, ...row } = d;
  stmt(db, UPSERT_DOCUMENT).run(row);
  if (segments) searchRows.push([d.id, segments]);
  return true;
}
