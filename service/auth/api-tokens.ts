import { randomBytes } from 'node:crypto';
import type { ApiToken, ListQuery, TokenType } from '../../common/api';
import { stmt, type Db } from '../db';
import { listRows } from '../http/listing';
import { secretHash } from './secrets';

export interface ResolvedApiToken {
  id: number;
  userId: number;
  type: TokenType;
}

interface TokenRow {
  id: number;
  name: string;
  key: string;
  type: TokenType;
  expires_at: string;
}

const PREFIX = 's2t_';
/** How many characters of the value make up `key`: enough to tell tokens apart, far too few to guess the rest. */
const KEY_LENGTH = PREFIX.length + 8;

const toApiToken = (r: TokenRow): ApiToken => ({ id: r.id, name: r.name, key: r.key, type: r.type, expires: r.expires_at });

/** Creates a token; the full value is in this answer only, the database keeps a keyed hash. */
export function createApiToken(db: Db, secret: Uint8Array, userId: number, input: { name: string; type: TokenType; years_valid: number }): ApiToken {
  // base64url has no dots, so an API token can never be mistaken for a JWT in the Bearer header.
  const value = PREFIX + randomBytes(32).toString('base64url');
  const expires = new Date();
  expires.setUTCFullYear(expires.getUTCFullYear() + input.years_valid);
  const row: Omit<TokenRow, 'id'> = { name: input.name, key: value.slice(0, KEY_LENGTH), type: input.type, expires_at: expires.toISOString() };
  const id = Number(
    db
      .prepare('INSERT INTO api_tokens (user_id, name, key, hash, type, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(userId, row.name, row.key, secretHash(secret, 'api-token', value), row.type, row.expires_at, new Date().toISOString()).lastInsertRowid,
  );
  return { ...toApiToken({ id, ...row }), token_value: value };
}

export function listApiTokens(db: Db, userId: number, query: ListQuery) {
  const page = listRows<TokenRow>(
    db,
    {
      from: 'FROM api_tokens',
      where: ['user_id = ?'],
      args: [userId],
      searchable: ['name', 'key', 'type'],
      sortable: { created_at: 'created_at', name: 'name', expires: 'expires_at', type: 'type' },
    },
    query,
  );
  return { ...page, result: page.result.map(toApiToken) };
}

/** Deletes one of the user's own tokens; false when there is no such token of theirs. */
export function deleteApiToken(db: Db, userId: number, tokenId: string): boolean {
  if (!/^\d{1,15}$/.test(tokenId)) return false;
  return db.prepare('DELETE FROM api_tokens WHERE id = ? AND user_id = ?').run(Number(tokenId), userId).changes === 1;
}

/** Looks an API token up by its keyed hash; undefined when unknown, deleted or expired. */
export function resolveApiToken(db: Db, secret: Uint8Array, value: string): ResolvedApiToken | undefined {
  if (!value.startsWith(PREFIX) || value.length > 128) return undefined;
  const row = stmt(db, 'SELECT id, user_id, type, expires_at FROM api_tokens WHERE hash = ?').get(secretHash(secret, 'api-token', value)) as
    | { id: number; user_id: number; type: TokenType; expires_at: string }
    | undefined;
  if (!row || Date.parse(row.expires_at) <= Date.now()) return undefined;
  return { id: row.id, userId: row.user_id, type: row.type };
}
