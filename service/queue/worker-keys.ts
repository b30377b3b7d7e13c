/**
 * Worker keys: `worker add NAME` makes one (`s2tw_NAME_SECRET`), the workers table keeps only its
 * SHA-256, and every call of a worker is checked against it. A key opens the worker routes and
 * nothing else: it is not a user's token and no user route accepts it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db';
import { unauthorized } from '../http/errors';
import { WorkerName } from './protocol';

const hash = (key: string) => createHash('sha256').update(key).digest('hex');
const KEY = /^s2tw_([a-z0-9][a-z0-9-]{0,39})_([A-Za-z0-9_-]{43})$/;

/** Adds a worker, or gives an existing one a new key (the old key stops working); answers the key. */
export function addWorker(db: Db, name: string): string {
  const checked = WorkerName.safeParse(name);
  if (!checked.success) throw new Error(checked.error.issues[0].message);
  const key = `s2tw_${name}_${randomBytes(32).toString('base64url')}`;
  db.prepare(
    `INSERT INTO workers (name, key_hash, created_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET key_hash = excluded.key_hash`,
  ).run(name, hash(key), new Date().toISOString());
  return key;
}

/** The worker's name for a request's `Authorization: Worker <key>`; 401 otherwise. */
export function authenticateWorker(db: Db, req: FastifyRequest): string {
  const m = /^Worker (\S+)$/.exec(req.headers.authorization ?? '');
  const parts = m ? KEY.exec(m[1]) : null;
  if (!m || !parts) throw unauthorized('a worker key is required (Authorization: Worker <key>)');
  const row = db.prepare('SELECT key_hash FROM workers WHERE name = ?').get(parts[1]) as { key_hash: string } | undefined;
  const given = Buffer.from(hash(m[1]), 'hex');
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), given)) throw unauthorized('unknown or replaced worker key');
  return parts[1];
}
