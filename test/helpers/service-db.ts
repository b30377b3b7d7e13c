/** Read-only looks into the local service's own SQLite file (DATA/service.db), the ground truth a test checks an answer against. */
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** Reads the service's database (read-only; safe while the service runs: WAL). */
export function readServiceDb<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'service.db'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** How many rows a table of the service's database holds. */
export function countServiceRows(dataDir: string, table: 'uploads' | 'jobs' | 'sessions'): number {
  return readServiceDb(dataDir, (db) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number);
}
