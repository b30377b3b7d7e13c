/**
 * The durable side of watch folders: folders with their profiles, the upload queue and the files
 * seen, in one SQLite file (watch.db in the data dir). It is its own file rather than a table of
 * main/cache so that the headless daemon needs nothing else, and so that a queue write (many a
 * second during a drop of a thousand files) never contends with the cache's sync transactions.
 */
import { openDatabase, SchemaTooNewError, stmt, type Db } from '../../node/sqlite';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { WatchProfile, type WatchFolder, type WatchItem, type WatchItemState } from '../../common/ipc';
import { IMPORTS_FOLDER_ID, MIGRATIONS } from './schema';

export interface ItemRow {
  id: number;
  folder_id: string;
  hash: string;
  path: string;
  size: number;
  media_type: string;
  state: ItemState;
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
  /** Another item with the same content whose upload and transcription this one reuses (another folder). */
  origin_item_id: number | null;
  /** When batch.transcribe was called and no job id saved yet (ms); a restart looks for that job first. */
  submitted_at: number | null;
  /** JSON ids of the documents the outputs were made from. */
  document_ids: string;
  /** Fingerprint of the delivered documents' content, so a refresh rewrites only what changed. */
  delivered_version: string | null;
  /** Content hash + the profile fields that change the result (result-key.ts); null for items that never upload (duplicates, non-media). */
  result_key: string | null;
  /** Imports: the dialog's options (JSON TranscriptionOptions), the source (JSON ImportSource), the name shown, the align or upload text. */
  options: string | null;
  source: string | null;
  name: string | null;
  text: string | null;
  /** 1: path is a file staged from the browser, deleted once uploaded or cancelled. */
  staged: number;
  /** The job's progress (0-100) while transcribing. */
  progress: number | null;
  created_at: string;
  updated_at: string;
}

interface FolderRow {
  id: string;
  path: string;
  profile: string;
  paused: number;
}

/** Watch items' states, and 'cancelled', which only imports reach. */
export type ItemState = WatchItemState | 'cancelled';

export type ItemPatch = Partial<Omit<ItemRow, 'id' | 'folder_id' | 'hash' | 'created_at' | 'updated_at'>>;

/** A new import: what imports.add checked, ready to queue. */
export interface NewImport {
  path: string;
  size: number;
  mediaType: string;
  name: string;
  options: string;
  source: string;
  text: string | null;
  staged: boolean;
}

/** schema.ts lists the steps in order; step i is version i + 1. */
const WATCH_MIGRATIONS = MIGRATIONS.map((up, i) => ({ version: i + 1, name: `watch schema ${i + 1}`, up }));

export const ACTIVE_STATES: WatchItemState[] = ['detected', 'uploading', 'transcribing', 'fetching'];

export class WatchStore {
  private readonly db: Db;

  /** Opens (creating) watch.db with node/sqlite's runner; a file from a newer app is refused, not guessed at. */
  constructor(file: string) {
    this.db = openDatabase(file, WATCH_MIGRATIONS, {
      tooNew: (found, known) =>
        new SchemaTooNewError(file, found, known, `The watch-folder database ${file} was written by a newer version of S2T Desktop (schema ${found}; this version knows up to ${known}). Update S2T Desktop, or move that file away to start the watch folders over.`),
    });
  }

  close(): void {
    this.db.close();
  }

  // --- folders -------------------------------------------------------------------------------

  folders(): WatchFolder[] {
    return (stmt(this.db, 'SELECT * FROM folders WHERE id <> ? ORDER BY created_at, id').all(IMPORTS_FOLDER_ID) as FolderRow[]).map(toFolder);
  }

  /** Any folder row, the imports folder included (the queue's view). */
  folder(id: string): WatchFolder | null {
    const row = stmt(this.db, 'SELECT * FROM folders WHERE id = ?').get(id) as FolderRow | undefined;
    return row ? toFolder(row) : null;
  }

