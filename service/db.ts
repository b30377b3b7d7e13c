import { openDatabase, type Db, type Migration } from '../node/sqlite';

export { stmt, type Db } from '../node/sqlite';
/** One numbered schema step. Versions are global across modules (core 1-49, auth 50-99, work 100-199). */
export type { Migration };

/**
 * Opens the service database with node/sqlite's runner: WAL and foreign keys, every pending
 * migration in its own transaction, and a refusal of a database newer than the code knows.
 */
export function openDb(file: string, migrations: Migration[]): Db {
  return openDatabase(file, migrations, {
    tooNew: (found, known) => new Error(`database ${file} has schema version ${found}, newer than this service knows (${known}); upgrade the app`),
  });
}
