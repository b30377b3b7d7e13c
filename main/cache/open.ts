/**
 * Opening the cache: WAL, foreign keys, numbered migrations, a refusal to open a database newer
 * than the app, and an integrity check (PRAGMA integrity_check, then FTS5's own check of the
 * search index against its rows; a bad search index alone is rebuilt in place). A corrupt cache
 * is moved aside and rebuilt empty (the next pull refills it from the service) with its unsent
 * outbox, and the documents that outbox edits, carried over. Recovery happens in-process and
 * never throws, so the app cannot crash-loop on a bad file.
 *
 * When the damaged file cannot be moved (another process holds it, say), the rebuilt cache is
 * opened as `<file>.rebuilt` instead, and every later start uses that file until the damaged one
 * can be moved away, when the rebuilt file takes the usual name again.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, unlinkSync } from 'node:fs';
import { configure as configureDb, migrate as migrateDb, SchemaTooNewError } from '../../node/sqlite';
import type { Db } from './db';
import { cacheMigrations, type CacheMigration } from './migrations';

export type { Db };

export class CacheTooNewError extends SchemaTooNewError {
  constructor(file: string, found: number, known: number) {
    super(file, found, known, `The local cache ${file} was written by a newer version of S2T Desktop (schema ${found}; this version knows up to ${known}). Update S2T Desktop, or move that file away to start with an empty cache.`);
    this.name = 'CacheTooNewError';
  }
}

export interface Recovery {
  /** Where the damaged file was moved; null when it could not be moved (see `openedAt`). */
  movedTo: string | null;
  /** The file the rebuilt cache lives in (`<file>.rebuilt` when the damaged file could not be moved; ':memory:' as a last resort). */
  openedAt: string;
  reason: string;
  keptOutbox: number;
}

/** File operations recovery uses; tests pass failing ones. */
export interface OpenDeps {
  rename: (from: string, to: string) => void;
}
const realFs: OpenDeps = { rename: renameSync };

/** Page size of a new cache file: mostly document bodies of hundreds of kilobytes and their search index, which 16 KB pages write with a quarter of the page overhead. */
const PAGE_SIZE = 16_384;

/** node/sqlite's pragmas, with the cache's page size for a new file. */
export function configure(db: Db): void {
  configureDb(db, { pageSize: PAGE_SIZE });
}

/** node/sqlite's migration runner over the cache's migrations; a newer cache is a CacheTooNewError. */
export function migrate(db: Db, file: string, migrations: CacheMigration[] = cacheMigrations, upTo?: number): void {
  migrateDb(db, migrations, { file, upTo, tooNew: (found, known) => new CacheTooNewError(file, found, known) });
}

const hasTable = (db: Db, name: string) => !!db.prepare("SELECT 1 FROM sqlite_schema WHERE name = ?").get(name);

/** FTS5's own check, including that the index matches its content table (rank 1). */
function ftsCheck(db: Db): void {
  db.prepare("INSERT INTO text_fts(text_fts, rank) VALUES ('integrity-check', 1)").run();
}

/** Throws when the file is damaged. A search index that disagrees with its (sound) rows is rebuilt from them. */
function checkIntegrity(db: Db): void {
  const check = db.pragma('integrity_check', { simple: true });
  if (check !== 'ok') throw new Error(`integrity check failed: ${String(check)}`);
  if (!hasTable(db, 'text_fts')) return;
  try {
    ftsCheck(db);
  } catch {
    db.prepare("INSERT INTO text_fts(text_fts) VALUES ('rebuild')").run();
    try {
      ftsCheck(db);
    } catch (err) {
      throw new Error(`search index integrity check failed after a rebuild: ${(err as Error).message}`);
    }
  }
}

