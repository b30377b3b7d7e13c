/**
 * The cache's connection type and the few helpers every repository module shares. Each module
 * (accounts, sessions, documents, outbox, ...) is plain functions over a Db, with its statements
 * from node/sqlite's per-connection cache (`stmt`), so a hot call never prepares twice.
 */
import { stmt, type Db } from '../../node/sqlite';

export type { Db };
export { stmt };

/** A connection only read through: the functions taking it never write (a promise the type documents). */
export type ReadableDb = Db;
/** A connection written through, inside the caller's transaction unless the function opens its own. */
export type WritableDb = Db;

export const now = () => new Date().toISOString();

/** `SELECT count(*) AS n ...` as a number. */
export function count(db: ReadableDb, sql: string, ...args: unknown[]): number {
  return (stmt(db, sql).get(...args) as { n: number }).n;
}

export function notInCache(documentId: string): Error {
  return Object.assign(new Error(`document ${documentId} is not in the cache`), { code: 'NOT_FOUND' });
}
