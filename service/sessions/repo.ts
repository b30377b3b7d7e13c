/** Reading sessions with their organization scope: a session of another organization is a 404. */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db';
import { notFound } from '../http/errors';
import type { SessionRow } from './present';

export function newSessionId(): string {
  return randomBytes(12).toString('base64url');
}

export function findSession(db: Db, sessionId: string): SessionRow | undefined {
  return db.prepare('SELECT * FROM sessions WHERE session_id = ?').get(sessionId) as SessionRow | undefined;
}

export function sessionByPk(db: Db, pk: number): SessionRow {
  return db.prepare('SELECT * FROM sessions WHERE id = ?').get(pk) as SessionRow;
}

/** The session if it belongs to the caller's organization, else 404 (never 403: no existence leak). */
export function requireSession(db: Db, sessionId: string, orgId: number): SessionRow {
  const row = findSession(db, sessionId);
  if (!row || row.org_id !== orgId) throw notFound('session');
  return row;
}

export function touchSession(db: Db, pk: number, cols: Record<string, unknown>): void {
  const all = { ...cols, last_modified: new Date().toISOString() };
  const names = Object.keys(all);
  db.prepare(`UPDATE sessions SET ${names.map((n) => `${n} = ?`).join(', ')} WHERE id = ?`).run(...names.map((n) => all[n as keyof typeof all]), pk);
}
