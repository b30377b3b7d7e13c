/**
 * Changes the service will not take as they are: conflict copies of ours beside theirs, entries it
 * refuses for good (blocked), and what the user does about those (send again, or discard).
 */
import { randomUUID } from 'node:crypto';
import type { DocumentBody } from '../../common/transcript/model';
import { notInCache, stmt, type WritableDb } from './db';
import { deleteDocumentRow, documentRow, mustRow } from './documents';
import { enqueue } from './outbox';
import { reindexDocument } from './search-rows';
import { dropShareLinks } from './share-links';

/** A conflict copy: a new local document holding our version, queued as a copy plus a save. */
export function addConflictCopy(db: WritableDb, sourceId: string, filename: string, ours: DocumentBody): string {
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
