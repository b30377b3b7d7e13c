/** Magic links: random tokens, stored only as SHA-256 hashes, with an expiry, the rights they grant and a revocation time. */
import { createHash, randomBytes } from 'node:crypto';
import type { ShareLink, ShareRevoked } from '../../common/api';
import type { ServiceContext } from '../context';
import type { Db } from '../db';
import { forbidden, notFound, unauthorized } from '../http/errors';
import type { ScopedDocument } from './store';

export const SHARE_TTL_DAYS = 30;

/** The origin a recipient opens: --public-url when set, else the listen address (which only this computer can reach). */
export function shareOrigin(ctx: ServiceContext): { origin: string; localOnly: boolean } {
  const origin = ctx.config.publicUrl ?? ctx.baseUrl();
  return { origin, localOnly: ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(origin).hostname) };
}

/** The viewer page of a shared document (service/shared-viewer), as a path: the spec's /transcripts/shared/* or /captions/shared/*. */
export function sharedPagePath(doc: Pick<ScopedDocument, 'type' | 'session_id' | 'id'>, token: string): string {
  const page = doc.type === 'caption' ? 'captions' : 'transcripts';
  return `/${page}/shared/${encodeURIComponent(doc.session_id)}/${encodeURIComponent(doc.id)}?token=${encodeURIComponent(token)}`;
}

export interface ShareRow {
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
  const { origin, localOnly } = shareOrigin(ctx);
  return {
    token,
    url: `${origin}${sharedPagePath(doc, token)}`,
    session_id: doc.session_id,
    document_id: doc.id,
    allow_editing: rights.allow_editing,
    allow_export: rights.allow_export,
    created: created.toISOString(),
    expires: expires.toISOString(),
    local_only: localOnly,
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

/**
 * Revokes one magic link of this document. Revoking it again answers the first revocation time,
 * so a client may retry after a lost answer; a token that is not this document's link is 404.
 */
export function revokeShare(db: Db, doc: ScopedDocument, token: string): ShareRevoked {
  const now = new Date().toISOString();
  return db.transaction(() => {
    db.prepare('UPDATE share_links SET revoked_at = ? WHERE token_hash = ? AND document_id = ? AND revoked_at IS NULL').run(now, hash(token), doc.id);
    const row = db.prepare('SELECT revoked_at FROM share_links WHERE token_hash = ? AND document_id = ?').get(hash(token), doc.id) as { revoked_at: string | null } | undefined;
    if (!row?.revoked_at) throw notFound('magic link');
    // The session advertises magic-link export only while a live link still grants it.
    db.prepare(
      'UPDATE sessions SET allow_magic_link_export = EXISTS (SELECT 1 FROM share_links WHERE session_pk = ? AND allow_export = 1 AND revoked_at IS NULL AND expires > ?) WHERE id = ?',
    ).run(doc.session_pk, now, doc.session_pk);
    return { revoked: true as const, document_id: doc.id, revoked_at: row.revoked_at };
  }).immediate();
}
