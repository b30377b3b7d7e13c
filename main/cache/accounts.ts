/** The signed-in account (one current at a time) and its sync cursors. */
import type { CurrentUser } from '../../common/api';
import { now, stmt, type ReadableDb, type WritableDb } from './db';

interface AccountRow {
  id: number;
  email: string;
  user_json: string;
}

export function setCurrentAccount(db: WritableDb, serviceUrl: string, user: CurrentUser): number {
  db.transaction(() => {
    stmt(db, 'UPDATE accounts SET is_current = 0').run();
    stmt(db, `INSERT INTO accounts (id, service_url, email, user_json, is_current, updated_at) VALUES (?, ?, ?, ?, 1, ?)
      ON CONFLICT(id) DO UPDATE SET service_url = excluded.service_url, email = excluded.email, user_json = excluded.user_json, is_current = 1, updated_at = excluded.updated_at`)
      .run(user.id, serviceUrl, user.email, JSON.stringify(user), now());
  }).immediate();
  return user.id;
}

export function currentAccount(db: ReadableDb): { id: number; email: string; user: CurrentUser } | null {
  const row = stmt(db, 'SELECT id, email, user_json FROM accounts WHERE is_current = 1').get() as AccountRow | undefined;
  return row ? { id: row.id, email: row.email, user: JSON.parse(row.user_json) as CurrentUser } : null;
}

/** Signing out keeps the cached data (and any unsent edits) for the next sign-in of the same account. */
export function clearCurrentAccount(db: WritableDb): void {
  stmt(db, 'UPDATE accounts SET is_current = 0').run();
}

export function getCursor(db: ReadableDb, accountId: number, name: string): string | null {
  const row = stmt(db, 'SELECT value FROM sync_cursor WHERE account_id = ? AND name = ?').get(accountId, name) as { value: string } | undefined;
  return row?.value ?? null;
}

export function setCursor(db: WritableDb, accountId: number, name: string, value: string): void {
  stmt(db, 'INSERT INTO sync_cursor (account_id, name, value) VALUES (?, ?, ?) ON CONFLICT(account_id, name) DO UPDATE SET value = excluded.value').run(accountId, name, value);
}
