/** watch.db's numbered migrations; WatchStore applies the ones a file lacks, each in a transaction. */

const ITEM_COLUMNS = `
     id INTEGER PRIMARY KEY,
     folder_id TEXT NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
     hash TEXT NOT NULL,
     path TEXT NOT NULL,
     size INTEGER NOT NULL,
     media_type TEXT NOT NULL,
     state TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     error TEXT,
     not_before INTEGER NOT NULL DEFAULT 0,
     method TEXT,
     file_id TEXT,
     tus_url TEXT,
     job_id TEXT,
     session_id TEXT,
     bytes_sent INTEGER NOT NULL DEFAULT 0,
     outputs TEXT NOT NULL DEFAULT '[]',`;

/** The folder row imports from the app belong to: no detector watches it and watch.state never lists it. */
export const IMPORTS_FOLDER_ID = 'imports';

export const MIGRATIONS: string[] = [
  `CREATE TABLE folders (
     id TEXT PRIMARY KEY,
     path TEXT NOT NULL UNIQUE,
     profile TEXT NOT NULL,
     paused INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL
   );
   CREATE TABLE items (${ITEM_COLUMNS}
     delivered_modified TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     UNIQUE (folder_id, hash)
   );
   CREATE INDEX items_state ON items(state, not_before);
   CREATE TABLE files (
     path TEXT PRIMARY KEY,
     folder_id TEXT NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
     size INTEGER NOT NULL,
     mtime_ms INTEGER NOT NULL,
     hash TEXT NOT NULL,
     item_id INTEGER
   );
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,

  // 2: content is uploaded once across all folders, not once per folder. An item whose content is
  // already another item's upload points at it (origin_item_id) and reuses its transcription; the
  // partial unique index allows one uploading item per hash. Also: submitted_at marks a
  // batch.transcribe call in flight (so a crash before job_id is saved does not submit twice), and
  // the delivered documents and their content fingerprint drive refresh-on-edit.
  `CREATE TABLE items_v2 (${ITEM_COLUMNS}
     origin_item_id INTEGER,
     submitted_at INTEGER,
     document_ids TEXT NOT NULL DEFAULT '[]',
     delivered_version TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     UNIQUE (folder_id, hash)
   );
   INSERT INTO items_v2 (id, folder_id, hash, path, size, media_type, state, attempts, error, not_before, method, file_id, tus_url, job_id, session_id, bytes_sent, outputs, origin_item_id, created_at, updated_at)
     SELECT i.id, i.folder_id, i.hash, i.path, i.size, i.media_type, i.state, i.attempts, i.error, i.not_before, i.method, i.file_id, i.tus_url, i.job_id, i.session_id, i.bytes_sent, i.outputs,
            (SELECT MIN(o.id) FROM items o WHERE o.hash = i.hash AND o.id < i.id), i.created_at, i.updated_at
     FROM items i;
   DROP TABLE items;
   ALTER TABLE items_v2 RENAME TO items;
   CREATE INDEX items_state ON items(state, not_before);
   CREATE UNIQUE INDEX items_one_upload ON items(hash) WHERE origin_item_id IS NULL;
   CREATE INDEX items_origin ON items(origin_item_id);
   CREATE INDEX items_session ON items(session_id);`,

  // 3: reuse across folders compares the profile fields that change the result
  // (result_key: hash + language, mode, diarization, punctuation, glossary, custom model), so the
  // same file in a French and an English folder is two jobs. Each file found gets an item of its own
  // (a copy in the same folder is a visible duplicate, a non-media file a visible "not media"), so
  // (folder_id, hash) is no longer unique. Imports from the app live in the 'imports' folder, which
  // no detector watches: each carries its own options, source and text, and can be cancelled. The
  // job's progress is kept for the transcribing bar.
  `CREATE TABLE items_v3 (${ITEM_COLUMNS}
     origin_item_id INTEGER,
     submitted_at INTEGER,
     document_ids TEXT NOT NULL DEFAULT '[]',
     delivered_version TEXT,
     result_key TEXT,
     options TEXT,
     source TEXT,
     name TEXT,
     text TEXT,
     staged INTEGER NOT NULL DEFAULT 0,
     progress REAL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   INSERT INTO items_v3 (id, folder_id, hash, path, size, media_type, state, attempts, error, not_before, method, file_id, tus_url, job_id, session_id, bytes_sent, outputs, origin_item_id, submitted_at, document_ids, delivered_version, result_key, created_at, updated_at)
     SELECT i.id, i.folder_id, i.hash, i.path, i.size, i.media_type, i.state, i.attempts, i.error, i.not_before, i.method, i.file_id, i.tus_url, i.job_id, i.session_id, i.bytes_sent, i.outputs, i.origin_item_id, i.submitted_at, i.document_ids, i.delivered_version,
            i.hash || ':' || json_array(json_extract(f.profile, '$.language'), json_extract(f.profile, '$.sessionMode'), json_extract(f.profile, '$.diarization'), json_extract(f.profile, '$.punctuation'), json_extract(f.profile, '$.glossaryId'), json_extract(f.profile, '$.customModelId')),
            i.created_at, i.updated_at
     FROM items i JOIN folders f ON f.id = i.folder_id;
   DROP TABLE items;
   ALTER TABLE items_v3 RENAME TO items;
   CREATE INDEX items_state ON items(state, not_before);
   CREATE INDEX items_folder_hash ON items(folder_id, hash);
   CREATE INDEX items_folder_path ON items(folder_id, path);
   CREATE UNIQUE INDEX items_one_upload ON items(result_key) WHERE origin_item_id IS NULL AND result_key IS NOT NULL;
   CREATE INDEX items_origin ON items(origin_item_id);
   CREATE INDEX items_session ON items(session_id);
   INSERT INTO folders (id, path, profile, paused, created_at) VALUES ('${IMPORTS_FOLDER_ID}', ':imports:', '{}', 0, '1970-01-01T00:00:00.000Z');`,
];
