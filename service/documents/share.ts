/** Magic links: random tokens, stored only as SHA-256 hashes, with an expiry and the rights they grant. */
import { createHash, randomBytes } from 'node:crypto';
import type { ShareLink } from '../../common/api';
import type { ServiceContext } from '../context';
import type { Db } from '../db';
import { forbidden, unauthorized } from '../http/errors';
import type { ScopedDocument } from './store';

export const SHARE_TTL_DAYS = 30;

interface ShareRow {
  token_hash: string;
  session_pk: number;
  document_id: string;
  allow_editing: number;
  allow_export: number;
  created: string;
  expires: string;
  revoked_at: string | null;
  session_id: string;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export function createShare(ctx: ServiceContext, doc: ScopedDocument, rights: { allow_editing: boolean; allow_export: boolean }): ShareLink {
  const token = randomBytes(24).toString('base64url');
  const created = new Date();
  const expires = new Date(created.getTime() + SHARE_TTL_DAYS * 86400_000);
  ctx.db
    .prepare('INSERT INTO share_links (token_hash, session_pk, document_id, allow_editing, allow_export, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(hash(token), doc.session_pk, doc.id, rights.allow_editing ? 1 : 0, rights.allow_export ? 1 : 0, created.toISOString(), expires.toISOString());
  if (rights.allow_export) ctx.db.prepare('UPDATE sessions SET allow_magic_link_export = 1 WHERE id = ?').run(doc.session_pk);
  const page = doc.type === 'caption' ? 'captions' : 'transcripts';
  return {
    token,
    url: `${ctx.baseUrl()}/${page}/shared/${encodeURIComponent(doc.session_id)}/${encodeURIComponent(doc.id)}?token=${token}`,
    session_id: doc.session_id,
    document_id: doc.id,
    allow_editing: rights.allow_editing,
    allow_export: rights.allow_export,
    created: created.toISOString(),
    expires: expires.toISOString(),
  };
}

/** The live share for this token and session (and document, when given); 401 otherwise. */
export function resolveShare(db: Db, token: string, sessionId: string, documentId?: string): ShareRow {
  const row = db
    .prepare('SELECT l.*, s.session_id FROM share_links l JOIN sessions s ON s.id = l.session_pk WHERE l.token_hash = ?')
    .get(hash(token)) as ShareRow | undefined;
  if (!row || row.revoked_at || Date.parse(row.expires) < Date.now() || row.session_id !== sessionId || (documentId !== undefined && row.document_id !== documentId)) {
    throw unauthorized('magic link invalid, expired or revoked');
  }
  return row;
}

export function requireRight(row: ShareRow, right: 'allow_editing' | 'allow_export'): void {
  if (row[right] !== 1) throw forbidden(right === 'allow_editing' ? 'this magic link does not allow editing' : 'this magic link does not allow export');
}
