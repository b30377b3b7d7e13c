/**
 * Opening the cache: WAL, foreign keys, numbered migrations, a refusal to open a database newer
 * than the app, and an integrity check. A corrupt cache is moved aside and rebuilt empty (the
 * next pull refills it from the service) with its unsent outbox, and the documents that outbox
 * edits, carried over. Recovery happens in-process and never throws, so the app cannot
 * crash-loop on a bad file.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync } from 'node:fs';
import { cacheMigrations, type CacheMigration } from './migrations';

export type Db = Database.Database;

export class CacheTooNewError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(`The local cache ${file} was written by a newer version of S2T Desktop (schema ${found}; this version knows up to ${known}). Update S2T Desktop, or move that file away to start with an empty cache.`);
    this.name = 'CacheTooNewError';
  }
}

export interface Recovery {
  /** Where the damaged file was moved. */
  movedTo: string;
  reason: string;
  keptOutbox: number;
}

function configure(db: Db): void {
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // NORMAL in WAL mode: a power cut may lose the last commits but never corrupts; a process kill loses nothing.
  db.pragma('synchronous = NORMAL');
}

export function migrate(db: Db, file: string, migrations: CacheMigration[] = cacheMigrations, upTo?: number): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latest) throw new CacheTooNewError(file, current, latest);
  for (const m of migrations) {
    if (m.version <= current || (upTo !== undefined && m.version > upTo)) continue;
    db.transaction(() => {
      if (typeof m.up === 'string') db.exec(m.up);
      else m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}

function openChecked(file: string): Db {
  const db = new Database(file);
  try {
    configure(db);
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`integrity check failed: ${String(check)}`);
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
}

/** Reads what can still be read of the unsent work; each table on its own, so one bad page loses only that. */
function salvage(file: string): Salvage {
  const out: Salvage = { accounts: [], sessions: [], documents: [], outbox: [], aliases: [] };
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

/** Opens (creating if needed) the cache at `file`; see the module comment for what happens to a damaged one. */
export function openCache(file: string): { db: Db; recovery: Recovery | null } {
  try {
    return { db: openChecked(file), recovery: null };
  } catch (err) {
    if (err instanceof CacheTooNewError) throw err;
    const reason = (err as Error).message;
    const kept = existsSync(file) ? salvage(file) : null;
    const movedTo = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(file + suffix)) renameSync(file + suffix, movedTo + suffix);
    }
    const db = new Database(file);
    configure(db);
    migrate(db, file);
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
      })();
    }
    const keptOutbox = db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number };
    return { db, recovery: { movedTo, reason, keptOutbox: keptOutbox.n } };
  }
}
