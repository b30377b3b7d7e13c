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
];
