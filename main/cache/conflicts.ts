/**
 * Changes the service will not take as they are: conflict copies of ours beside theirs (and the
 * link to their original the side-by-side view reads), entries it refuses for good (blocked), and
 * what the user does about those (send again, or discard).
 */
import { randomUUID } from 'node:crypto';
import type { DocumentBody } from '../../common/transcript/model';
import { notInCache, stmt, type ReadableDb, type WritableDb } from './db';
import { deleteDocumentRow, documentRow, mustRow, type DocumentRow } from './documents';
import { enqueue } from './outbox';
import { reindexDocument } from './search-rows';
import { dropShareLinks } from './share-links';

/**
 * A conflict copy: a new local document holding our version, queued as a copy plus a save, and
 * linked to its original with the units both sides changed (`clashed`), for the side-by-side view.
 */
export function addConflictCopy(db: WritableDb, sourceId: string, filename: string, ours: DocumentBody, clashed: readonly string[] = []): string {
  return db.transaction(() => {
    const src = mustRow(db, sourceId);
    const id = `local-${randomUUID()}`;
    const json = JSON.stringify(ours);
    stmt(db, `INSERT INTO documents (id, session_id, filename, type, language, last_modified, finished, timecode_offset, meta, body, base_body, server_version, local_state, local_only)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, 'conflict', 1)`)
      .run(id, src.session_id, filename, src.type, src.language, src.last_modified, src.finished, src.timecode_offset, src.meta, json);
    reindexDocument(db, id, json);
    enqueue(db, { id, session_id: src.session_id }, { op: 'copy', newFilename: filename, sourceId });
    enqueue(db, { id, session_id: src.session_id }, { op: 'save', content: ours.content });
    stmt(db, 'INSERT INTO conflict_copies (copy_id, original_id, clashed, created) VALUES (?, ?, ?, ?)').run(id, sourceId, JSON.stringify(clashed), new Date().toISOString());
    return id;
  }).immediate();
}

/** The service refuses the entry for good (e.g. the document is gone): keep it, visibly, and move on. */
export function block(db: WritableDb, seq: number, error: string): void {
  db.transaction(() => {
    const r = stmt(db, 'SELECT document_id FROM outbox WHERE seq = ?').get(seq) as { document_id: string } | undefined;
    stmt(db, "UPDATE outbox SET state = 'blocked', last_error = ? WHERE seq = ?").run(error, seq);
    if (r) stmt(db, "UPDATE documents SET local_state = 'conflict' WHERE id = ?").run(r.document_id);
  }).immediate();
}

/** The user asks for the blocked entries (of one document, or all) to be sent again: each starts over with no failures. Returns how many. */
export function requeueBlocked(db: WritableDb, documentId?: string): number {
  const blocked = "state = 'blocked' AND (@doc IS NULL OR document_id = @doc)";
  const doc = documentId ?? null;
  return db.transaction(() => {
    // block() marked their documents; they are waiting to be sent again now.
    stmt(db, `UPDATE documents SET local_state = 'pending' WHERE local_state = 'conflict' AND id IN (SELECT document_id FROM outbox WHERE ${blocked})`).run({ doc });
    return stmt(db, `UPDATE outbox SET state = 'queued', failures = 0, last_error = NULL WHERE ${blocked}`).run({ doc }).changes;
  }).immediate();
}

/**
 * Drops the document's unsent changes, at the user's word. A document the service has goes back
 * to the last version we had from it and is taken again, whole, on the next pull; one the service
 * no longer has, or never had, goes.
 */
export function discardUnsent(db: WritableDb, documentId: string): { documentId: string | null } {
  return db.transaction(() => {
    const d = documentRow(db, documentId);
    if (!d) throw notInCache(documentId);
    stmt(db, 'DELETE FROM outbox WHERE document_id = ?').run(d.id);
    if (d.local_only || d.deleted_on_server) {
      deleteDocumentRow(db, d.id);
      dropShareLinks(db, d.id);
      return { documentId: null };
    }
    const body = d.base_body ?? d.body;
    // No service version: the next pull takes the service's document whatever its last_modified.
    stmt(db, "UPDATE documents SET body = ?, base_body = NULL, server_version = NULL, local_state = 'synced', deleted = 0 WHERE id = ?").run(body, d.id);
    stmt(db, 'UPDATE sessions SET docs_version = NULL WHERE session_id = ?').run(d.session_id);
    reindexDocument(db, d.id, body);
    return { documentId: d.id };
  }).immediate();
}

/** A link's ids as they are now: a copy (or original) made here is known by its service id once sent. */
const LINKS = `SELECT copy_id, original_id, clashed, created,
    coalesce((SELECT server_id FROM id_aliases WHERE local_id = c.copy_id), c.copy_id) AS copy_now,
    coalesce((SELECT server_id FROM id_aliases WHERE local_id = c.original_id), c.original_id) AS original_now
  FROM conflict_copies c`;

interface LinkRow {
  copy_id: string;
  copy_now: string;
  original_now: string;
  clashed: string;
  created: string;
}

export interface ConflictLink {
  /** The id the link was made with (the copy's first, local id). */
  linkId: string;
  copy: DocumentRow;
  original: DocumentRow;
  clashed: string[];
  created: string;
}

/** The link with both documents present and not deleted; null otherwise. */
function withRows(db: ReadableDb, r: LinkRow): ConflictLink | null {
  const copy = documentRow(db, r.copy_now);
  const original = documentRow(db, r.original_now);
  if (!copy || !original || copy.deleted || original.deleted) return null;
  return { linkId: r.copy_id, copy, original, clashed: JSON.parse(r.clashed) as string[], created: r.created };
}

/** The conflict copies of a session waiting for a decision, oldest first. */
export function conflictLinks(db: ReadableDb, sessionId: string): ConflictLink[] {
  const rows = stmt(db, `SELECT l.* FROM (${LINKS}) l JOIN documents d ON d.id = l.copy_now WHERE d.session_id = ? ORDER BY l.created, l.copy_id`).all(sessionId) as LinkRow[];
  return rows.map((r) => withRows(db, r)).filter((l): l is ConflictLink => l !== null);
}

/** The pair that `documentId` belongs to, as the copy or else as the original (its oldest copy). */
export function conflictLinkOf(db: ReadableDb, documentId: string): ConflictLink | null {
  const rows = stmt(db, `SELECT * FROM (${LINKS}) l WHERE l.copy_now = @id OR l.copy_id = @id OR l.original_now = @id ORDER BY (l.copy_now = @id OR l.copy_id = @id) DESC, l.created`).all({ id: documentId }) as LinkRow[];
  for (const r of rows) {
    const l = withRows(db, r);
    if (l) return l;
  }
  return null;
}

/** The pair is decided: the link goes (the copy itself goes through the delete path). */
export function forgetConflictLink(db: WritableDb, linkId: string): void {
  stmt(db, 'DELETE FROM conflict_copies WHERE copy_id = ?').run(linkId);
}
