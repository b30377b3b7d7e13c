/**
 * Seeds the local service's own SQLite file (service.db in its data dir) with many sessions and
 * documents, for tests that need more than the HTTP endpoints can make quickly. It writes
 * exactly the rows the service's code writes (documents through the service's insertDocument).
 * Also removes a session outright, which the service's API cannot do (a cloud-side purge), and
 * changes documents behind the session's back (a service that does not move a session's
 * last_modified for every document change).
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { insertDocument } from '../../../service/documents/store';
import type { DocumentBody } from '../../../common/transcript/model';
import { body } from './fixtures';

export interface Seeded {
  sessions: { sessionId: string; documentIds: string[] }[];
}

export function openServiceDb(dataDir: string): Database.Database {
  const db = new Database(join(dataDir, 'service.db'));
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

export function seedService(dataDir: string, opts: { sessions: number; docsPerSession?: number; texts?: (i: number, d: number) => string[]; body?: (i: number, d: number) => DocumentBody; email: string }): Seeded {
  const db = openServiceDb(dataDir);
  try {
    const u = db.prepare('SELECT id, org_id FROM users WHERE email = ?').get(opts.email) as { id: number; org_id: number };
    const out: Seeded = { sessions: [] };
    const texts = opts.texts ?? ((i, d) => [`session ${i} document ${d} first`, `second segment of ${i}`, `third words here ${d}`]);
    const base = Date.now() - 3_600_000;
    db.transaction(() => {
      for (let i = 0; i < opts.sessions; i++) {
        const sessionId = randomBytes(12).toString('base64url');
        const stamp = new Date(base + i).toISOString();
        const pk = Number(
          db
            .prepare("INSERT INTO sessions (session_id, org_id, user_id, filename, duration, media_type, language, status, session_mode, created_at, last_modified) VALUES (?, ?, ?, ?, 30, 'audio/wav', 'en', 'completed', 'upload', ?, ?)")
            .run(sessionId, u.org_id, u.id, `recording-${i}.wav`, stamp, stamp).lastInsertRowid,
        );
        const documentIds: string[] = [];
        for (let d = 0; d < (opts.docsPerSession ?? 1); d++) {
          const b: DocumentBody = opts.body ? opts.body(i, d) : body(texts(i, d));
          documentIds.push(insertDocument(db, { sessionPk: pk, filename: `transcript-${i}-${d}.json`, type: 'document', language: 'en', body: b }));
        }
        // Inserting documents moved the session's last_modified to now; these sessions were last
        // touched an hour ago, a millisecond apart, so the list order (and a pull's pages) are fixed.
        db.prepare('UPDATE sessions SET last_modified = ? WHERE id = ?').run(stamp, pk);
        db.prepare('UPDATE documents SET created = ?, last_modified = ? WHERE session_pk = ?').run(stamp, stamp, pk);
        out.sessions.push({ sessionId, documentIds });
      }
    })();
    return out;
  } finally {
    db.close();
  }
}

export function purgeSession(dataDir: string, sessionId: string): void {
  const db = openServiceDb(dataDir);
  try {
    db.prepare('DELETE FROM sessions WHERE session_id = ?').run(sessionId);
  } finally {
    db.close();
  }
}

/** Rewrites a document's text, or deletes it, without touching its session (unlike the service's own writes). */
export function changeBehindSession(dataDir: string, change: { rewrite?: { documentId: string; body: DocumentBody }; remove?: string }): void {
  const db = openServiceDb(dataDir);
  try {
    if (change.rewrite) {
      db.prepare('UPDATE documents SET body = ?, last_modified = ? WHERE id = ?').run(JSON.stringify(change.rewrite.body), new Date().toISOString(), change.rewrite.documentId);
    }
    if (change.remove) db.prepare('DELETE FROM documents WHERE id = ?').run(change.remove);
  } finally {
    db.close();
  }
}
