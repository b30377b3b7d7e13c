/**
 * Magic links the service made for this app's share requests, one per document and set of
 * rights. Kept so the user can see and copy the link offline, and so asking again for the same
 * rights reuses the link instead of making the service mint another one. The service's list of a
 * document's links (mailed ones too) is the truth when it can be reached: reconcileShareLinks
 * matches ours to it and forgets the ones it no longer has.
 */
import type { ShareLink, ShareLinkInfo } from '../../common/api';
import type { ShareLinkRecord } from '../../common/ipc';
import { count, stmt, type ReadableDb, type WritableDb } from './db';
import { resolveId } from './outbox';

export interface StoredShareLink {
  documentId: string;
  linkId: string | null;
  url: string;
  allowEditing: boolean;
  allowExport: boolean;
  created: string;
  expires: string;
}

interface Row {
  document_id: string;
  link_id: string | null;
  allow_editing: number;
  allow_export: number;
  url: string;
  created: string;
  expires: string;
}

const fromRow = (r: Row): StoredShareLink => ({
  documentId: r.document_id, linkId: r.link_id, url: r.url, allowEditing: r.allow_editing === 1, allowExport: r.allow_export === 1, created: r.created, expires: r.expires,
});

/** A link of ours as the Share dialog lists it (offline, or before the service's list answers). */
export const recordOf = (l: StoredShareLink): ShareLinkRecord => ({
  documentId: l.documentId, id: l.linkId, via: 'link', mailedTo: null, url: l.url, allowEditing: l.allowEditing, allowExport: l.allowExport, created: l.created, expires: l.expires,
});

export function saveShareLink(db: WritableDb, documentId: string, link: ShareLink): void {
  stmt(
    db,
    `INSERT INTO share_links (document_id, link_id, allow_editing, allow_export, url, token, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(document_id, allow_editing, allow_export) DO UPDATE SET link_id = excluded.link_id, url = excluded.url, token = excluded.token, created = excluded.created, expires = excluded.expires`,
  ).run(documentId, link.id ?? null, link.allow_editing ? 1 : 0, link.allow_export ? 1 : 0, link.url, link.token, link.created, link.expires);
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

/**
 * The service's live links of a document, with the address of each one we hold. Ours made before
 * links had ids get theirs (same creation time and rights); ours the service no longer lists
 * (revoked elsewhere, expired) are forgotten, so asking for those rights again mints a new link.
 */
export function reconcileShareLinks(db: WritableDb, documentId: string, listed: readonly ShareLinkInfo[], askedAt: string): ShareLinkRecord[] {
  const id = resolveId(db, documentId);
  return db.transaction(() => {
    for (const l of listed) {
      stmt(db, 'UPDATE share_links SET link_id = ? WHERE document_id = ? AND link_id IS NULL AND created = ? AND allow_editing = ? AND allow_export = ?')
        .run(l.id, id, l.created, l.allow_editing ? 1 : 0, l.allow_export ? 1 : 0);
    }
    const mine = shareLinksOf(db, id);
    const ours = new Map(mine.map((l) => [l.linkId ?? l.url, l]));
    // A link saved while the list was on its way is newer than the list: kept.
    for (const l of mine) {
      if (l.created < askedAt && !listed.some((x) => x.id === l.linkId)) stmt(db, 'DELETE FROM share_links WHERE document_id = ? AND url = ?').run(id, l.url);
    }
    return listed.map((l) => ({
      documentId: id, id: l.id, via: l.via, mailedTo: l.mailed_to, url: ours.get(l.id)?.url ?? null, allowEditing: l.allow_editing, allowExport: l.allow_export, created: l.created, expires: l.expires,
    }));
  }).immediate();
}

/** A link the service revoked (by its id): forgotten here, so asking again for its rights mints a new one. */
export function dropShareLink(db: WritableDb, documentId: string, linkId: string): void {
  stmt(db, 'DELETE FROM share_links WHERE document_id = ? AND link_id = ?').run(resolveId(db, documentId), linkId);
}
