/**
 * What the push records once an outbox entry reached the service: the entry goes and, in the same
 * IMMEDIATE transaction, the service's answer becomes the document's new base (or its new id).
 */
import type { Document, ShareLink } from '../../common/api';
import { stmt, type WritableDb } from './db';
import { deleteDocumentRow, documentRow, metaOf } from './documents';
import { outboxCountOfDocument } from './outbox';
import { reindexDocument } from './search-rows';
import { dropShareLinks, saveShareLink } from './share-links';

const dropEntry = (db: WritableDb, seq: number) => stmt(db, 'DELETE FROM outbox WHERE seq = ?').run(seq);

/** The document's state once nothing of it waits: synced, or a conflict the user should see. */
function settle(db: WritableDb, documentId: string, conflict?: boolean): void {
  if (outboxCountOfDocument(db, documentId) === 0) stmt(db, 'UPDATE documents SET local_state = ? WHERE id = ? AND deleted = 0').run(conflict ? 'conflict' : 'synced', documentId);
}

/**
 * An entry reached the service. In the same transaction: drop it, and record the service's
 * document (when there is one) as the new base; the local body stays ours while later edits wait.
 */
export function complete(db: WritableDb, seq: number, documentId: string, server: Document | null, opts: { deleted?: boolean; conflict?: boolean } = {}): void {
  db.transaction(() => {
    dropEntry(db, seq);
    if (opts.deleted) {
      if (outboxCountOfDocument(db, documentId) === 0) deleteDocumentRow(db, documentId);
      dropShareLinks(db, documentId);
      return;
    }
    if (!server) {
      settle(db, documentId, opts.conflict);
      return;
    }
    // Take the service's version of each field, except where a later unsent entry will change it again.
    const ops = new Set((stmt(db, 'SELECT op, payload FROM outbox WHERE document_id = ?').all(documentId) as { op: string; payload: string }[]).map((r) =>
      r.op === 'save' && (JSON.parse(r.payload) as { filename?: string }).filename ? 'save+rename' : r.op,
    ));
    const keep = (...names: string[]) => names.some((n) => ops.has(n));
    const cur = documentRow(db, documentId);
    if (!cur) return;
    const body = server.document ? JSON.stringify(server.document) : null;
    const keepBody = keep('save', 'save+rename', 'clearText');
    const newBody = keepBody ? cur.body : (body ?? cur.body);
    stmt(db, `UPDATE documents SET filename = ?, last_modified = ?, finished = ?, timecode_offset = ?, meta = ?, body = ?, base_body = ?,
      server_version = ?, local_state = ?, deleted_on_server = 0 WHERE id = ?`)
      .run(
        keep('rename', 'save+rename') ? cur.filename : server.filename,
        server.last_modified,
        keep('finalize') ? cur.finished : server.finished ? 1 : 0,
        keep('setTimecodeOffset') ? cur.timecode_offset : server.timecode_offset,
        metaOf(server),
        newBody,
        ops.size && body ? body : null,
        server.last_modified,
        ops.size ? 'pending' : opts.conflict ? 'conflict' : 'synced',
        documentId,
      );
    if (newBody !== cur.body) reindexDocument(db, documentId, server.document ?? null);
  }).immediate();
}

/** A share request landed: keep its link and drop the entry, in one transaction. */
export function completeShare(db: WritableDb, seq: number, documentId: string, link: ShareLink): void {
  db.transaction(() => {
    saveShareLink(db, documentId, link);
    complete(db, seq, documentId, null);
  }).immediate();
}

/** A copy made here got its service id: every reference moves to it, in one transaction. */
export function adoptServerId(db: WritableDb, seq: number, localId: string, server: Document): void {
  db.transaction(() => {
    const d = documentRow(db, localId);
    stmt(db, 'INSERT INTO id_aliases (local_id, server_id) VALUES (?, ?) ON CONFLICT(local_id) DO UPDATE SET server_id = excluded.server_id').run(localId, server.id);
    dropEntry(db, seq);
    if (!d) return;
    stmt(db, `INSERT OR REPLACE INTO documents (id, session_id, filename, type, language, last_modified, finished, timecode_offset, meta, body, base_body, server_version, local_state, local_only, deleted, deleted_on_server)
      VALUES (@id, @session_id, @filename, @type, @language, @last_modified, @finished, @timecode_offset, @meta, @body, @base_body, @last_modified, 'synced', 0, @deleted, 0)`)
      .run({
        id: server.id, session_id: d.session_id, filename: server.filename, type: server.type, language: server.language, last_modified: server.last_modified,
        finished: server.finished ? 1 : 0, timecode_offset: server.timecode_offset, meta: metaOf(server),
        body: d.body ?? (server.document ? JSON.stringify(server.document) : null),
        base_body: server.document ? JSON.stringify(server.document) : d.body, deleted: d.deleted,
      });
    stmt(db, 'UPDATE text_segments SET document_id = ? WHERE document_id = ?').run(server.id, localId);
    stmt(db, 'UPDATE outbox SET document_id = ? WHERE document_id = ?').run(server.id, localId);
    deleteDocumentRow(db, localId);
    settle(db, server.id);
    if (outboxCountOfDocument(db, server.id) > 0) stmt(db, "UPDATE documents SET local_state = 'pending' WHERE id = ?").run(server.id);
  }).immediate();
}

/** After a local delete reached the service, or the service lost the document: drop it if nothing else waits. */
export function dropDocument(db: WritableDb, documentId: string): void {
  db.transaction(() => {
    if (outboxCountOfDocument(db, documentId) === 0) deleteDocumentRow(db, documentId);
  }).immediate();
}
