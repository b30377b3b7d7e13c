/**
 * Magic links: random tokens, stored only as SHA-256 hashes, with an id (to list and revoke a
 * link without its token), how it was made (asked for, or mailed and to whom), an expiry, the
 * rights it grants and a revocation time. A token presented by a client is checked here; wrong
 * ones are charged to the client's address (http/guess-guard.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { buildPath, MAX_LIVE_SHARE_LINKS, routes, type ShareLink, type ShareLinkInfo, type ShareRevoked, type SharesRevoked } from '../../common/api';
import type { ServiceContext } from '../context';
import type { Db } from '../db';
import { documentError, forbidden, notFound, unauthorized } from '../http/errors';
import { assertMayGuess, recordFailedGuess } from '../http/guess-guard';
import { signParams } from '../net/signed-url';
import { SIGNED_URL_TTL } from '../sessions/present';
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
  id: string;
  token_hash: string;
  session_pk: number;
  document_id: string;
  allow_editing: number;
  allow_export: number;
  via: 'link' | 'email';
  mailed_to: string | null;
  created: string;
  expires: string;
  revoked_at: string | null;
  session_id: string;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

const live = (row: Pick<ShareRow, 'revoked_at' | 'expires'>, now = Date.now()) => !row.revoked_at && Date.parse(row.expires) >= now;

/** `mailedTo`: the link goes out by e-mail to that address (shown to the owner in the list). */
export function createShare(ctx: ServiceContext, doc: ScopedDocument, rights: { allow_editing: boolean; allow_export: boolean }, mailedTo?: string): ShareLink {
  const token = randomBytes(24).toString('base64url');
  const id = `shl_${randomBytes(12).toString('hex')}`;
  const created = new Date();
  const expires = new Date(created.getTime() + SHARE_TTL_DAYS * 86400_000);
  ctx.db.transaction(() => {
    const n = (ctx.db.prepare('SELECT count(*) AS n FROM share_links WHERE document_id = ? AND revoked_at IS NULL AND expires > ?').get(doc.id, created.toISOString()) as { n: number }).n;
    if (n >= MAX_LIVE_SHARE_LINKS) throw documentError(409, 'conflict', `this document already has ${n} live links, the most it may have; revoke some first`);
    ctx.db
      .prepare('INSERT INTO share_links (id, token_hash, session_pk, document_id, allow_editing, allow_export, via, mailed_to, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, hash(token), doc.session_pk, doc.id, rights.allow_editing ? 1 : 0, rights.allow_export ? 1 : 0, mailedTo ? 'email' : 'link', mailedTo ?? null, created.toISOString(), expires.toISOString());
    if (rights.allow_export) ctx.db.prepare('UPDATE sessions SET allow_magic_link_export = 1 WHERE id = ?').run(doc.session_pk);
  }).immediate();
  const { origin, localOnly } = shareOrigin(ctx);
  return {
    id,
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

/** The document's live links, newest first, without their tokens. */
export function listShares(db: Db, doc: ScopedDocument): ShareLinkInfo[] {
  const rows = db
    .prepare('SELECT * FROM share_links WHERE document_id = ? AND revoked_at IS NULL AND expires > ? ORDER BY created DESC, rowid DESC LIMIT ?')
    .all(doc.id, new Date().toISOString(), MAX_LIVE_SHARE_LINKS) as ShareRow[];
  return rows.map((r) => ({ id: r.id, via: r.via, mailed_to: r.mailed_to, allow_editing: r.allow_editing === 1, allow_export: r.allow_export === 1, created: r.created, expires: r.expires }));
}

/**
 * The live share for this token and session (and document, when given); 401 otherwise, and the
 * wrong token is charged to `from` (the caller's address): past the guard's limit, 429.
 */
export function resolveShare(db: Db, from: string, token: string, sessionId: string, documentId?: string): ShareRow {
  assertMayGuess(from);
  const row = db
    .prepare('SELECT l.*, s.session_id FROM share_links l JOIN sessions s ON s.id = l.session_pk WHERE l.token_hash = ?')
    .get(hash(token)) as ShareRow | undefined;
  if (!row || !live(row) || row.session_id !== sessionId || (documentId !== undefined && row.document_id !== documentId)) {
    recordFailedGuess(from);
    throw unauthorized('magic link invalid, expired or revoked');
  }
  return row;
}

/** Whether the share a viewer's media link was made for is still live and for this session (checked on every media request). */
export function shareStillLive(db: Db, shareId: string, sessionId: string): boolean {
  const row = db.prepare('SELECT l.revoked_at, l.expires, s.session_id FROM share_links l JOIN sessions s ON s.id = l.session_pk WHERE l.id = ?').get(shareId) as
    | Pick<ShareRow, 'revoked_at' | 'expires' | 'session_id'>
    | undefined;
  return !!row && live(row) && row.session_id === sessionId;
}

/** What a viewer's media link signs: the session and the share it was made for. */
export const shareMediaSubject = (sessionId: string, shareId: string) => `${sessionId}\nshare:${shareId}`;

/**
 * The viewer's link to the session's media, bound to its share: sessions.media checks on every
 * request that the share is still live, so revoking a link stops its recording too.
 */
export function shareMediaPath(ctx: ServiceContext, sessionId: string, shareId: string): string {
  const { exp, sig } = signParams(ctx.secret, 'media', shareMediaSubject(sessionId, shareId), SIGNED_URL_TTL);
  return `${buildPath(routes['sessions.media'].path, { sessionId })}?exp=${exp}&sig=${sig}&share=${encodeURIComponent(shareId)}`;
}

export function requireRight(row: ShareRow, right: 'allow_editing' | 'allow_export'): void {
  if (row[right] !== 1) throw forbidden(right === 'allow_editing' ? 'this magic link does not allow editing' : 'this magic link does not allow export');
}

/** The session advertises magic-link export only while a live link still grants it. */
function refreshExportFlag(db: Db, sessionPk: number, now: string): void {
  db.prepare(
    'UPDATE sessions SET allow_magic_link_export = EXISTS (SELECT 1 FROM share_links WHERE session_pk = ? AND allow_export = 1 AND revoked_at IS NULL AND expires > ?) WHERE id = ?',
  ).run(sessionPk, now, sessionPk);
}

/**
 * Revokes one magic link of this document, named by its id or its token. Revoking it again
 * answers the first revocation time, so a client may retry after a lost answer; anything that is
 * not this document's link is 404.
 */
export function revokeShare(db: Db, doc: ScopedDocument, idOrToken: string): ShareRevoked {
  const now = new Date().toISOString();
  return db.transaction(() => {
    const match = 'document_id = ? AND (id = ? OR token_hash = ?)';
    db.prepare(`UPDATE share_links SET revoked_at = ? WHERE ${match} AND revoked_at IS NULL`).run(now, doc.id, idOrToken, hash(idOrToken));
    const row = db.prepare(`SELECT revoked_at FROM share_links WHERE ${match}`).get(doc.id, idOrToken, hash(idOrToken)) as { revoked_at: string | null } | undefined;
    if (!row?.revoked_at) throw notFound('magic link');
    refreshExportFlag(db, doc.session_pk, now);
    return { revoked: true as const, document_id: doc.id, revoked_at: row.revoked_at };
  }).immediate();
}

/** Revokes every live link of this document (asked for and mailed alike). */
export function revokeAllShares(db: Db, doc: ScopedDocument): SharesRevoked {
  const now = new Date().toISOString();
  return db.transaction(() => {
    const { changes } = db.prepare('UPDATE share_links SET revoked_at = ? WHERE document_id = ? AND revoked_at IS NULL').run(now, doc.id);
    refreshExportFlag(db, doc.session_pk, now);
    return { revoked: changes, document_id: doc.id, revoked_at: now };
  }).immediate();
}
