/**
 * What the app knows about media on this computer, per account and session, in media.db (its own
 * file in the data dir's media/ folder, beside the kept copies, so the media cache can be wiped as
 * one folder and never contends with the sync's transactions):
 *   local_media   where the file a session was made from lies (watch folders, new transcriptions)
 *   cached_media  the app's kept copies of the service's media, with their size and last use (LRU)
 * A kept copy has a row only once its download finished: a partial download never counts.
 */
import { openDatabase, SchemaTooNewError, stmt, type Db } from '../../node/sqlite';

const MIGRATIONS = [
  {
    version: 1,
    name: 'local media paths and kept copies',
    up: `
      CREATE TABLE local_media (
        account TEXT NOT NULL,
        session_id TEXT NOT NULL,
        path TEXT NOT NULL,
        PRIMARY KEY (account, session_id)
      );
      CREATE TABLE cached_media (
        account TEXT NOT NULL,
        session_id TEXT NOT NULL,
        -- the file's name in the media folder (ours, never a path from elsewhere)
        file TEXT NOT NULL UNIQUE,
        bytes INTEGER NOT NULL,
        media_type TEXT NOT NULL,
        last_used INTEGER NOT NULL,
        PRIMARY KEY (account, session_id)
      );
      CREATE INDEX cached_media_lru ON cached_media(last_used);
    `,
  },
];

export interface CachedMedia {
  account: string;
  sessionId: string;
  file: string;
  bytes: number;
  mediaType: string;
  lastUsed: number;
}

interface CachedRow {
  account: string;
  session_id: string;
  file: string;
  bytes: number;
  media_type: string;
  last_used: number;
}

const fromRow = (r: CachedRow): CachedMedia => ({ account: r.account, sessionId: r.session_id, file: r.file, bytes: r.bytes, mediaType: r.media_type, lastUsed: r.last_used });

export class MediaStore {
  private readonly db: Db;

  constructor(file: string) {
    this.db = openDatabase(file, MIGRATIONS, {
      tooNew: (found, known) =>
        new SchemaTooNewError(file, found, known, `The media database ${file} was written by a newer version of S2T Desktop (schema ${found}; this version knows up to ${known}). Update S2T Desktop, or delete that folder: it only holds copies of media the service keeps.`),
    });
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  rememberLocal(account: string, sessionId: string, path: string): void {
    stmt(this.db, 'INSERT INTO local_media (account, session_id, path) VALUES (?, ?, ?) ON CONFLICT(account, session_id) DO UPDATE SET path = excluded.path').run(account, sessionId, path);
  }

  localPath(account: string, sessionId: string): string | null {
    const row = stmt(this.db, 'SELECT path FROM local_media WHERE account = ? AND session_id = ?').get(account, sessionId) as { path: string } | undefined;
    return row?.path ?? null;
  }

  cached(account: string, sessionId: string): CachedMedia | null {
    const row = stmt(this.db, 'SELECT * FROM cached_media WHERE account = ? AND session_id = ?').get(account, sessionId) as CachedRow | undefined;
    return row ? fromRow(row) : null;
  }

  /** Records a finished download (replacing an older copy of the same session, whose file it returns). */
  addCached(entry: CachedMedia): string | null {
    return this.db.transaction(() => {
      const old = this.cached(entry.account, entry.sessionId);
      stmt(this.db, 'DELETE FROM cached_media WHERE account = ? AND session_id = ?').run(entry.account, entry.sessionId);
      stmt(this.db, 'INSERT INTO cached_media (account, session_id, file, bytes, media_type, last_used) VALUES (?, ?, ?, ?, ?, ?)').run(
        entry.account, entry.sessionId, entry.file, entry.bytes, entry.mediaType, entry.lastUsed,
      );
      return old && old.file !== entry.file ? old.file : null;
    }).immediate();
  }

  touch(account: string, sessionId: string, at: number): void {
    stmt(this.db, 'UPDATE cached_media SET last_used = ? WHERE account = ? AND session_id = ?').run(at, account, sessionId);
  }

  dropCached(file: string): void {
    stmt(this.db, 'DELETE FROM cached_media WHERE file = ?').run(file);
  }

  totalCachedBytes(): number {
    return (stmt(this.db, 'SELECT coalesce(sum(bytes), 0) AS n FROM cached_media').get() as { n: number }).n;
  }

  /** Kept copies, least recently used first. */
  cachedByAge(): CachedMedia[] {
    return (stmt(this.db, 'SELECT * FROM cached_media ORDER BY last_used, rowid').all() as CachedRow[]).map(fromRow);
  }

  cachedFiles(): Set<string> {
    return new Set((stmt(this.db, 'SELECT file FROM cached_media').all() as { file: string }[]).map((r) => r.file));
  }
}
