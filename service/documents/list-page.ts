/**
 * A page of a session's documents (documents.list). Without content only the records are read:
 * sizes come from SQLite, never a body. With include_content the bodies go into the answer as
 * stored (no parse, no serializing again on the event loop), and a page carries bodies of at most
 * LIST_CONTENT_BYTES: it ends early at the document that would pass them (the first always comes),
 * its `count` says how many it holds, and `total_results` that more follow from offset + count.
 * So one list request cannot hold the event loop over 25 (or 100) bodies of 16 MB each.
 */
import type { Envelope, Document } from '../../common/api';
import type { Db } from '../db';
import { JsonText } from '../http/handle';
import { headOf, type DocumentHead } from './store';

/**
 * Bodies one page carries at most, unless its first document alone is larger (at most
 * MAX_DOCUMENT_BYTES): a page never costs more than reading the largest document by itself.
 */
export const LIST_CONTENT_BYTES = 8 * 1024 * 1024;

const HEADS = `SELECT d.id, d.session_pk, d.filename, d.type, d.language, d.created, d.last_modified, d.finished, d.timecode_offset,
  d.job_id, d.end_ms, length(CAST(d.body AS BLOB)) AS size_bytes, s.session_id, s.org_id, s.allow_magic_link_export
  FROM documents d JOIN sessions s ON s.id = d.session_pk WHERE d.session_pk = ? ORDER BY d.created, d.rowid LIMIT ? OFFSET ?`;

function heads(db: Db, sessionPk: number, limit: number, offset: number): { rows: DocumentHead[]; total: number } {
  const total = (db.prepare('SELECT COUNT(*) AS n FROM documents WHERE session_pk = ?').get(sessionPk) as { n: number }).n;
  return { rows: db.prepare(HEADS).all(sessionPk, limit, offset) as DocumentHead[], total };
}

/** The page without content. */
export function documentsPage(db: Db, sessionPk: number, limit: number, offset: number): Envelope<Document> {
  const { rows, total } = heads(db, sessionPk, limit, offset);
  return { count: rows.length, total_results: total, result: rows.map(headOf) };
}

/** The page with content, as JSON text: the stored bodies put in as they are, up to the page's byte budget. */
export function documentsPageWithContent(db: Db, sessionPk: number, limit: number, offset: number): JsonText {
  const { rows, total } = heads(db, sessionPk, limit, offset);
  const body = db.prepare('SELECT body FROM documents WHERE id = ?').pluck();
  const items: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (items.length > 0 && bytes + row.size_bytes > LIST_CONTENT_BYTES) break;
    bytes += row.size_bytes;
    const head = JSON.stringify(headOf(row));
    items.push(`${head.slice(0, -1)},"document":${body.get(row.id) as string}}`);
  }
  return new JsonText(`{"count":${items.length},"total_results":${total},"result":[${items.join(',')}]}`);
}
