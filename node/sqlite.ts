/**
 * The one SQLite runner of main and service: open with the house pragmas (WAL, foreign keys, a busy
 * timeout, synchronous NORMAL), apply numbered migrations each in its own transaction (recording
 * the last in PRAGMA user_version), refuse a database newer than the code, and cache prepared
 * statements per connection.
 */
import Database from 'better-sqlite3';

export type Db = Database.Database;

/** One numbered schema step. */
export interface Migration {
  version: number;
  name: string;
  up: string | ((db: Db) => void);
}

/** The file's schema is newer than any migration this code knows: opening it would guess at its shape. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
    message = `${file} has schema version ${found}, newer than this version knows (${known}); update the app`,
  ) {
    super(message);
    this.name = 'SchemaTooNewError';
  }
}

export interface ConfigureOptions {
  /** Page size for a file that has no tables yet (only then can it take one, and only before WAL). */
  pageSize?: number;
}

export function configure(db: Db, options: ConfigureOptions = {}): void {
  if (options.pageSize && !db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get()) db.pragma(`page_size = ${options.pageSize}`);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // NORMAL in WAL mode: a power cut may lose the last commits but never corrupts; a process kill loses nothing.
  db.pragma('synchronous = NORMAL');
}

export interface MigrateOptions {
  /** Named in the refusal of a newer schema. */
  file: string;
  /** Apply only up to this version (tests of a migration step). */
  upTo?: number;
  /** The error for a newer schema, when the caller has its own words for it. */
  tooNew?: (found: number, known: number) => Error;
}

/** Applies every pending migration in version order, each in one transaction; throws on a newer schema or a repeated version. */
export function migrate(db: Db, migrations: readonly Migration[], options: MigrateOptions): void {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (i > 0 && sorted[i - 1].version === m.version) throw new Error(`duplicate migration version ${m.version}`);
  });
  const latest = sorted.at(-1)?.version ?? 0;
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latest) throw options.tooNew?.(current, latest) ?? new SchemaTooNewError(options.file, current, latest);
  for (const m of sorted) {
    if (m.version <= current || (options.upTo !== undefined && m.version > options.upTo)) continue;
    db.transaction(() => {
      if (typeof m.up === 'string') db.exec(m.up);
      else m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}

export interface OpenOptions extends ConfigureOptions, Omit<MigrateOptions, 'file'> {
  /** better-sqlite3's own options (read-only, ...). */
  database?: Database.Options;
}

/** Opens `file`, configures it and migrates it; closes it again when any of that fails. */
export function openDatabase(file: string, migrations: readonly Migration[], options: OpenOptions = {}): Db {
  const db = new Database(file, options.database);
  try {
    configure(db, options);
    migrate(db, migrations, { ...options, file });
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * A prepared statement for this SQL, compiled once per connection. For hot paths whose SQL text
 * comes from a bounded set (never from values: those stay in parameters).
 */
export function stmt(db: Db, sql: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) {
    if (cache.size > 500) cache.clear();
    s = db.prepare(sql);
    cache.set(sql, s);
  }
  return s;
}
