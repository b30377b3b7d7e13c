/**
 * The durable side of watch folders: folders with their profiles, the upload queue and the files
 * seen, in one SQLite file (watch.db in the data dir). It is its own file rather than a table of
 * main/cache so that the headless daemon needs nothing else, and so that a queue write (many a
 * second during a drop of a thousand files) never contends with the cache's sync transactions.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { WatchProfile, type WatchFolder, type WatchItem, type WatchItemState } from '../../common/ipc';

const MIGRATIONS: string[] = [
  `CREATE TABLE folders (
     id TEXT PRIMARY KEY,
     path TEXT NOT NULL UNIQUE,
     profile TEXT NOT NULL,
     paused INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL
   );
   CREATE TABLE items (
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
     outputs TEXT NOT NULL DEFAULT '[]',
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
];

export interface ItemRow {
  id: number;
  folder_id: string;
  hash: string;
  path: string;
  size: number;
  media_type: string;
  state: WatchItemState;
  attempts: number;
  error: string | null;
  not_before: number;
  method: 'multipart' | 'tus' | 'legacy' | null;
  file_id: string | null;
  tus_url: string | null;
  job_id: string | null;
  session_id: string | null;
  bytes_sent: number;
  outputs: string;
  delivered_modified: string | null;
  created_at: string;
  updated_at: string;
}

interface FolderRow {
  id: string;
  path: string;
  profile: string;
  paused: number;
}

export type ItemPatch = Partial<Omit<ItemRow, 'id' | 'folder_id' | 'hash' | 'created_at' | 'updated_at'>>;

export const ACTIVE_STATES: WatchItemState[] = ['detected', 'uploading', 'transcribing', 'fetching'];

export class WatchStore {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    const version = this.db.pragma('user_version', { simple: true }) as number;
    for (let v = version; v < MIGRATIONS.length; v++) {
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[v]);
        this.db.pragma(`user_version = ${v + 1}`);
      })();
    }
  }

  close(): void {
    this.db.close();
  }

  // --- folders -------------------------------------------------------------------------------

  folders(): WatchFolder[] {
    return (this.db.prepare('SELECT * FROM folders ORDER BY created_at, id').all() as FolderRow[]).map(toFolder);
  }

  folder(id: string): WatchFolder | null {
    const row = this.db.prepare('SELECT * FROM folders WHERE id = ?').get(id) as FolderRow | undefined;
    return row ? toFolder(row) : null;
  }

  folderByPath(path: string): WatchFolder | null {
    const row = this.db.prepare('SELECT * FROM folders WHERE path = ?').get(path) as FolderRow | undefined;
    return row ? toFolder(row) : null;
  }

  addFolder(path: string, profile: WatchProfile): WatchFolder {
    const id = randomUUID();
    this.db.prepare('INSERT INTO folders (id, path, profile, paused, created_at) VALUES (?, ?, ?, 0, ?)').run(id, path, JSON.stringify(profile), new Date().toISOString());
    return this.folder(id)!;
  }

  updateFolder(id: string, patch: { profile?: WatchProfile; paused?: boolean }): WatchFolder | null {
    if (patch.profile) this.db.prepare('UPDATE folders SET profile = ? WHERE id = ?').run(JSON.stringify(patch.profile), id);
    if (patch.paused !== undefined) this.db.prepare('UPDATE folders SET paused = ? WHERE id = ?').run(patch.paused ? 1 : 0, id);
    return this.folder(id);
  }

  removeFolder(id: string): void {
    this.db.prepare('DELETE FROM folders WHERE id = ?').run(id);
  }

  get globallyPaused(): boolean {
    return (this.db.prepare("SELECT value FROM meta WHERE key = 'paused'").pluck().get() as string | undefined) === '1';
  }

  set globallyPaused(paused: boolean) {
    this.db.prepare("INSERT INTO meta (key, value) VALUES ('paused', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(paused ? '1' : '0');
  }

  // --- files seen ----------------------------------------------------------------------------

  /** The hash of a path we already read, while its size and mtime have not changed. */
  knownHash(path: string, size: number, mtimeMs: number): string | null {
    const row = this.db.prepare('SELECT hash FROM files WHERE path = ? AND size = ? AND mtime_ms = ?').get(path, size, Math.trunc(mtimeMs)) as { hash: string } | undefined;
    return row?.hash ?? null;
  }

  /**
   * Records a finished file and queues its content once per folder. Returns the item and whether
   * it is new; a known hash (a rename, move or copy of media we already have) queues nothing.
   */
  admit(folderId: string, file: { path: string; size: number; mtimeMs: number; hash: string; mediaType: string }): { item: ItemRow; created: boolean } {
    return this.db.transaction(() => {
      const now = new Date().toISOString();
      const inserted = this.db
        .prepare(`INSERT INTO items (folder_id, hash, path, size, media_type, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'detected', ?, ?) ON CONFLICT(folder_id, hash) DO NOTHING`)
        .run(folderId, file.hash, file.path, file.size, file.mediaType, now, now);
      const item = this.db.prepare('SELECT * FROM items WHERE folder_id = ? AND hash = ?').get(folderId, file.hash) as ItemRow;
      this.db
        .prepare('INSERT INTO files (path, folder_id, size, mtime_ms, hash, item_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET folder_id = excluded.folder_id, size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash, item_id = excluded.item_id')
        .run(file.path, folderId, file.size, Math.trunc(file.mtimeMs), file.hash, item.id);
      return { item, created: inserted.changes === 1 };
    })();
  }

  forgetFile(path: string): void {
    this.db.prepare('DELETE FROM files WHERE path = ?').run(path);
  }

  // --- the queue -----------------------------------------------------------------------------

  item(id: number): ItemRow | null {
    return (this.db.prepare('SELECT * FROM items WHERE id = ?').get(id) as ItemRow | undefined) ?? null;
  }

  update(id: number, patch: ItemPatch): ItemRow {
    const keys = Object.keys(patch) as (keyof ItemPatch)[];
    if (keys.length) {
      const sets = keys.map((k) => `${k} = @${k}`).join(', ');
      this.db.prepare(`UPDATE items SET ${sets}, updated_at = @updated_at WHERE id = @id`).run({ ...patch, id, updated_at: new Date().toISOString() });
    }
    return this.item(id)!;
  }

  /** Items in one of `states` ready to work on: due, their folder not paused; oldest first. */
  due(states: WatchItemState[], now: number, limit: number, exclude: number[]): ItemRow[] {
    if (limit <= 0) return [];
    const st = states.map(() => '?').join(',');
    const ex = exclude.length ? `AND i.id NOT IN (${exclude.map(() => '?').join(',')})` : '';
    return this.db
      .prepare(
        `SELECT i.* FROM items i JOIN folders f ON f.id = i.folder_id
         WHERE i.state IN (${st}) AND i.not_before <= ? AND f.paused = 0 ${ex}
         ORDER BY i.id LIMIT ?`,
      )
      .all(...states, now, ...exclude, limit) as ItemRow[];
  }

  /** When the next active item that waits for its time becomes due (for the scheduler's timer). */
  nextDueAfter(now: number): number | null {
    return (this.db.prepare(`SELECT MIN(not_before) FROM items WHERE state IN ('detected','uploading','transcribing','fetching') AND not_before > ?`).pluck().get(now) as number | null) ?? null;
  }

  items(filter: { folderId?: string; state?: WatchItemState; offset: number; limit: number }): { items: ItemRow[]; total: number } {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.folderId) {
      where.push('folder_id = ?');
      args.push(filter.folderId);
    }
    if (filter.state) {
      where.push('state = ?');
      args.push(filter.state);
    }
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = this.db.prepare(`SELECT COUNT(*) FROM items ${w}`).pluck().get(...args) as number;
    const items = this.db.prepare(`SELECT * FROM items ${w} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...args, filter.limit, filter.offset) as ItemRow[];
    return { items, total };
  }

  /** Delivered items of a session, to refresh their files after an edit. */
  deliveredBySession(sessionId: string): ItemRow[] {
    return this.db.prepare("SELECT * FROM items WHERE session_id = ? AND state = 'delivered'").all(sessionId) as ItemRow[];
  }

  countByState(): Record<string, number> {
    const rows = this.db.prepare('SELECT state, COUNT(*) AS n FROM items GROUP BY state').all() as { state: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }
}

function toFolder(row: FolderRow): WatchFolder {
  return { id: row.id, path: row.path, profile: WatchProfile.parse(JSON.parse(row.profile)), paused: row.paused === 1 };
}

export function toWatchItem(row: ItemRow, live?: { rate: number | null; etaSeconds: number | null }): WatchItem {
  const total = row.size;
  const percent = row.state === 'detected' ? 0 : row.state === 'uploading' ? (total ? Math.min(100, (row.bytes_sent / total) * 100) : 0) : 100;
  return {
    itemId: row.id,
    folderId: row.folder_id,
    path: row.path,
    state: row.state,
    bytesSent: row.bytes_sent,
    bytesTotal: total,
    percent: Math.round(percent * 10) / 10,
    rate: live?.rate ?? null,
    etaSeconds: live?.etaSeconds ?? null,
    message: row.error,
    hash: row.hash,
    sessionId: row.session_id,
    outputs: JSON.parse(row.outputs) as string[],
    attempts: row.attempts,
    updatedAt: row.updated_at,
  };
}
