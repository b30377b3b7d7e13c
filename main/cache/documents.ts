/**
 * Documents: their rows and what the UI reads of them, and the local edits. Every edit writes the
 * change and its outbox entry in one IMMEDIATE transaction, so an acknowledged edit is never
 * half-recorded.
 */
import { randomUUID } from 'node:crypto';
import type { Document } from '../../common/api';
import type { DocumentMutation, DocumentRecord, DocumentSummary } from '../../common/ipc';
import type { DocumentBody, DocumentContent } from '../../common/transcript/model';
import { notInCache, stmt, type ReadableDb, type WritableDb } from './db';
import { blockedReason, enqueue } from './outbox';
import { reindexDocument } from './search-rows';
import { shareAlreadyAsked } from './share-links';

export interface DocumentRow {
  id: string;
  session_id: string;
  filename: string;
  type: 'document' | 'caption';
  language: string;
  last_modified: string;
  finished: number;
  timecode_offset: string;
  meta: string;
  body: string | null;
  base_body: string | null;
  server_version: string | null;
  local_state: 'synced' | 'pending' | 'conflict';
  local_only: number;
  deleted: number;
  deleted_on_server: number;
}

/** The Document resource fields kept in `meta`: whatever the list carried beyond the columns. */
export function metaOf(d: Document): string {
  const { document: _body, id: _id, filename: _f, type: _t, language: _l, last_modified: _m, finished: _fi, timecode_offset: _tc, download_url: _u, expires_in: _e, ...rest } = d;
  return JSON.stringify(rest);
}

export function clearedContent(content: DocumentContent): DocumentContent {
  if (content.kind === 'transcript') return { ...content, segments: content.segments.map((s) => ({ ...s, words: [] })) };
  return { ...content, cues: content.cues.map((c) => ({ ...c, lines: [] })) };
}

export function documentRow(db: ReadableDb, documentId: string): DocumentRow | null {
  return (stmt(db, 'SELECT * FROM documents WHERE id = ?').get(documentId) as DocumentRow | undefined) ?? null;
}

/** The row of a document that exists and is not deleted locally; NOT_FOUND otherwise. */
export function mustRow(db: ReadableDb, documentId: string): DocumentRow {
  const d = documentRow(db, documentId);
  if (!d || d.deleted) throw notInCache(documentId);
  return d;
}

export function summaryOf(db: ReadableDb, d: DocumentRow): DocumentSummary {
  return {
    id: d.id, session_id: d.session_id, filename: d.filename, type: d.type, language: d.language, last_modified: d.last_modified,
    finished: d.finished === 1, timecode_offset: d.timecode_offset, local_state: d.local_state,
    unsent_reason: blockedReason(db, d.id),
  };
}

export function getDocument(db: ReadableDb, documentId: string): DocumentRecord | null {
  const d = documentRow(db, documentId);
  if (!d || d.deleted) return null;
  return { ...summaryOf(db, d), body: d.body ? (JSON.parse(d.body) as DocumentBody) : null };
}

export function deleteDocumentRow(db: WritableDb, documentId: string): void {
  stmt(db, 'DELETE FROM documents WHERE id = ?').run(documentId);
}

/** Saves new content (and optionally a new file name) locally and queues it. */
export function saveDocument(db: WritableDb, documentId: string, content: DocumentContent, filename?: string): DocumentRecord {
  db.transaction(() => {
    const d = mustRow(db, documentId);
    const old = d.body ? (JSON.parse(d.body) as DocumentBody) : null;
    const body: DocumentBody = { document_type: content.kind, metadata: old?.metadata ?? {}, content };
    const json = JSON.stringify(body);
    stmt(db, "UPDATE documents SET body = ?, base_body = COALESCE(base_body, body), filename = COALESCE(?, filename), local_state = 'pending' WHERE id = ?")
      .run(json, filename ?? null, documentId);
    reindexDocument(db, documentId, json);
    enqueue(db, d, { op: 'save', content, ...(filename ? { filename } : {}) });
  }).immediate();
  return getDocument(db, documentId)!;
}

/** Applies a mutation's local effect and queues it. Returns the document it concerns (a copy's new id; null after delete). */
export function mutate(db: WritableDb, documentId: string, m: DocumentMutation): { documentId: string | null } {
  return db.transaction(() => {
    const d = mustRow(db, documentId);
    // The SET clause comes from the fixed set below, never from values.
    const set = (sql: string, ...args: unknown[]) => stmt(db, `UPDATE documents SET ${sql}, local_state = 'pending' WHERE id = ?`).run(...args, documentId);
    let result: string | null = documentId;
    if (m.op === 'share' && shareAlreadyAsked(db, documentId, m)) return { documentId };
    switch (m.op) {
      case 'finalize':
        set('finished = ?', m.finished ? 1 : 0);
        break;
      case 'rename':
        set('filename = ?', m.filename);
        break;
      case 'setTimecodeOffset':
        set('timecode_offset = ?', m.timecodeOffset);
        break;
      case 'delete':
        set('deleted = 1');
        reindexDocument(db, documentId, null);
        result = null;
        break;
      case 'clearText': {
        if (d.body) {
          const body = JSON.parse(d.body) as DocumentBody;
          const json = JSON.stringify({ ...body, content: clearedContent(body.content) });
          set('body = ?, base_body = COALESCE(base_body, body)', json);
          reindexDocument(db, documentId, json);
        } else set('local_state = local_state');
        break;
      }
      case 'copy': {
        const id = `local-${randomUUID()}`;
        stmt(db, `INSERT INTO documents (id, session_id, filename, type, language, last_modified, finished, timecode_offset, meta, body, base_body, server_version, local_state, local_only)
          SELECT ?, session_id, ?, type, language, last_modified, finished, timecode_offset, meta, body, NULL, NULL, 'pending', 1 FROM documents WHERE id = ?`)
          .run(id, m.newFilename, documentId);
        reindexDocument(db, id, d.body);
        enqueue(db, { id, session_id: d.session_id }, { ...m, sourceId: documentId });
        return { documentId: id };
      }
      default:
        // resetToOriginal, summarize, share: the service computes the result; the pull brings it.
        set('local_state = local_state');
    }
    enqueue(db, d, m);
    return { documentId: result };
  }).immediate();
}

/** Queues a merge of the documents (all must be in the cache) into a new one the service makes. */
export function queueMerge(db: WritableDb, documentIds: string[], outputFilename: string): void {
  db.transaction(() => {
    const first = mustRow(db, documentIds[0]);
    for (const id of documentIds.slice(1)) mustRow(db, id);
    enqueue(db, first, { op: 'merge', documentIds, outputFilename });
  }).immediate();
}
