/**
 * The cache's repositories: accounts, sessions, documents with their unsent edits (the outbox),
 * the sync cursor, and full-text search. Every method that changes a document writes the change
 * and its outbox entry in one transaction, so an acknowledged edit is never half-recorded.
 */
import { randomUUID } from 'node:crypto';
import type { CurrentUser, Document, Session, ShareLink } from '../../common/api';
import type { DocumentMutation, DocumentRecord, DocumentSummary, SessionSummary } from '../../common/ipc';
import type { DocumentBody, DocumentContent } from '../../common/transcript/model';
import { startBackgroundWriter, WriterFailure, type BackgroundWriter } from './background';
import { openCache, type Db, type OpenDeps, type Recovery } from './open';
import { searchText, type SearchHit } from './search';
import { SearchRows, segmentRows, type SearchRow } from './search-rows';
import { dropShareLinks, liveShareLink, saveShareLink, shareLinksOf, type StoredShareLink } from './share-links';

export interface DocumentRow {
  id: string;
  session_id: string;
  filename: string;
  type: 'document' | 'caption';
  language: string;
  last_modified: string;
  finished: number;
  timecode_offset: string;
  meta: string;
  body: string | null;
  base_body: string | null;
  server_version: string | null;
  local_state: 'synced' | 'pending' | 'conflict';
  local_only: number;
  deleted: number;
  deleted_on_server: number;
}

/** What an outbox entry asks of the service. `save` carries content; the rest are DocumentMutation ops. */
export type OutboxOp =
  | { op: 'save'; content: DocumentContent; filename?: string }
  | { op: 'merge'; documentIds: string[]; outputFilename: string }
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

const now = () => new Date().toISOString();

/** What a pulled page changed: the ids of sessions and documents. */
export interface PulledChanges {
  sessions: string[];
  documents: string[];
}

/** A service document as the columns it is stored in, with its search rows (null: no content). */
export interface PreparedDocument extends Pick<DocumentRow, 'id' | 'session_id' | 'filename' | 'type' | 'language' | 'last_modified' | 'finished' | 'timecode_offset' | 'meta' | 'body'> {
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
 * `bodyText`: the body's JSON exactly as the service sent it (cut from the checked page by
 * main/api/json-members.ts), stored as it is rather than serialised again. A key the schema does
 * not know stays in it; readers ignore it, as they do on the service's side.
 */
