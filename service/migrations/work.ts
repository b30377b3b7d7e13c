import type { Migration } from '../db';

/** Sessions' work, documents, jobs, uploads, share links and webhook deliveries (versions 100-199). */
export const workMigrations: Migration[] = [
  {
    version: 100,
    name: 'session work columns, documents, jobs, uploads, shares, deliveries, transitions',
    up: `
      ALTER TABLE sessions ADD COLUMN media_path TEXT;
      ALTER TABLE sessions ADD COLUMN kept_path TEXT;
      ALTER TABLE sessions ADD COLUMN waveform_path TEXT;
      ALTER TABLE sessions ADD COLUMN transcript_text TEXT;
      ALTER TABLE sessions ADD COLUMN webhook_url TEXT;
      ALTER TABLE sessions ADD COLUMN webhook_method TEXT;
      ALTER TABLE sessions ADD COLUMN webhook_headers TEXT;
      ALTER TABLE sessions ADD COLUMN meta_data TEXT;
      ALTER TABLE sessions ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;

      CREATE TABLE documents (
        id TEXT PRIMARY KEY,
        session_pk INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        filename TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('document', 'caption')),
        language TEXT NOT NULL,
        created TEXT NOT NULL,
        last_modified TEXT NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0,
        timecode_offset TEXT NOT NULL DEFAULT '00:00:00:00',
        body TEXT NOT NULL,
        original TEXT NOT NULL,
        job_id TEXT
      );
      CREATE INDEX documents_session ON documents(session_pk, created);

      CREATE TABLE uploads (
        file_id TEXT PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations(id),
        user_id INTEGER NOT NULL REFERENCES users(id),
        path TEXT NOT NULL,
        filename TEXT NOT NULL,
        size_bytes INTEGER NOT NULL DEFAULT 0,
        media_type TEXT NOT NULL DEFAULT '',
        complete INTEGER NOT NULL DEFAULT 0,
        via TEXT NOT NULL CHECK (via IN ('multipart', 'tus')),
        created_at TEXT NOT NULL
      );

      CREATE TABLE jobs (
        job_id TEXT PRIMARY KEY,
        session_pk INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('decode', 'align', 'upload')),
        status TEXT NOT NULL,
        progress INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        run_after INTEGER NOT NULL DEFAULT 0,
        file_id TEXT,
        params TEXT NOT NULL DEFAULT '{}',
        webhook_url TEXT,
        webhook_secret TEXT,
        webhook_events TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        started_at TEXT,
        estimated_completion TEXT
      );
      CREATE INDEX jobs_status ON jobs(status, run_after);
      CREATE INDEX jobs_session ON jobs(session_pk);

      CREATE TABLE transitions (
        id INTEGER PRIMARY KEY,
        entity TEXT NOT NULL CHECK (entity IN ('session', 'job')),
        entity_id TEXT NOT NULL,
        from_status TEXT,
        to_status TEXT NOT NULL,
        reason TEXT NOT NULL,
        at TEXT NOT NULL
      );
      CREATE INDEX transitions_entity ON transitions(entity, entity_id);

      CREATE TABLE share_links (
        token_hash TEXT PRIMARY KEY,
        session_pk INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        allow_editing INTEGER NOT NULL,
        allow_export INTEGER NOT NULL,
        created TEXT NOT NULL,
        expires TEXT NOT NULL,
        revoked_at TEXT
      );

      CREATE TABLE webhook_deliveries (
        delivery_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('legacy', 'signed')),
        url TEXT NOT NULL,
        method TEXT NOT NULL,
        headers TEXT NOT NULL,
        body TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        created_at TEXT NOT NULL,
        delivered_at TEXT
      );
      CREATE INDEX webhook_due ON webhook_deliveries(status, next_attempt_at);
    `,
  },
  {
    // Numbered after auth's 150: a database already at 150 skips any lower number.
    version: 151,
    name: 'documents keep their end time; sessions without media get their duration from it once',
    up: `
      -- The latest end of the document's segments or cues (ms), written with the body, so a save's
      -- duration refresh reads this column, not every segment from the JSON.
      ALTER TABLE documents ADD COLUMN end_ms INTEGER;
      UPDATE documents SET end_ms = (
        SELECT MAX(e) FROM (
          SELECT json_extract(x.value, '$.end_ms') AS e FROM json_each(documents.body, '$.content.segments') x
          UNION ALL
          SELECT json_extract(x.value, '$.end_ms') FROM json_each(documents.body, '$.content.cues') x
        )
      );
      -- Sessions stored before durations came from documents (0): once here, instead of a pass at every start.
      -- The condition is service/sessions/duration.ts's, written out: a migration does not change with the code.
      UPDATE sessions SET duration = COALESCE((SELECT MAX(end_ms) FROM documents WHERE session_pk = sessions.id), 0) / 1000.0
        WHERE session_mode = 'upload' AND NOT (COALESCE(media_type, '') GLOB 'audio/*' OR COALESCE(media_type, '') GLOB 'video/*');
    `,
  },
  {
    version: 170,
    name: 'magic links get an id, how they were made and to whom they were mailed',
    up: `
      -- The id lets the owner list and revoke a link whose token only its recipient holds (a mailed one).
      ALTER TABLE share_links ADD COLUMN id TEXT;
      UPDATE share_links SET id = 'shl_' || lower(hex(randomblob(12)));
      CREATE UNIQUE INDEX share_links_id ON share_links(id);
      ALTER TABLE share_links ADD COLUMN via TEXT NOT NULL DEFAULT 'link';
      ALTER TABLE share_links ADD COLUMN mailed_to TEXT;
      CREATE INDEX share_links_document ON share_links(document_id, created);
    `,
  },
  {
    version: 270,
    name: "a session's documents' latest end read from an index",
    up: `
      -- end_ms sits after the body, so reading it from the row walks the body's overflow pages (a
      -- 3-hour transcript's megabyte); the duration refresh on every save reads it from here.
      CREATE INDEX documents_session_end ON documents(session_pk, end_ms);
    `,
  },
];
