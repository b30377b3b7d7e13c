import Database from 'better-sqlite3';

export type Db = Database.Database;

/** One numbered schema step. Versions are global across modules (core 1-49, auth 50-99, work 100-199). */
export interface Migration {
  version: number;
  name: string;
  up: string | ((db: Db) => void);
}

/**
 * Opens the service database with WAL and foreign keys and applies every pending migration, each
 * in its own transaction, recording the version in PRAGMA user_version. Refuses a database whose
 * version is newer than the code knows, rather than guessing at its shape.
 */
export function openDb(file: string, migrations: Migration[]): Db {
  // Under `npm start` Electron runs us with a better-sqlite3 built for its own ABI (scripts/electron-native.mjs).
  const db = new Database(file, { nativeBinding: process.env.S2T_SQLITE_BINDING || undefined });
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  const seen = new Set<number>();
  for (const m of sorted) {
    if (seen.has(m.version)) throw new Error(`duplicate migration version ${m.version}`);
    seen.add(m.version);
  }
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = sorted.at(-1)?.version ?? 0;
  if (current > latest) {
    db.close();
    throw new Error(`database ${file} has schema version ${current}, newer than this service knows (${latest}); upgrade the app`);
  }
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      if (typeof m.up === 'string') db.exec(m.up);
      else m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return db;
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
