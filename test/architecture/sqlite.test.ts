/** node/sqlite, the one SQLite runner, on real files; and the databases of main and service that open through it. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../main/watch/schema';
import { WatchStore } from '../../main/watch/store';
import { SchemaTooNewError, migrate, openDatabase, stmt, type Migration } from '../../node/sqlite';
import { openDb } from '../../service/db';
import { cleanup, tempDir } from '../helpers/service';

const dirs: string[] = [];
afterAll(() => dirs.forEach(cleanup));
const dbFile = (name = 'test.db') => {
  const d = tempDir('s2t-sqlite-');
  dirs.push(d);
  return join(d, name);
};
const userVersion = (file: string) => {
  const db = new Database(file);
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};
const withVersion = (file: string, version: number) => {
  const db = new Database(file);
  db.pragma(`user_version = ${version}`);
  db.close();
};

const steps: Migration[] = [
  { version: 2, name: 'b', up: 'ALTER TABLE t ADD COLUMN b TEXT' },
  { version: 1, name: 't', up: 'CREATE TABLE t (a INTEGER)' },
];

describe('node/sqlite', () => {
  it('opens in WAL with foreign keys and applies the migrations in version order', () => {
    const file = dbFile();
    const db = openDatabase(file, steps);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('user_version', { simple: true })).toBe(2);
      expect((db.prepare('SELECT name FROM pragma_table_info(?)').all('t') as { name: string }[]).map((c) => c.name)).toEqual(['a', 'b']);
    } finally {
      db.close();
    }
  });

  it('runs each migration in its own transaction: a failing step leaves the steps before it, and nothing of itself', () => {
    const file = dbFile();
    const failing: Migration = { version: 3, name: 'half', up: 'CREATE TABLE u (x); SELECT no_such_function();' };
    expect(() => openDatabase(file, [...steps, failing])).toThrow(/no_such_function/);
    expect(userVersion(file)).toBe(2);
    const db = new Database(file);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'u'").get()).toBeUndefined();
    db.close();
  });

  it('refuses a database newer than its migrations, naming the file and both versions, and leaves it as it was', () => {
    const file = dbFile();
    withVersion(file, 7);
    const err = (() => {
      try {
        openDatabase(file, steps);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SchemaTooNewError);
    expect(err).toMatchObject({ file, found: 7, known: 2 });
    expect((err as Error).message).toContain(file);
    expect(userVersion(file)).toBe(7);
  });

  it('refuses two migrations with one version', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, [...steps, { version: 2, name: 'again', up: 'SELECT 1' }], { file: ':memory:' })).toThrow(/duplicate migration version 2/);
    db.close();
  });

  it('prepares a statement once per connection', () => {
    const a = new Database(':memory:');
    const b = new Database(':memory:');
    expect(stmt(a, 'SELECT 1')).toBe(stmt(a, 'SELECT 1'));
    expect(stmt(a, 'SELECT 1')).not.toBe(stmt(b, 'SELECT 1'));
    a.close();
    b.close();
  });
});

describe('databases that open through it', () => {
  it('watch.db from a newer app is refused in plain words, not opened', () => {
    const file = dbFile('watch.db');
    new WatchStore(file).close();
    expect(userVersion(file)).toBe(MIGRATIONS.length);
    withVersion(file, MIGRATIONS.length + 1);
    expect(() => new WatchStore(file)).toThrow(/watch-folder database .* newer version of S2T Desktop/);
    expect(userVersion(file)).toBe(MIGRATIONS.length + 1);
  });

  it('the service database from a newer service is refused', () => {
    const file = dbFile('service.db');
    withVersion(file, 10_000);
    expect(() => openDb(file, steps)).toThrow(/newer than this service knows/);
  });
});