  folderByPath(path: string): WatchFolder | null {
    const row = stmt(this.db, 'SELECT * FROM folders WHERE path = ?').get(path) as FolderRow | undefined;
    return row ? toFolder(row) : null;
  }

  addFolder(path: string, profile: WatchProfile): WatchFolder {
    const id = randomUUID();
    stmt(this.db, 'INSERT INTO folders (id, path, profile, paused, created_at) VALUES (?, ?, ?, 0, ?)').run(id, path, JSON.stringify(profile), new Date().toISOString());
    return this.folder(id)!;
  }

  updateFolder(id: string, patch: { profile?: WatchProfile; paused?: boolean }): WatchFolder | null {
    if (id === IMPORTS_FOLDER_ID) return null;
    if (patch.profile) stmt(this.db, 'UPDATE folders SET profile = ? WHERE id = ?').run(JSON.stringify(patch.profile), id);
    if (patch.paused !== undefined) stmt(this.db, 'UPDATE folders SET paused = ? WHERE id = ?').run(patch.paused ? 1 : 0, id);
    return this.folder(id);
  }

  /**
   * Forgets a folder and its items. Content that copies in other folders reuse is handed to the
   * oldest copy first, with what the service already has of it, so nothing is uploaded again.
   */
  removeFolder(id: string): void {
    if (id === IMPORTS_FOLDER_ID) return;
    this.db.transaction(() => {
      const origins = stmt(this.db, 'SELECT * FROM items WHERE folder_id = ? AND origin_item_id IS NULL AND id IN (SELECT origin_item_id FROM items)').all(id) as ItemRow[];
      for (const origin of origins) {
        const heir = stmt(this.db, 'SELECT * FROM items WHERE origin_item_id = ? AND folder_id <> ? ORDER BY id LIMIT 1').get(origin.id, id) as ItemRow | undefined;
        if (!heir) continue;
        stmt(this.db, 'UPDATE items SET origin_item_id = ? WHERE origin_item_id = ? AND id <> ?').run(heir.id, origin.id, heir.id);
        stmt(this.db, 'DELETE FROM items WHERE id = ?').run(origin.id);
        stmt(this.db, 'UPDATE items SET origin_item_id = NULL WHERE id = ?').run(heir.id);
        const patch = inheritance(origin, heir);
        if (patch) this.update(heir.id, patch);
      }
      stmt(this.db, 'DELETE FROM folders WHERE id = ?').run(id);
    })();
  }

  get globallyPaused(): boolean {
    return (stmt(this.db, "SELECT value FROM meta WHERE key = 'paused'").pluck().get() as string | undefined) === '1';
  }

