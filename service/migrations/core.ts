import type { Migration } from '../db';

/** Organizations, users, login sessions and transcription sessions: what every part needs. */
export const coreMigrations: Migration[] = [
  {
    version: 1,
    name: 'organizations and users',
    up: `
      CREATE TABLE organizations (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES organizations(id),
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        password_hash TEXT,
        first_name TEXT NOT NULL DEFAULT '',
        last_name TEXT NOT NULL DEFAULT '',
        newsletter INTEGER NOT NULL DEFAULT 0,
        roles TEXT NOT NULL DEFAULT '[]',
        is_active INTEGER NOT NULL DEFAULT 1,
        identity_provider TEXT NOT NULL DEFAULT 'local',
        created_at TEXT NOT NULL
      );
      CREATE TABLE login_sessions (
        id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        revoked_at TEXT
      );
    `,
  },
  {
    version: 2,
    name: 'transcription sessions',
    up: `
      CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL UNIQUE,
        org_id INTEGER NOT NULL REFERENCES organizations(id),
        user_id INTEGER NOT NULL REFERENCES users(id),
        filename TEXT NOT NULL DEFAULT '',
        duration REAL NOT NULL DEFAULT 0,
        error TEXT,
        media_type TEXT NOT NULL DEFAULT '',
        language TEXT NOT NULL,
        status TEXT NOT NULL,
        session_mode TEXT,
        keep_media INTEGER NOT NULL DEFAULT 0,
        diarization INTEGER NOT NULL DEFAULT 0,
        punctuation INTEGER NOT NULL DEFAULT 0,
        allow_magic_link_export INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        last_modified TEXT NOT NULL,
        date_upload TEXT,
        date_finished TEXT,
        date_retried TEXT,
        date_session_start TEXT
      );
      CREATE INDEX sessions_org_created ON sessions(org_id, created_at);
      CREATE INDEX sessions_org_modified ON sessions(org_id, last_modified);
    `,
  },
  {
    // After work's 100 (kept_path, waveform_path, meta_data) and the 150s: a database at 151 skips any lower number.
    version: 152,
    name: 'each session as its wire JSON, kept by triggers, for the session list',
    up: `
      -- The session list reads these rows instead of building every session's JSON per request
      -- (README: Session list, where a request's time went). json is toSession's answer without
      -- what depends on the time (signed links: media_url stays '', wave_info_url is left out; the
      -- list adds both where media or wave is 1); meta_data, when given, comes last. A change to
      -- the Session shape needs a new migration that drops and recreates these triggers and
      -- rewrites the rows; test/service/sessions/list.test.ts compares the list with toSession.
      CREATE TABLE session_wire (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        media INTEGER NOT NULL,
        wave INTEGER NOT NULL,
        json TEXT NOT NULL
      );
      CREATE VIEW session_wire_source AS
      SELECT id, session_id, ifnull(kept_path <> '', 0) AS media, ifnull(waveform_path <> '', 0) AS wave,
        CASE WHEN meta_data <> '' THEN json_patch(obj, json_object('meta_data', json(meta_data))) ELSE obj END AS json
      FROM (SELECT *, json_object(
        'id', id, 'session_id', session_id, 'duration', duration, 'error', error, 'filename', filename, 'media_type', media_type,
        'media_url', '', 'language', language, 'language_key', language, 'status', status, 'last_modified', last_modified,
        'date_upload', date_upload, 'date_finished', date_finished, 'date_retried', date_retried, 'date_session_start', date_session_start,
        'keep_media', CASE keep_media WHEN 1 THEN json('true') ELSE json('false') END,
        'diarization', CASE diarization WHEN 1 THEN json('true') ELSE json('false') END,
        'session_mode', session_mode,
        'allow_magic_link_export', CASE allow_magic_link_export WHEN 1 THEN json('true') ELSE json('false') END
      ) AS obj FROM sessions);
      INSERT INTO session_wire SELECT * FROM session_wire_source;
      CREATE TRIGGER session_wire_insert AFTER INSERT ON sessions BEGIN
        INSERT OR REPLACE INTO session_wire SELECT * FROM session_wire_source WHERE id = NEW.id;
      END;
      CREATE TRIGGER session_wire_update AFTER UPDATE ON sessions BEGIN
        DELETE FROM session_wire WHERE id = OLD.id;
        INSERT OR REPLACE INTO session_wire SELECT * FROM session_wire_source WHERE id = NEW.id;
      END;
      CREATE TRIGGER session_wire_delete AFTER DELETE ON sessions BEGIN
        DELETE FROM session_wire WHERE id = OLD.id;
      END;
    `,
  },
];