export function prepareDocument(d: Document, sessionId: string, bodyText?: string): PreparedDocument {
  return {
    id: d.id, session_id: d.session_id ?? sessionId, filename: d.filename, type: d.type, language: d.language, last_modified: d.last_modified,
    finished: d.finished ? 1 : 0, timecode_offset: d.timecode_offset, meta: metaOf(d),
    body: d.document ? (bodyText ?? JSON.stringify(d.document)) : null, segments: d.document ? segmentRows(d.document) : null,
  };
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

/** An outbox row `o` held back by a blocked earlier entry of its document. */
const HELD = "EXISTS (SELECT 1 FROM outbox b WHERE b.document_id = o.document_id AND b.state = 'blocked' AND b.seq < o.seq)";

/** The Document resource fields kept in `meta`: whatever the list carried beyond the columns. */
function metaOf(d: Document): string {
  const { document: _body, id: _id, filename: _f, type: _t, language: _l, last_modified: _m, finished: _fi, timecode_offset: _tc, download_url: _u, expires_in: _e, ...rest } = d;
  return JSON.stringify(rest);
}

export function clearedContent(content: DocumentContent): DocumentContent {
  if (content.kind === 'transcript') return { ...content, segments: content.segments.map((s) => ({ ...s, words: [] })) };
  return { ...content, cues: content.cues.map((c) => ({ ...c, lines: [] })) };
}

export class Cache {
  readonly recovery: Recovery | null;
  private readonly st: ReturnType<Cache['prepare']>;
  private readonly searchRows: SearchRows;
  /** The pull's background writer: undefined until first asked for, null when there is none. */
  private writer: BackgroundWriter | null | undefined;

  constructor(
    readonly db: Db,
    recovery: Recovery | null = null,
  ) {
    this.recovery = recovery;
    this.st = this.prepare();
    this.searchRows = new SearchRows(db);
    if (recovery) this.db.transaction(() => this.reindexAll())();
  }

  static open(file: string, deps?: OpenDeps): Cache {
    const { db, recovery } = openCache(file, deps);
    return new Cache(db, recovery);
  }

  close(): void {
    this.writer?.close();
    this.writer = null;
    if (this.db.open) this.db.close();
  }

  private prepare() {
    const db = this.db;
    return {
      sessionMeta: db.prepare('SELECT last_modified, docs_version FROM sessions WHERE session_id = ?'),
      upsertSession: db.prepare(`
        INSERT INTO sessions (session_id, account_id, filename, language, status, last_modified, data, deleted_on_server)
        VALUES (@session_id, @account_id, @filename, @language, @status, @last_modified, @data, 0)
        ON CONFLICT(session_id) DO UPDATE SET account_id = excluded.account_id, filename = excluded.filename, language = excluded.language,
          status = excluded.status, last_modified = excluded.last_modified, data = excluded.data, deleted_on_server = 0`),
      setDocsVersion: db.prepare('UPDATE sessions SET docs_version = ? WHERE session_id = ?'),
      docRow: db.prepare('SELECT * FROM documents WHERE id = ?'),
      docVersion: db.prepare('SELECT server_version, body IS NOT NULL AS has_body, local_state FROM documents WHERE id = ?'),
      insertDoc: db.prepare(`
        INSERT INTO documents (id, session_id, filename, type, language, last_modified, finished, timecode_offset, meta, body, base_body, server_version, local_state, local_only, deleted, deleted_on_server)
        VALUES (@id, @session_id, @filename, @type, @language, @last_modified, @finished, @timecode_offset, @meta, @body, NULL, @last_modified, 'synced', 0, 0, 0)
        ON CONFLICT(id) DO UPDATE SET session_id = excluded.session_id, filename = excluded.filename, type = excluded.type, language = excluded.language,
          last_modified = excluded.last_modified, finished = excluded.finished, timecode_offset = excluded.timecode_offset, meta = excluded.meta,
          body = COALESCE(excluded.body, documents.body), base_body = NULL, server_version = excluded.last_modified, local_state = 'synced', deleted_on_server = 0`),
      docIdsOfSession: db.prepare('SELECT id, local_only FROM documents WHERE session_id = ?'),
      deleteDoc: db.prepare('DELETE FROM documents WHERE id = ?'),
      flagDocGone: db.prepare('UPDATE documents SET deleted_on_server = 1 WHERE id = ?'),
      outboxCountDoc: db.prepare('SELECT count(*) AS n FROM outbox WHERE document_id = ?'),
      outboxCountSession: db.prepare('SELECT count(*) AS n FROM outbox WHERE session_id = ?'),
      enqueue: db.prepare('INSERT INTO outbox (document_id, session_id, op, payload, created_at) VALUES (?, ?, ?, ?, ?)'),
      // Per-document order: nothing of a document goes while an earlier entry of it is blocked
      // (held), nor, within one push, after one of its entries failed (the skipped ids, JSON).
      nextOutbox: db.prepare(`SELECT * FROM outbox o WHERE o.state = 'queued' AND NOT (${HELD})
        AND o.document_id NOT IN (SELECT value FROM json_each(?)) ORDER BY o.seq LIMIT 1`),
      pending: db.prepare(`SELECT count(*) AS n FROM outbox o WHERE o.state = 'queued' AND NOT (${HELD})`),
      unsent: db.prepare('SELECT count(*) AS n FROM outbox'),
      alias: db.prepare('SELECT server_id FROM id_aliases WHERE local_id = ?'),
      blockedReason: db.prepare("SELECT last_error FROM outbox WHERE document_id = ? AND state = 'blocked' ORDER BY seq LIMIT 1").pluck(),
    };
  }

  // --- accounts and cursor ---------------------------------------------------------------------

  setCurrentAccount(serviceUrl: string, user: CurrentUser): number {
    this.db.transaction(() => {
      this.db.prepare('UPDATE accounts SET is_current = 0').run();
      this.db
        .prepare(`INSERT INTO accounts (id, service_url, email, user_json, is_current, updated_at) VALUES (?, ?, ?, ?, 1, ?)
          ON CONFLICT(id) DO UPDATE SET service_url = excluded.service_url, email = excluded.email, user_json = excluded.user_json, is_current = 1, updated_at = excluded.updated_at`)
        .run(user.id, serviceUrl, user.email, JSON.stringify(user), now());
    }).immediate();
    return user.id;
  }

  currentAccount(): { id: number; email: string; user: CurrentUser } | null {
    const row = this.db.prepare('SELECT id, email, user_json FROM accounts WHERE is_current = 1').get() as { id: number; email: string; user_json: string } | undefined;
    return row ? { id: row.id, email: row.email, user: JSON.parse(row.user_json) as CurrentUser } : null;
  }

  /** Signing out keeps the cached data (and any unsent edits) for the next sign-in of the same account. */
  clearCurrentAccount(): void {
    this.db.prepare('UPDATE accounts SET is_current = 0').run();
  }

  getCursor(accountId: number, name: string): string | null {
    const row = this.db.prepare('SELECT value FROM sync_cursor WHERE account_id = ? AND name = ?').get(accountId, name) as { value: string } | undefined;
    return row?.value ?? null;
  }

  setCursor(accountId: number, name: string, value: string): void {
    this.db.prepare('INSERT INTO sync_cursor (account_id, name, value) VALUES (?, ?, ?) ON CONFLICT(account_id, name) DO UPDATE SET value = excluded.value').run(accountId, name, value);
  }

  // --- pull ------------------------------------------------------------------------------------

  /** Whether the session's documents must be pulled: new, or changed since we pulled them. */
  sessionNeedsDocs(s: Session): boolean {
    const row = this.st.sessionMeta.get(s.session_id) as { last_modified: string | null; docs_version: string | null } | undefined;
    return !row || row.docs_version === null || row.docs_version !== (s.last_modified ?? null);
  }

  /** The session's documents as last pulled from the service (id to last_modified), to compare with the service's list. */
  pulledDocumentVersions(sessionId: string): Map<string, string> {
    const rows = this.db.prepare('SELECT id, last_modified FROM documents WHERE session_id = ? AND local_only = 0 AND deleted_on_server = 0').all(sessionId) as { id: string; last_modified: string }[];
    return new Map(rows.map((r) => [r.id, r.last_modified]));
  }

  /** The local version of a session, to compare with a listed one. */
  sessionVersion(sessionId: string): string | null | undefined {
    const row = this.st.sessionMeta.get(sessionId) as { last_modified: string | null } | undefined;
    return row ? row.last_modified : undefined;
  }

  /**
   * One pulled page in one transaction: the sessions, and for each session whose documents were
   * fetched, its complete document list. Documents with unsent edits are left to the push, which
   * merges; documents gone from the service vanish unless they hold unsent edits (then flagged).
   */
  applyPullPage(accountId: number, sessions: Session[], docs: Map<string, Document[]>): PulledChanges {
    return this.applyPreparedPage(accountId, preparePullPage(sessions, docs));
  }

  /**
   * The same, in the background when the cache is a file: a worker thread with its own connection
   * writes the page (one transaction, as above) while this thread goes on downloading. Pages given
   * one after another are applied in that order. Falls back to applying here.
   */
  async applyPullPageInBackground(accountId: number, page: PreparedPage): Promise<PulledChanges> {
    // Only pages with content are worth the hand-over (an incremental pull's lists are not).
    if (!page.parsed?.size && ![...page.docs.values()].some((list) => list.some((d) => d.body !== null))) return this.applyPreparedPage(accountId, page);
    this.warmBackgroundWriter();
    if (!this.writer) {
      // Documents checked by a writer that has died since: the caller fetches them again (pull.ts).
      if (page.parsed?.size) throw new WriterFailure("the cache's background writer is gone");
      return this.applyPreparedPage(accountId, page);
    }
    try {
      return await this.writer.apply(accountId, page);
    } catch (err) {
      if (!(err instanceof WriterFailure) || !this.db.open) throw err;
      // The thread is gone (it could not start, say): this page and the rest go on here. A page
      // it committed before failing is applied again, which changes nothing. Documents it held
      // are gone with it: the caller fetches them again (pull.ts).
      this.writer.close();
      this.writer = null;
      if (page.parsed?.size) throw err;
      return this.applyPreparedPage(accountId, page);
    }
  }

  /** Starts the background writer ahead of a pull that will bring content (a first sync), so its start overlaps the first download. */
  warmBackgroundWriter(): void {
    if (this.writer === undefined) this.writer = startBackgroundWriter(this.db);
  }

  /** The background writer, to check document pages in (background.ts); null where there is none or it was not started. */
  backgroundWriter(): BackgroundWriter | null {
    return this.writer ?? null;
  }

  /** applyPullPage's transaction, from a page already turned into rows (preparePullPage). */
  applyPreparedPage(accountId: number, page: PreparedPage): PulledChanges {
    const changedDocs: string[] = [];
    const changedSessions: string[] = [];
    const searchRows: [string, SearchRow[]][] = [];
    // IMMEDIATE: the write lock is taken at BEGIN (waiting on busy_timeout), so another
    // connection's commit between our first read and first write cannot fail the page.
    this.db.transaction(() => {
      for (const s of page.sessions) {
        const before = this.sessionVersion(s.session_id);
        this.st.upsertSession.run({ ...s, account_id: accountId });
        if (before !== s.last_modified) changedSessions.push(s.session_id);
        const list = page.docs.get(s.session_id);
        if (!list) continue;
        const seen = new Set<string>();
        const creating = this.unfinishedCreations(s.session_id);
        for (const d of list) {
          seen.add(d.id);
          // Maybe made by a send of ours whose answer was lost: left for the push to find and adopt.
          if (creating.has(d.filename) && !this.row(d.id)) continue;
          if (this.upsertPreparedDocument(d, searchRows)) changedDocs.push(d.id);
        }
        for (const local of this.st.docIdsOfSession.all(s.session_id) as { id: string; local_only: number }[]) {
          if (seen.has(local.id) || local.local_only) continue;
          if ((this.st.outboxCountDoc.get(local.id) as { n: number }).n > 0) this.st.flagDocGone.run(local.id);
          else this.st.deleteDoc.run(local.id);
          changedDocs.push(local.id);
        }
        this.st.setDocsVersion.run(s.last_modified, s.session_id);
      }
      this.searchRows.replace(searchRows); // once for the page (search-rows.ts says why)
    }).immediate();
    return { sessions: changedSessions, documents: changedDocs };
  }

  /** New file names of copies and merges in this session that were sent but not yet confirmed. */
  private unfinishedCreations(sessionId: string): Set<string> {
    const rows = this.db.prepare("SELECT payload FROM outbox WHERE session_id = ? AND op IN ('copy', 'merge') AND attempts > 0").all(sessionId) as { payload: string }[];
    return new Set(rows.map((r) => {
      const op = JSON.parse(r.payload) as { newFilename?: string; outputFilename?: string };
      return op.newFilename ?? op.outputFilename ?? '';
    }));
  }

  /** A document as the service has it; skipped while it has unsent edits. True when something changed. */
  upsertServerDocument(d: Document, sessionId: string): boolean {
    return this.db.transaction(() => {
      const searchRows: [string, SearchRow[]][] = [];
      const changed = this.upsertPreparedDocument(prepareDocument(d, sessionId), searchRows);
      this.searchRows.replace(searchRows);
      return changed;
    })();
  }

  /** Writes the document's row; its search rows, when it has content, go into `searchRows` for the caller to write. */
  private upsertPreparedDocument(d: PreparedDocument, searchRows: [string, SearchRow[]][]): boolean {
    const cur = this.st.docVersion.get(d.id) as { server_version: string | null; has_body: number; local_state: string } | undefined;
    if (cur && (this.st.outboxCountDoc.get(d.id) as { n: number }).n > 0) return false;
    if (cur && cur.server_version === d.last_modified && (cur.has_body || d.body === null) && cur.local_state === 'synced') return false;
    const { segments, ...row } = d;
    this.st.insertDoc.run(row);
    if (segments) searchRows.push([d.id, segments]);
    return true;
  }

  /**
   * Sessions the service no longer lists: removed with their documents, unless they hold unsent
   * edits, in which case they stay and are flagged. Returns the ids removed or flagged.
   */
  sweepSessions(accountId: number, onServer: Set<string>): string[] {
    const gone: string[] = [];
    this.db.transaction(() => {
      const local = this.db.prepare('SELECT session_id FROM sessions WHERE account_id = ? AND deleted_on_server = 0').all(accountId) as { session_id: string }[];
      for (const { session_id } of local) {
        if (onServer.has(session_id)) continue;
        gone.push(session_id);
        if ((this.st.outboxCountSession.get(session_id) as { n: number }).n > 0) {
          this.db.prepare('UPDATE sessions SET deleted_on_server = 1 WHERE session_id = ?').run(session_id);
          this.db.prepare('UPDATE documents SET deleted_on_server = 1 WHERE session_id = ?').run(session_id);
        } else {
          this.db.prepare('DELETE FROM sessions WHERE session_id = ?').run(session_id);
        }
      }
    }).immediate();
    return gone;
  }

  sessionCount(accountId: number): number {
    return (this.db.prepare('SELECT count(*) AS n FROM sessions WHERE account_id = ? AND deleted_on_server = 0').get(accountId) as { n: number }).n;
  }

  // --- reads for the UI ------------------------------------------------------------------------

  listSessions(accountId: number, page: { offset: number; limit: number; q?: string }): { items: SessionSummary[]; total: number } {
    const where = ['s.account_id = ?'];
    const args: unknown[] = [accountId];
    if (page.q) {
      where.push("(s.filename LIKE ? ESCAPE '\\' OR s.language LIKE ? ESCAPE '\\' OR s.status LIKE ? ESCAPE '\\')");
      const like = `%${page.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
      args.push(like, like, like);
    }
    const w = where.join(' AND ');
    const total = (this.db.prepare(`SELECT count(*) AS n FROM sessions s WHERE ${w}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT s.data, s.deleted_on_server, (SELECT count(*) FROM outbox o WHERE o.session_id = s.session_id) AS pending
        FROM sessions s WHERE ${w} ORDER BY s.last_modified DESC, s.session_id LIMIT ? OFFSET ?`)
      .all(...args, page.limit, page.offset) as { data: string; deleted_on_server: number; pending: number }[];
    return { items: rows.map((r) => ({ ...(JSON.parse(r.data) as Session), pending_edits: r.pending, deleted_on_server: r.deleted_on_server === 1 })), total };
  }

  getSession(accountId: number, sessionId: string): { session: SessionSummary; documents: DocumentSummary[] } | null {
    const r = this.db
      .prepare('SELECT data, deleted_on_server, (SELECT count(*) FROM outbox o WHERE o.session_id = s.session_id) AS pending FROM sessions s WHERE account_id = ? AND session_id = ?')
      .get(accountId, sessionId) as { data: string; deleted_on_server: number; pending: number } | undefined;
    if (!r) return null;
    const docs = this.db.prepare('SELECT * FROM documents WHERE session_id = ? AND deleted = 0 ORDER BY filename, id').all(sessionId) as DocumentRow[];
    return {
      session: { ...(JSON.parse(r.data) as Session), pending_edits: r.pending, deleted_on_server: r.deleted_on_server === 1 },
      documents: docs.map((d) => this.summary(d)),
    };
  }

  row(documentId: string): DocumentRow | null {
    return (this.st.docRow.get(documentId) as DocumentRow | undefined) ?? null;
  }

  private summary(d: DocumentRow): DocumentSummary {
    return {
      id: d.id, session_id: d.session_id, filename: d.filename, type: d.type, language: d.language, last_modified: d.last_modified,
      finished: d.finished === 1, timecode_offset: d.timecode_offset, local_state: d.local_state,
      unsent_reason: (this.st.blockedReason.get(d.id) as string | undefined) ?? null,
    };
  }

  getDocument(documentId: string): DocumentRecord | null {
    const d = this.row(documentId);
    if (!d || d.deleted) return null;
    return { ...this.summary(d), body: d.body ? (JSON.parse(d.body) as DocumentBody) : null };
  }

  search(accountId: number, q: string, limit: number): SearchHit[] {
    return searchText(this.db, accountId, q, limit);
  }

  // --- local edits (each with its outbox entry, in one transaction) ------------------------------

  private enqueue(d: Pick<DocumentRow, 'id' | 'session_id'>, op: OutboxOp): void {
    this.st.enqueue.run(d.id, d.session_id, op.op, JSON.stringify(op), now());
  }

  /** Replaces the document's search rows; `body` as JSON text or as the parsed object. */
  private reindex(documentId: string, body: string | DocumentBody | null): void {
    this.searchRows.replace([[documentId, body ? segmentRows(typeof body === 'string' ? JSON.parse(body) : body) : null]]);
  }

  /** Every document's search rows again (a rebuilt cache's carried-over documents), a batch at a time. */
  private reindexAll(): void {
    const BATCH = 100;
    const ids = this.db.prepare('SELECT id FROM documents').pluck().all() as string[];
    const bodies = this.db.prepare('SELECT id, body FROM documents WHERE id IN (SELECT value FROM json_each(?))');
    for (let i = 0; i < ids.length; i += BATCH) {
      const docs = bodies.all(JSON.stringify(ids.slice(i, i + BATCH))) as { id: string; body: string | null }[];
      this.searchRows.replace(docs.map((d) => [d.id, d.body ? segmentRows(JSON.parse(d.body)) : null]));
    }
  }

  /** A live link with these rights, or a queued request for one: asking again must not mint a second link. */
  private shareAlreadyAsked(documentId: string, m: { allowEditing: boolean; allowExport: boolean }): boolean {
    if (liveShareLink(this.db, this.resolveId(documentId), m)) return true;
    const queued = this.db.prepare("SELECT payload FROM outbox WHERE document_id = ? AND op = 'share'").all(documentId) as { payload: string }[];
    return queued.some((q) => {
      const op = JSON.parse(q.payload) as { allowEditing: boolean; allowExport: boolean };
      return op.allowEditing === m.allowEditing && op.allowExport === m.allowExport;
    });
  }

  private mustRow(documentId: string): DocumentRow {
    const d = this.row(documentId);
    if (!d || d.deleted) throw Object.assign(new Error(`document ${documentId} is not in the cache`), { code: 'NOT_FOUND' });
    return d;
  }

  /** Saves new content (and optionally a new file name) locally and queues it. */
  saveDocument(documentId: string, content: DocumentContent, filename?: string): DocumentRecord {
    this.db.transaction(() => {
      const d = this.mustRow(documentId);
      const old = d.body ? (JSON.parse(d.body) as DocumentBody) : null;
      const body: DocumentBody = { document_type: content.kind, metadata: old?.metadata ?? {}, content };
      const json = JSON.stringify(body);
      this.db
        .prepare("UPDATE documents SET body = ?, base_body = COALESCE(base_body, body), filename = COALESCE(?, filename), local_state = 'pending' WHERE id = ?")
        .run(json, filename ?? null, documentId);
      this.reindex(documentId, json);
      this.enqueue(d, { op: 'save', content, ...(filename ? { filename } : {}) });
    }).immediate();
    return this.getDocument(documentId)!;
  }

  /** Applies a mutation's local effect and queues it. Returns the document it concerns (a copy's new id; null after delete). */
  mutate(documentId: string, m: DocumentMutation): { documentId: string | null } {
    return this.db.transaction(() => {
      const d = this.mustRow(documentId);
      const set = (sql: string, ...args: unknown[]) => this.db.prepare(`UPDATE documents SET ${sql}, local_state = 'pending' WHERE id = ?`).run(...args, documentId);
      let result: string | null = documentId;
      if (m.op === 'share' && this.shareAlreadyAsked(documentId, m)) return { documentId };
      switch (m.op) {
        case 'finalize':
          set('finished = ?', m.finished ? 1 : 0);
          break;
        case 'rename':
          set('filename = ?', m.filename);
          break;
        case 'setTimecodeOffset':
          set('timecode_offset = ?', m.timecodeOffset);
          break;
        case 'delete':
          set('deleted = 1');
          this.reindex(documentId, null);
          result = null;
          break;
        case 'clearText': {
          if (d.body) {
            const body = JSON.parse(d.body) as DocumentBody;
            const json = JSON.stringify({ ...body, content: clearedContent(body.content) });
            set('body = ?, base_body = COALESCE(base_body, body)', json);
            this.reindex(documentId, json);
          } else set('local_state = local_state');
          break;
        }
        case 'copy': {
          const id = `local-${randomUUID()}`;
          this.db
            .prepare(`INSERT INTO documents (id, session_id, filename, type, language, last_modified, finished, timecode_offset, meta, body, base_body, server_version, local_state, local_only)
              SELECT ?, session_id, ?, type, language, last_modified, finished, timecode_offset, meta, body, NULL, NULL, 'pending', 1 FROM documents WHERE id = ?`)
            .run(id, m.newFilename, documentId);
          this.reindex(id, d.body);
          this.enqueue({ id, session_id: d.session_id }, { ...m, sourceId: documentId });
          return { documentId: id };
        }
        default:
          // resetToOriginal, summarize, share: the service computes the result; the pull brings it.
          set('local_state = local_state');
      }
      this.enqueue(d, m);
      return { documentId: result };
    }).immediate();
  }

  /** The document's live magic links, and whether a share request for it is still waiting to be sent. */
  shareLinks(documentId: string): { links: StoredShareLink[]; pending: boolean } {
    const id = this.resolveId(documentId);
    const pending = (this.db.prepare("SELECT count(*) AS n FROM outbox WHERE document_id IN (?, ?) AND op = 'share'").get(documentId, id) as { n: number }).n > 0;
    return { links: shareLinksOf(this.db, id), pending };
  }

  /** A share request landed: keep its link and drop the entry, in one transaction. */
  completeShare(seq: number, documentId: string, link: ShareLink): void {
    this.db.transaction(() => {
      saveShareLink(this.db, documentId, link);
      this.complete(seq, documentId, null);
    }).immediate();
  }

  queueMerge(documentIds: string[], outputFilename: string): void {
    this.db.transaction(() => {
      const first = this.mustRow(documentIds[0]);
      for (const id of documentIds.slice(1)) this.mustRow(id);
      this.enqueue(first, { op: 'merge', documentIds, outputFilename });
    }).immediate();
  }

  // --- outbox, for the push ----------------------------------------------------------------------

  /** The oldest entry that may go now, leaving out the documents in `skip`. */
  nextOutbox(skip: Iterable<string> = []): OutboxEntry | null {
    const r = this.st.nextOutbox.get(JSON.stringify([...skip])) as OutboxRow | undefined;
    return r ? entryOf(r) : null;
  }

  /** Entries that will be sent (those blocked, or held behind a blocked one, are counted apart). */
  pendingCount(): number {
    return (this.st.pending.get() as { n: number }).n;
  }

  /** Entries kept but not sent: refused by the service or failed MAX_FAILURES times, and those held behind them. */
  blockedCount(): number {
    return (this.st.unsent.get() as { n: number }).n - this.pendingCount();
  }

  outboxEntries(): OutboxEntry[] {
    return (this.db.prepare('SELECT * FROM outbox ORDER BY seq').all() as OutboxRow[]).map(entryOf);
  }

  /** The service id of a document made here, once the service has named it. */
  resolveId(id: string): string {
    return (this.st.alias.get(id) as { server_id: string } | undefined)?.server_id ?? id;
  }

  /** Recorded (committed) before a send, so a retry after a lost answer knows to look first. */
  noteSent(seq: number, sentVersion: string | null): void {
    this.db.prepare('UPDATE outbox SET attempts = attempts + 1, sent_version = ? WHERE seq = ?').run(sentVersion, seq);
  }

  /** The service answered with an error; returns the failures so far. */
  noteFailure(seq: number, error: string): number {
    const r = this.db.prepare('UPDATE outbox SET failures = failures + 1, last_error = ? WHERE seq = ? RETURNING failures').get(error, seq) as { failures: number } | undefined;
    return r?.failures ?? 0;
  }

  /**
   * Drops the document's unsent changes, at the user's word. A document the service has goes back
   * to the last version we had from it and is taken again, whole, on the next pull; one the service
   * no longer has, or never had, goes.
   */
  discardUnsent(documentId: string): { documentId: string | null } {
    return this.db.transaction(() => {
      const d = this.row(documentId);
      if (!d) throw Object.assign(new Error(`document ${documentId} is not in the cache`), { code: 'NOT_FOUND' });
      this.db.prepare('DELETE FROM outbox WHERE document_id = ?').run(d.id);
      if (d.local_only || d.deleted_on_server) {
        this.st.deleteDoc.run(d.id);
        dropShareLinks(this.db, d.id);
        return { documentId: null };
      }
      const body = d.base_body ?? d.body;
      // No service version: the next pull takes the service's document whatever its last_modified.
      this.db.prepare("UPDATE documents SET body = ?, base_body = NULL, server_version = NULL, local_state = 'synced', deleted = 0 WHERE id = ?").run(body, d.id);
      this.db.prepare('UPDATE sessions SET docs_version = NULL WHERE session_id = ?').run(d.session_id);
      this.reindex(d.id, body);
      return { documentId: d.id };
    }).immediate();
  }

  /** The user asks for the blocked entries (of one document, or all) to be sent again: each starts over with no failures. Returns how many. */
  requeueBlocked(documentId?: string): number {
    const blocked = "state = 'blocked' AND (@doc IS NULL OR document_id = @doc)";
    const doc = documentId ?? null;
    return this.db.transaction(() => {
      // block() marked their documents; they are waiting to be sent again now.
      this.db.prepare(`UPDATE documents SET local_state = 'pending' WHERE local_state = 'conflict' AND id IN (SELECT document_id FROM outbox WHERE ${blocked})`).run({ doc });
      return this.db.prepare(`UPDATE outbox SET state = 'queued', failures = 0, last_error = NULL WHERE ${blocked}`).run({ doc }).changes;
    }).immediate();
  }

  /** The service refuses the entry for good (e.g. the document is gone): keep it, visibly, and move on. */
  block(seq: number, error: string): void {
    this.db.transaction(() => {
      const r = this.db.prepare('SELECT document_id FROM outbox WHERE seq = ?').get(seq) as { document_id: string } | undefined;
      this.db.prepare("UPDATE outbox SET state = 'blocked', last_error = ? WHERE seq = ?").run(error, seq);
      if (r) this.db.prepare("UPDATE documents SET local_state = 'conflict' WHERE id = ?").run(r.document_id);
    }).immediate();
  }

  /**
   * An entry reached the service. In the same transaction: drop it, and record the service's
   * document (when there is one) as the new base; the local body stays ours while later edits wait.
   */
  complete(seq: number, documentId: string, server: Document | null, opts: { deleted?: boolean; conflict?: boolean } = {}): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM outbox WHERE seq = ?').run(seq);
      if (opts.deleted) {
        if ((this.st.outboxCountDoc.get(documentId) as { n: number }).n === 0) this.st.deleteDoc.run(documentId);
        dropShareLinks(this.db, documentId);
        return;
      }
      if (!server) {
        this.settle(documentId, opts.conflict);
        return;
      }
      // Take the service's version of each field, except where a later unsent entry will change it again.
      const ops = new Set((this.db.prepare('SELECT op, payload FROM outbox WHERE document_id = ?').all(documentId) as { op: string; payload: string }[]).map((r) =>
        r.op === 'save' && (JSON.parse(r.payload) as { filename?: string }).filename ? 'save+rename' : r.op,
      ));
      const keep = (...names: string[]) => names.some((n) => ops.has(n));
      const cur = this.row(documentId);
      if (!cur) return;
      const body = server.document ? JSON.stringify(server.document) : null;
      const keepBody = keep('save', 'save+rename', 'clearText');
      const newBody = keepBody ? cur.body : (body ?? cur.body);
      this.db
        .prepare(`UPDATE documents SET filename = ?, last_modified = ?, finished = ?, timecode_offset = ?, meta = ?, body = ?, base_body = ?,
          server_version = ?, local_state = ?, deleted_on_server = 0 WHERE id = ?`)
        .run(
          keep('rename', 'save+rename') ? cur.filename : server.filename,
          server.last_modified,
          keep('finalize') ? cur.finished : server.finished ? 1 : 0,
          keep('setTimecodeOffset') ? cur.timecode_offset : server.timecode_offset,
          metaOf(server),
          newBody,
          ops.size && body ? body : null,
          server.last_modified,
          ops.size ? 'pending' : opts.conflict ? 'conflict' : 'synced',
          documentId,
        );
      if (newBody !== cur.body) this.reindex(documentId, server.document ?? null);
    }).immediate();
  }

  private settle(documentId: string, conflict?: boolean): void {
    const remaining = (this.st.outboxCountDoc.get(documentId) as { n: number }).n;
    if (remaining === 0) this.db.prepare('UPDATE documents SET local_state = ? WHERE id = ? AND deleted = 0').run(conflict ? 'conflict' : 'synced', documentId);
  }

  /** A copy made here got its service id: every reference moves to it, in one transaction. */
  adoptServerId(seq: number, localId: string, server: Document): void {
    this.db.transaction(() => {
      const d = this.row(localId);
      this.db.prepare('INSERT INTO id_aliases (local_id, server_id) VALUES (?, ?) ON CONFLICT(local_id) DO UPDATE SET server_id = excluded.server_id').run(localId, server.id);
      this.db.prepare('DELETE FROM outbox WHERE seq = ?').run(seq);
      if (!d) return;
      this.db
        .prepare(`INSERT OR REPLACE INTO documents (id, session_id, filename, type, language, last_modified, finished, timecode_offset, meta, body, base_body, server_version, local_state, local_only, deleted, deleted_on_server)
          VALUES (@id, @session_id, @filename, @type, @language, @last_modified, @finished, @timecode_offset, @meta, @body, @base_body, @last_modified, 'synced', 0, @deleted, 0)`)
        .run({
          id: server.id, session_id: d.session_id, filename: server.filename, type: server.type, language: server.language, last_modified: server.last_modified,
          finished: server.finished ? 1 : 0, timecode_offset: server.timecode_offset, meta: metaOf(server),
          body: d.body ?? (server.document ? JSON.stringify(server.document) : null),
          base_body: server.document ? JSON.stringify(server.document) : d.body, deleted: d.deleted,
        });
      this.db.prepare('UPDATE text_segments SET document_id = ? WHERE document_id = ?').run(server.id, localId);
      this.db.prepare('UPDATE outbox SET document_id = ? WHERE document_id = ?').run(server.id, localId);
      this.st.deleteDoc.run(localId);
      this.settle(server.id);
      if ((this.st.outboxCountDoc.get(server.id) as { n: number }).n > 0) this.db.prepare("UPDATE documents SET local_state = 'pending' WHERE id = ?").run(server.id);
    }).immediate();
  }

  /** A conflict copy: a new local document holding our version, queued as a copy plus a save. */
  addConflictCopy(sourceId: string, filename: string, ours: DocumentBody): string {
    return this.db.transaction(() => {
      const src = this.mustRow(sourceId);
      const id = `local-${randomUUID()}`;
      const json = JSON.stringify(ours);
      this.db
        .prepare(`INSERT INTO documents (id, session_id, filename, type, language, last_modified, finished, timecode_offset, meta, body, base_body, server_version, local_state, local_only)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, 'conflict', 1)`)
        .run(id, src.session_id, filename, src.type, src.language, src.last_modified, src.finished, src.timecode_offset, src.meta, json);
      this.reindex(id, json);
      this.enqueue({ id, session_id: src.session_id }, { op: 'copy', newFilename: filename, sourceId });
      this.enqueue({ id, session_id: src.session_id }, { op: 'save', content: ours.content });
      return id;
    }).immediate();
  }

  /** Rewrites an entry's payload (the merged content a retry must send). */
  rewrite(seq: number, op: OutboxOp): void {
    this.db.prepare('UPDATE outbox SET payload = ? WHERE seq = ?').run(JSON.stringify(op), seq);
  }

  /** After a local delete reached the service, or the service lost the document: drop it if nothing else waits. */
  dropDocument(documentId: string): void {
    this.db.transaction(() => {
      if ((this.st.outboxCountDoc.get(documentId) as { n: number }).n === 0) this.st.deleteDoc.run(documentId);
    }).immediate();
  }

}