  set globallyPaused(paused: boolean) {
    stmt(this.db, "INSERT INTO meta (key, value) VALUES ('paused', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(paused ? '1' : '0');
  }

  // --- files seen ----------------------------------------------------------------------------

  /** The hash of a path we already read, while its size and mtime have not changed. */
  knownHash(path: string, size: number, mtimeMs: number): string | null {
    const row = stmt(this.db, 'SELECT hash FROM files WHERE path = ? AND size = ? AND mtime_ms = ?').get(path, size, Math.trunc(mtimeMs)) as { hash: string } | undefined;
    return row?.hash ?? null;
  }

  /**
   * Records a finished file and queues its content. Returns the item and whether it is new. The
   * same file seen again (a rescan) queues nothing. A copy of content this folder already has gets
   * an item that says so ("already transcribed as ...") and uploads nothing; a rename (the first
   * path is gone) is the same item. Content uploaded from another folder with the same result key
   * (resultKey: same profile fields) gets an item that reuses that upload (origin_item_id), so its
   * outputs are written here without sending the media again; another profile is another job.
   */
  admit(folderId: string, file: { path: string; size: number; mtimeMs: number; hash: string; mediaType: string }, key: string): { item: ItemRow; created: boolean } {
    return this.db.transaction(() => {
      const now = new Date().toISOString();
      const sameFile = stmt(this.db, 'SELECT * FROM items WHERE folder_id = ? AND path = ? AND hash = ?').get(folderId, file.path, file.hash) as ItemRow | undefined;
      const first = stmt(this.db, 'SELECT * FROM items WHERE folder_id = ? AND hash = ? ORDER BY (result_key IS NULL), id LIMIT 1').get(folderId, file.hash) as ItemRow | undefined;
      let item = sameFile ?? (first && !existsSync(first.path) ? first : undefined);
      const created = !item;
      if (!item) {
        if (first) {
          const done = first.state === 'delivered' && first.session_id;
          const message = done ? `already transcribed as ${basename(first.path)}` : `the same content as ${basename(first.path)}, which is transcribed once`;
          const { lastInsertRowid } = stmt(this.db, `INSERT INTO items (folder_id, hash, origin_item_id, path, size, media_type, state, error, session_id, bytes_sent, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'delivered', ?, ?, ?, ?, ?)`).run(folderId, file.hash, first.id, file.path, file.size, file.mediaType, message, first.session_id, file.size, now, now);
          item = this.item(Number(lastInsertRowid))!;
        } else {
          const origin = stmt(this.db, 'SELECT id FROM items WHERE result_key = ? AND origin_item_id IS NULL').pluck().get(key) as number | undefined;
          const { lastInsertRowid } = stmt(this.db, `INSERT INTO items (folder_id, hash, result_key, origin_item_id, path, size, media_type, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'detected', ?, ?)`).run(folderId, file.hash, key, origin ?? null, file.path, file.size, file.mediaType, now, now);
          item = this.item(Number(lastInsertRowid))!;
        }
      }
      stmt(this.db, 'INSERT INTO files (path, folder_id, size, mtime_ms, hash, item_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET folder_id = excluded.folder_id, size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash, item_id = excluded.item_id').run(file.path, folderId, file.size, Math.trunc(file.mtimeMs), file.hash, item.id);
      return { item, created };
    })();
  }

  /** A file found that will not be transcribed (not media): an item that says why, once per path. */
  skip(folderId: string, path: string, size: number, reason: string): { item: ItemRow; created: boolean } {
    const existing = stmt(this.db, "SELECT * FROM items WHERE folder_id = ? AND path = ? AND media_type = ''").get(folderId, path) as ItemRow | undefined;
    if (existing) return { item: existing.error === reason && existing.size === size ? existing : this.update(existing.id, { error: reason, size, state: 'failed' }), created: false };
    const now = new Date().toISOString();
    const { lastInsertRowid } = stmt(this.db, `INSERT INTO items (folder_id, hash, path, size, media_type, state, error, created_at, updated_at) VALUES (?, ?, ?, ?, '', 'failed', ?, ?, ?)`).run(folderId, `skipped:${randomUUID()}`, path, size, reason, now, now);
    return { item: this.item(Number(lastInsertRowid))!, created: true };
  }

  /**
   * Makes an item upload and transcribe on its own (watch.transcribeAgain): it leaves the item it
   * copied or reused, under a result key of its own so the one-upload-per-key rule still holds.
   */
  transcribeAgain(id: number, key: string): ItemRow | null {
    const item = this.item(id);
    if (!item) return null;
    return this.update(id, {
      origin_item_id: null,
      result_key: `${key}#again-${id}-${Date.now()}`,
      method: null, file_id: null, tus_url: null, job_id: null, session_id: null, submitted_at: null,
      bytes_sent: 0, progress: null, outputs: '[]', document_ids: '[]', delivered_version: null,
      state: 'detected', error: null, attempts: 0, not_before: 0,
    });
  }

  // --- imports from the app ------------------------------------------------------------------

  addImport(imp: NewImport): ItemRow {
    const now = new Date().toISOString();
    const { lastInsertRowid } = stmt(this.db, `INSERT INTO items (folder_id, hash, path, size, media_type, state, name, options, source, text, staged, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'detected', ?, ?, ?, ?, ?, ?, ?)`).run(IMPORTS_FOLDER_ID, `import:${randomUUID()}`, imp.path, imp.size, imp.mediaType, imp.name, imp.options, imp.source, imp.text, imp.staged ? 1 : 0, now, now);
    return this.item(Number(lastInsertRowid))!;
  }

  imports(offset: number, limit: number): { items: ItemRow[]; total: number } {
    const total = stmt(this.db, 'SELECT COUNT(*) FROM items WHERE folder_id = ?').pluck().get(IMPORTS_FOLDER_ID) as number;
    const items = stmt(this.db, 'SELECT * FROM items WHERE folder_id = ? ORDER BY id DESC LIMIT ? OFFSET ?').all(IMPORTS_FOLDER_ID, limit, offset) as ItemRow[];
    return { items, total };
  }

  /** Forgets finished imports; answers the rows removed (their staged files are the caller's to delete). */
  clearFinishedImports(): ItemRow[] {
    return this.db.transaction(() => {
      const rows = stmt(this.db, "SELECT * FROM items WHERE folder_id = ? AND state IN ('delivered', 'failed', 'cancelled')").all(IMPORTS_FOLDER_ID) as ItemRow[];
      stmt(this.db, "DELETE FROM items WHERE folder_id = ? AND state IN ('delivered', 'failed', 'cancelled')").run(IMPORTS_FOLDER_ID);
      return rows;
    })();
  }

  /** The local file a session was made from (an import by path, or a watched file), newest first. */
  localPathsOf(sessionId: string): string[] {
    return stmt(this.db, "SELECT path FROM items WHERE session_id = ? AND staged = 0 AND path <> '' ORDER BY id DESC").pluck().all(sessionId) as string[];
  }

  /** Items that reuse `originId`'s upload. */
  copiesOf(originId: number): ItemRow[] {
    return stmt(this.db, 'SELECT * FROM items WHERE origin_item_id = ?').all(originId) as ItemRow[];
  }

  /** Points an item whose origin is gone at the item that now uploads its content, or makes it that item. */
  reattach(id: number): void {
    this.db.transaction(() => {
      const item = this.item(id);
      if (!item) return;
      const other = stmt(this.db, 'SELECT id FROM items WHERE result_key = ? AND origin_item_id IS NULL AND id <> ?').pluck().get(item.result_key, id) as number | undefined;
      stmt(this.db, 'UPDATE items SET origin_item_id = ? WHERE id = ?').run(other ?? null, id);
    })();
  }

  /** Session ids the queue already knows, to tell our sessions from others' when looking for a lost job. */
  knowsSession(sessionId: string): boolean {
    return stmt(this.db, 'SELECT 1 FROM items WHERE session_id = ? LIMIT 1').get(sessionId) !== undefined;
  }

  forgetFile(path: string): void {
    stmt(this.db, 'DELETE FROM files WHERE path = ?').run(path);
  }

  // --- the queue -----------------------------------------------------------------------------

  item(id: number): ItemRow | null {
    return (stmt(this.db, 'SELECT * FROM items WHERE id = ?').get(id) as ItemRow | undefined) ?? null;
  }

  update(id: number, patch: ItemPatch): ItemRow {
    const keys = Object.keys(patch) as (keyof ItemPatch)[];
    if (keys.length) {
      const sets = keys.map((k) => `${k} = @${k}`).join(', ');
      stmt(this.db, `UPDATE items SET ${sets}, updated_at = @updated_at WHERE id = @id`).run({ ...patch, id, updated_at: new Date().toISOString() });
    }
    return this.item(id)!;
  }

  /** Items in one of `states` ready to work on: due, their folder not paused (only imports while every watch folder is paused); oldest first. */
  due(states: WatchItemState[], now: number, limit: number, exclude: number[], onlyImports = false): ItemRow[] {
    if (limit <= 0) return [];
    const st = states.map(() => '?').join(',');
    const ex = exclude.length ? `AND i.id NOT IN (${exclude.map(() => '?').join(',')})` : '';
    // The text varies only with how many states and exclusions there are: a few shapes, each prepared once.
    return stmt(
      this.db,
      `SELECT i.* FROM items i JOIN folders f ON f.id = i.folder_id
       WHERE i.state IN (${st}) AND i.not_before <= ? AND f.paused = 0 ${onlyImports ? 'AND i.folder_id = ?' : ''} ${ex}
       ORDER BY i.id LIMIT ?`,
    ).all(...states, now, ...(onlyImports ? [IMPORTS_FOLDER_ID] : []), ...exclude, limit) as ItemRow[];
  }

  /** When the next active item that waits for its time becomes due (for the scheduler's timer). */
  nextDueAfter(now: number): number | null {
    return (stmt(this.db, `SELECT MIN(not_before) FROM items WHERE state IN ('detected','uploading','transcribing','fetching') AND not_before > ?`).pluck().get(now) as number | null) ?? null;
  }

  items(filter: { folderId?: string; state?: WatchItemState; offset: number; limit: number }): { items: ItemRow[]; total: number } {
    const where: string[] = ['folder_id <> ?'];
    const args: unknown[] = [IMPORTS_FOLDER_ID];
    if (filter.folderId) {
      where.push('folder_id = ?');
      args.push(filter.folderId);
    }
    if (filter.state) {
      where.push('state = ?');
      args.push(filter.state);
    }
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = stmt(this.db, `SELECT COUNT(*) FROM items ${w}`).pluck().get(...args) as number;
    const items = stmt(this.db, `SELECT * FROM items ${w} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...args, filter.limit, filter.offset) as ItemRow[];
    return { items, total };
  }

  /** Delivered items of the given sessions, to refresh their files after an edit. */
  deliveredBySessions(sessionIds: string[]): ItemRow[] {
    if (!sessionIds.length) return [];
    return stmt(this.db, `SELECT * FROM items WHERE state = 'delivered' AND session_id IN (${sessionIds.map(() => '?').join(',')}) ORDER BY id`).all(...sessionIds) as ItemRow[];
  }

  countByState(): Record<string, number> {
    const rows = stmt(this.db, 'SELECT state, COUNT(*) AS n FROM items GROUP BY state').all() as { state: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }
}

/**
 * What the oldest copy takes over from a removed origin: the service's file, job and session, and
 * a state that resumes from there (never back before what the copy reached on its own).
 */
function inheritance(origin: ItemRow, heir: ItemRow): ItemPatch | null {
  if (heir.file_id || heir.job_id || heir.session_id || heir.state === 'delivered' || heir.state === 'failed') return null;
  const refs = { method: origin.method, file_id: origin.file_id, tus_url: origin.tus_url, job_id: origin.job_id, session_id: origin.session_id, submitted_at: origin.submitted_at };
  const transcribed = (origin.job_id || origin.session_id) && ['transcribing', 'fetching', 'delivered'].includes(origin.state);
  if (transcribed) return { ...refs, state: 'transcribing', error: null, not_before: 0 };
  if (origin.file_id || origin.tus_url || origin.session_id) return { ...refs, state: 'uploading', error: null, not_before: 0 };
  return { state: 'detected', error: null, not_before: 0 };
}

function toFolder(row: FolderRow): WatchFolder {
  return { id: row.id, path: row.path, profile: WatchProfile.parse(JSON.parse(row.profile)), paused: row.paused === 1 };
}

export function toWatchItem(row: ItemRow, live?: { rate: number | null; etaSeconds: number | null }): WatchItem {
  const total = row.size;
  const percent = uploadPercent(row);
  return {
    itemId: row.id,
    folderId: row.folder_id,
    path: row.path,
    state: row.state === 'cancelled' ? 'failed' : row.state,
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

/** Upload percent while uploading, the job's progress while transcribing, 100 after. */
export function uploadPercent(row: ItemRow): number {
  const p = row.state === 'detected' ? 0 : row.state === 'uploading' ? (row.size ? (row.bytes_sent / row.size) * 100 : 0) : row.state === 'transcribing' ? (row.progress ?? 0) : 100;
  return Math.round(Math.min(100, Math.max(0, p)) * 10) / 10;
}