function openChecked(file: string): Db {
  const db = new Database(file);
  try {
    configure(db);
    checkIntegrity(db);
    migrate(db, file);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

interface Salvage {
  accounts: Record<string, unknown>[];
  sessions: Record<string, unknown>[];
  documents: Record<string, unknown>[];
  outbox: Record<string, unknown>[];
  aliases: Record<string, unknown>[];
  shareLinks: Record<string, unknown>[];
}

/** Reads what can still be read of the unsent work; each table on its own, so one bad page loses only that. */
function salvage(file: string): Salvage {
  const out: Salvage = { accounts: [], sessions: [], documents: [], outbox: [], aliases: [], shareLinks: [] };
  let db: Db | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const read = (sql: string, ...args: unknown[]) => {
      try {
        return db!.prepare(sql).all(...args) as Record<string, unknown>[];
      } catch {
        return [];
      }
    };
    out.outbox = read('SELECT * FROM outbox ORDER BY seq');
    out.aliases = read('SELECT * FROM id_aliases');
    out.shareLinks = read('SELECT * FROM share_links');
    out.accounts = read('SELECT * FROM accounts');
    const docIds = [...new Set(out.outbox.map((o) => String(o.document_id)))];
    const sessionIds = [...new Set(out.outbox.map((o) => String(o.session_id)))];
    for (const id of docIds) out.documents.push(...read('SELECT * FROM documents WHERE id = ?', id));
    for (const id of sessionIds) out.sessions.push(...read('SELECT * FROM sessions WHERE session_id = ?', id));
  } catch {
    /* unreadable: nothing to carry over */
  } finally {
    db?.close();
  }
  return out;
}

function insertRows(db: Db, table: string, rows: Record<string, unknown>[]): void {
  for (const row of rows) {
    const cols = Object.keys(row);
    try {
      db.prepare(`INSERT OR IGNORE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...cols.map((c) => row[c] as never));
    } catch {
      /* a row that no longer fits is skipped; the outbox rows are what matter */
    }
  }
}

function placeholderSession(sessionId: string, accountId: unknown): Record<string, unknown> {
  const data = { session_id: sessionId, duration: 0, error: null, filename: '', media_type: '', media_url: '', language: '' };
  return { session_id: sessionId, account_id: accountId, filename: '', language: '', data: JSON.stringify(data), last_modified: null };
}

/**
 * Documents whose rows were unreadable but whose unsent content is in the outbox: rebuilt from the
 * last saved content, with no base (the push then merges two-way, so a difference becomes a
 * conflict copy rather than a loss).
 */
function rebuiltDocuments(kept: Salvage): Record<string, unknown>[] {
  const have = new Set(kept.documents.map((d) => String(d.id)));
  const latest = new Map<string, Record<string, unknown>>();
  for (const o of kept.outbox) {
    if (have.has(String(o.document_id))) continue;
    let op: { op?: string; content?: { kind?: string }; newFilename?: string };
    try {
      op = JSON.parse(String(o.payload));
    } catch {
      continue;
    }
    if (op.op !== 'save' || !op.content) continue;
    const kind = op.content.kind === 'caption' ? 'caption' : 'transcript';
    latest.set(String(o.document_id), {
      id: o.document_id, session_id: o.session_id, filename: String(o.document_id), type: kind === 'caption' ? 'caption' : 'document', language: '',
      last_modified: '', timecode_offset: '00:00:00:00', meta: '{}', body: JSON.stringify({ document_type: kind, metadata: {}, content: op.content }),
      local_state: 'pending', local_only: String(o.document_id).startsWith('local-') ? 1 : 0,
    });
  }
  return [...latest.values()];
}

const SIDE_FILES = ['-wal', '-shm'];

/**
 * Moves a damaged database (and its WAL and shared-memory files) aside; tries a second name when
 * the first fails. Returns where it went, or null when the main file cannot be moved at all.
 */
function moveAside(file: string, deps: OpenDeps): string | null {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  for (const target of [`${file}.corrupt-${stamp}`, `${file}.corrupt-${stamp}-${randomBytes(4).toString('hex')}`]) {
    try {
      if (existsSync(file)) deps.rename(file, target);
    } catch {
      continue;
    }
    // A stale WAL left beside a new database would be replayed into it: move it, or else delete it.
    for (const suffix of SIDE_FILES) {
      if (!existsSync(file + suffix)) continue;
      try {
        deps.rename(file + suffix, target + suffix);
      } catch {
        try {
          unlinkSync(file + suffix);
        } catch {
          /* the new database is then opened elsewhere; see openCache */
        }
      }
    }
    return target;
  }
  return null;
}

/** A rebuilt cache from an earlier start: once the damaged file can be moved away, it takes the usual name again. */
function restoreLayout(file: string, rebuilt: string, deps: OpenDeps): string {
  if (existsSync(file) && moveAside(file, deps) === null) return rebuilt;
  if (SIDE_FILES.some((s) => existsSync(file + s))) return rebuilt;
  try {
    for (const suffix of SIDE_FILES) if (existsSync(rebuilt + suffix)) deps.rename(rebuilt + suffix, file + suffix);
    deps.rename(rebuilt, file);
    return file;
  } catch {
    return existsSync(rebuilt) ? rebuilt : file;
  }
}

/** Opens (creating if needed) the cache at `file`; see the module comment for what happens to a damaged one. */
export function openCache(file: string, deps: OpenDeps = realFs): { db: Db; recovery: Recovery | null } {
  const rebuilt = `${file}.rebuilt`;
  const live = existsSync(rebuilt) ? restoreLayout(file, rebuilt, deps) : file;
  try {
    return { db: openChecked(live), recovery: null };
  } catch (err) {
    if (err instanceof CacheTooNewError) throw err;
    return rebuild(live, live === file ? rebuilt : null, (err as Error).message, deps);
  }
}

const MEMORY = ':memory:';

/** A new, empty cache; in memory as the last resort, so a start never fails on the disk. */
function openFresh(path: string): { db: Db; openedAt: string } {
  try {
    const db = new Database(path);
    configure(db);
    migrate(db, path);
    return { db, openedAt: path };
  } catch (err) {
    if (path === MEMORY) throw err;
    return openFresh(MEMORY);
  }
}

/** Salvages the unsent work of a damaged cache into a new one; see the module comment. */
function rebuild(file: string, fallback: string | null, reason: string, deps: OpenDeps): { db: Db; recovery: Recovery } {
  const kept = existsSync(file) ? salvage(file) : null;
  const movedTo = moveAside(file, deps);
  const stuck = movedTo === null || SIDE_FILES.some((s) => existsSync(file + s));
  const { db, openedAt } = openFresh(!stuck ? file : (fallback ?? MEMORY));
  if (kept) {
    db.transaction(() => {
      insertRows(db, 'accounts', kept.accounts);
      const accountId = kept.accounts.find((a) => a.is_current)?.id ?? kept.accounts[0]?.id;
      if (accountId !== undefined) {
        const sessions = [...kept.sessions];
        for (const o of kept.outbox) if (!sessions.some((s) => s.session_id === o.session_id)) sessions.push(placeholderSession(String(o.session_id), accountId));
        insertRows(db, 'sessions', sessions);
        insertRows(db, 'documents', [...kept.documents, ...rebuiltDocuments(kept)]);
      }
      insertRows(db, 'id_aliases', kept.aliases);
      insertRows(db, 'outbox', kept.outbox);
      insertRows(db, 'share_links', kept.shareLinks);
    })();
  }
  const keptOutbox = db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number };
  return { db, recovery: { movedTo, openedAt, reason, keptOutbox: keptOutbox.n } };
}

/** The recovery, in words for the person using the app. */
export function describeRecovery(r: Recovery): string {
  const kept = `${r.keptOutbox} unsent edit${r.keptOutbox === 1 ? '' : 's'} kept`;
  if (r.openedAt === MEMORY) return `The local cache was damaged and could not be replaced, so this run keeps its data in memory only (${kept}). Close other copies of S2T Desktop and restart.`;
  const where = r.movedTo ? `the old file is at ${r.movedTo}` : `the damaged file could not be moved, so the cache now lives in ${r.openedAt}`;
  return `The local cache was damaged and has been rebuilt (${kept}; ${where}).`;
}
