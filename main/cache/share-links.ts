/**
 * Magic links the service made for this app's share requests, one per document and set of
 * rights. Kept so the user can see and copy the link offline, and so asking again for the same
 * rights reuses the link instead of making the service mint another one.
 */
import type { ShareLink } from '../../common/api';
import { count, stmt, type ReadableDb, type WritableDb } from './db';
import { resolveId } from './outbox';

export interface StoredShareLink {
  documentId: string;
  url: string;
  allowEditing: boolean;
  allowExport: boolean;
  created: string;
  expires: string;
}

interface Row {
  document_id: string;
  allow_editing: number;
  allow_export: number;
  url: string;
  created: string;
  expires: string;
}

const fromRow = (r: Row): StoredShareLink => ({
  documentId: r.document_id, url: r.url, allowEditing: r.allow_editing === 1, allowExport: r.allow_export === 1, created: r.created, expires: r.expires,
});

export function saveShareLink(db: WritableDb, documentId: string, link: ShareLink): void {
  stmt(
    db,
    `INSERT INTO share_links (document_id, allow_editing, allow_export, url, token, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(document_id, allow_editing, allow_export) DO UPDATE SET url = excluded.url, token = excluded.token, created = excluded.created, expires = excluded.expires`,
  ).run(documentId, link.allow_editing ? 1 : 0, link.allow_export ? 1 : 0, link.url, link.token, link.created, link.expires);
}

/** The document's links that have not expired, newest first. */
export function shareLinksOf(db: ReadableDb, documentId: string, at = new Date()): StoredShareLink[] {
  const rows = stmt(db, 'SELECT * FROM share_links WHERE document_id = ? AND expires > ? ORDER BY created DESC').all(documentId, at.toISOString()) as Row[];
  return rows.map(fromRow);
}

/** A live link with exactly these rights, if we already have one. */
export function liveShareLink(db: ReadableDb, documentId: string, rights: { allowEditing: boolean; allowExport: boolean }, at = new Date()): StoredShareLink | null {
  return shareLinksOf(db, documentId, at).find((l) => l.allowEditing === rights.allowEditing && l.allowExport === rights.allowExport) ?? null;
}

export function dropShareLinks(db: WritableDb, documentId: string): void {
  stmt(db, 'DELETE FROM share_links WHERE document_id = ?').run(documentId);
}

/** The document's live magic links, and whether a share request for it is still waiting to be sent. */
export function shareLinks(db: ReadableDb, documentId: string): { links: StoredShareLink[]; pending: boolean } {
  const id = resolveId(db, documentId);
  const pending = count(db, "SELECT count(*) AS n FROM outbox WHERE document_id IN (?, ?) AND op = 'share'", documentId, id) > 0;
  return { links: shareLinksOf(db, id), pending };
}

/** A live link with these rights, or a queued request for one: asking again must not mint a second link. */
export function shareAlreadyAsked(db: ReadableDb, documentId: string, m: { allowEditing: boolean; allowExport: boolean }): boolean {
  if (liveShareLink(db, resolveId(db, documentId), m)) return true;
  const queued = stmt(db, "SELECT payload FROM outbox WHERE document_id = ? AND op = 'share'").all(documentId) as { payload: string }[];
  return queued.some((q) => {
    const op = JSON.parse(q.payload) as { allowEditing: boolean; allowExport: boolean };
    return op.allowEditing === m.allowEditing && op.allowExport === m.allowExport;
  });
}

/** The token of one of the document's links (to revoke it), if we hold that link. */
export function shareLinkToken(db: ReadableDb, documentId: string, url: string): string | null {
  return (stmt(db, 'SELECT token FROM share_links WHERE document_id = ? AND url = ?').get(resolveId(db, documentId), url) as { token: string } | undefined)?.token ?? null;
}

/** A link the service revoked: forgotten here, so asking again for its rights mints a new one. */
export function dropShareLink(db: WritableDb, documentId: string, url: string): void {
  stmt(db, 'DELETE FROM share_links WHERE document_id = ? AND url = ?').run(resolveId(db, documentId), url);
}
