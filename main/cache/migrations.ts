import type Database from 'better-sqlite3';
import { segmentRows } from './search-rows';

/** One numbered schema step, applied in its own transaction; PRAGMA user_version records the last. */
export interface CacheMigration {
  version: number;
  name: string;
  up: string | ((db: Database.Database) => void);
}

export const cacheMigrations: CacheMigration[] = [
  {
    version: 1,
    name: 'accounts, sessions, documents, outbox, sync cursor',
    up: `
      CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        service_url TEXT NOT NULL,
        email TEXT NOT NULL,
        user_json TEXT NOT NULL,
        is_current INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE sessions (
        session_id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        filename TEXT NOT NULL,
        language TEXT NOT NULL,
        status TEXT,
        last_modified TEXT,
        data TEXT NOT NULL,
        -- the session's last_modified when its documents were last pulled
        docs_version TEXT,
        deleted_on_server INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX sessions_account_modified ON sessions(account_id, last_modified DESC);
      CREATE TABLE documents (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
        filename TEXT NOT NULL,
        type TEXT NOT NULL,
        language TEXT NOT NULL,
        last_modified TEXT NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0,
        timecode_offset TEXT NOT NULL,
        meta TEXT NOT NULL,
        -- the document body as the user sees it (JSON DocumentBody)
        body TEXT,
        -- the service's body our unsent edits started from (NULL: same as body)
        base_body TEXT,
        -- the service's last_modified of that base
        server_version TEXT,
        local_state TEXT NOT NULL DEFAULT 'synced' CHECK (local_state IN ('synced', 'pending', 'conflict')),
        local_only INTEGER NOT NULL DEFAULT 0,
        deleted INTEGER NOT NULL DEFAULT 0,
        deleted_on_server INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX documents_session ON documents(session_id);
      CREATE TABLE outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        document_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        op TEXT NOT NULL,
        payload TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'blocked')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX outbox_document ON outbox(document_id);
      CREATE INDEX outbox_session ON outbox(session_id);
      -- a document made here (a copy) is known by a local id until the service names it
      CREATE TABLE id_aliases (
        local_id TEXT PRIMARY KEY,
        server_id TEXT NOT NULL
      );
      CREATE TABLE sync_cursor (
        account_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (account_id, name)
      );
    `,
  },
  {
    version: 2,
    name: 'uploads (durable watch-folder queue)',
    up: `
      CREATE TABLE uploads (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        state TEXT NOT NULL,
        tus_url TEXT,
        job_id TEXT,
        session_id TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX uploads_path_hash ON uploads(path, content_hash);
      CREATE INDEX uploads_state ON uploads(state);
    `,
  },
  {
    version: 3,
    name: 'full-text search over segments, with word start times',
    up: (db) => {
      db.exec(`
        CREATE TABLE text_segments (
          rowid INTEGER PRIMARY KEY,
          document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
          start_ms INTEGER NOT NULL,
          -- start time of each whitespace-separated word of text, comma-separated
          starts TEXT NOT NULL,
          text TEXT NOT NULL
        );
        CREATE INDEX text_segments_document ON text_segments(document_id);
        CREATE VIRTUAL TABLE text_fts USING fts5(text, content='text_segments', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
        CREATE TRIGGER text_segments_ai AFTER INSERT ON text_segments BEGIN
          INSERT INTO text_fts(rowid, text) VALUES (new.rowid, new.text);
        END;
        CREATE TRIGGER text_segments_ad AFTER DELETE ON text_segments BEGIN
          INSERT INTO text_fts(text_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
        END;
      `);
      // Index what earlier versions already cached.
      const docs = db.prepare('SELECT id, body FROM documents WHERE body IS NOT NULL').all() as { id: string; body: string }[];
      const ins = db.prepare('INSERT INTO text_segments (document_id, start_ms, starts, text) VALUES (?, ?, ?, ?)');
      for (const d of docs) for (const s of segmentRows(JSON.parse(d.body))) ins.run(d.id, s.start_ms, s.starts, s.text);
    },
  },
  {
    version: 4,
    name: 'session list order served by an index (no sort per page)',
    up: `
      DROP INDEX sessions_account_modified;
      CREATE INDEX sessions_account_order ON sessions(account_id, last_modified DESC, session_id);
    `,
  },
  {
    version: 5,
    name: 'outbox failure cap and pre-send version; share links',
    up: `
      -- failures: answers that were errors (not "no answer"); at a cap the entry is blocked.
      ALTER TABLE outbox ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
      -- the service version of the document when the entry was last sent, so a retry can tell
      -- whether that send landed before re-sending it
      ALTER TABLE outbox ADD COLUMN sent_version TEXT;
      -- magic links the service made for our share requests; the link is shown to the user
      CREATE TABLE share_links (
        document_id TEXT NOT NULL,
        allow_editing INTEGER NOT NULL,
        allow_export INTEGER NOT NULL,
        url TEXT NOT NULL,
        token TEXT NOT NULL,
        created TEXT NOT NULL,
        expires TEXT NOT NULL,
        PRIMARY KEY (document_id, allow_editing, allow_export)
      );
    `,
  },
  {
    version: 6,
    name: 'search rows indexed once per write, not by a trigger per row (search-rows.ts)',
    up: 'DROP TRIGGER text_segments_ai;',
  },
  {
    version: 7,
    name: 'session list sorted and filtered in SQLite; session deletes; the list view remembered',
    up: `
      -- on expressions over the session's JSON (main/cache/sessions.ts uses the same texts), so the
      -- table's shape, the pull's upsert and the recovery's row copy stay as they are
      CREATE INDEX sessions_account_uploaded ON sessions(account_id, coalesce(json_extract(data, '$.date_upload'), last_modified), session_id);
      CREATE INDEX sessions_account_name ON sessions(account_id, filename COLLATE NOCASE, session_id);
      CREATE INDEX sessions_account_duration ON sessions(account_id, coalesce(json_extract(data, '$.duration'), 0), session_id);
      CREATE INDEX sessions_account_status ON sessions(account_id, status, coalesce(json_extract(data, '$.date_upload'), last_modified), session_id);
      CREATE INDEX sessions_account_language ON sessions(account_id, language);
      -- deleted here: hidden at once, the delete queued in the outbox; refused: shown again with the reason
      CREATE TABLE session_deletions (
        session_id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        requested_at TEXT NOT NULL,
        refused TEXT
      );
      CREATE TABLE ui_state (
        account_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (account_id, name)
      );
    `,
  },
  {
    version: 8,
    name: 'caption documents linked to the transcript they follow (caption-links.ts)',
    up: `
      -- built_from: the transcript content (JSON) the captions were last built from or kept in
      -- step with; built_hash its sha256, to tell cheaply whether the transcript moved on
      CREATE TABLE caption_links (
        caption_id TEXT PRIMARY KEY,
        transcript_id TEXT NOT NULL,
        built_from TEXT NOT NULL,
        built_hash TEXT NOT NULL
      );
      CREATE INDEX caption_links_transcript ON caption_links(transcript_id);
    `,
  },
  {
    version: 9,
    name: 'conflict copies linked to their original (conflicts.ts)',
    up: `
      -- copy_id as made here (local-…); id_aliases gives its service id once sent. clashed: the
      -- JSON list of segment (cue) ids both sides changed, shown in the side-by-side view
      CREATE TABLE conflict_copies (
        copy_id TEXT PRIMARY KEY,
        original_id TEXT NOT NULL,
        clashed TEXT NOT NULL,
        created TEXT NOT NULL
      );
      CREATE INDEX conflict_copies_original ON conflict_copies(original_id);
    `,
  },
  {
    version: 10,
    name: 'the pull-order index of sessions dropped: no query has read it since migration 7',
    // The list sorts by upload date (migration 7), the pull by the service's order, and the
    // account-wide counts use sessions_account_language; it was only one more write per upsert.
    up: 'DROP INDEX sessions_account_order;',
  },
  {
    version: 13,
    name: "share links keep the service's id of each link (to revoke it, and to match the service's list)",
    // Links made before are matched to the service's list by when they were made and their rights.
    up: 'ALTER TABLE share_links ADD COLUMN link_id TEXT;',
  },
];
