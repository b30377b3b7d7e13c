/**
 * Documents of sessions in SQLite: the current body, the engine's original (for reset), the
 * finished flag, and a last_modified that moves forward on every write (it also makes the ETag).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Document } from '../../common/api';
import type { DocumentBody } from '../../common/transcript/model';
import type { Db } from '../db';
import { documentError, notFound } from '../http/errors';
import { JsonText } from '../http/handle';
import { documentEndMs, refreshDocumentDuration } from '../sessions/duration';

export interface DocumentRow {
  id: string;
  session_pk: number;
  filename: string;
  type: 'document' | 'caption';
  language: string;
  created: string;
  last_modified: string;
  finished: number;
  timecode_offset: string;
  body: string;
  original: string;
  job_id: string | null;
  /** The body's latest segment or cue end (ms), kept for the session's duration; null without any. */
  end_ms: number | null;
}

/** A document as the routes read it: everything but the engine's original (read only by copy and reset: originalOf), which would double every read. */
export interface ScopedDocument extends Omit<DocumentRow, 'original'> {
  session_id: string;
  org_id: number;
  allow_magic_link_export: number;
}

export function newDocumentId(): string {
  return randomBytes(12).toString('base64url');
}

/** A timestamp strictly later than `prev`, so every write changes last_modified. */
export function nextStamp(prev?: string): string {
  const now = Date.now();
  const after = prev ? Date.parse(prev) + 1 : 0;
  return new Date(Math.max(now, after)).toISOString();
}

export function etagOf(row: Pick<DocumentRow, 'id' | 'last_modified'>): string {
  return `"${createHash('sha256').update(`${row.id}\n${row.last_modified}`).digest('base64url').slice(0, 22)}"`;
}

/** A body already serialized (by an offload thread, service/offload/tasks.ts), with its end. */
export interface BodyText {
  json: string;
  endMs: number | null;
}

const serialized = (body: DocumentBody | BodyText): BodyText => ('json' in body ? body : { json: JSON.stringify(body), endMs: documentEndMs(body) });

export function insertDocument(
  db: Db,
  d: { sessionPk: number; filename: string; type: 'document' | 'caption'; language: string; body: DocumentBody | BodyText; original?: DocumentBody | string; jobId?: string | null; timecodeOffset?: string },
): string {
  const id = newDocumentId();
  // A new document changes its session: move the session's last_modified strictly forward, so a
  // client pulling sessions changed since its last look sees copies, merges and translations.
  const session = db.prepare('SELECT last_modified FROM sessions WHERE id = ?').get(d.sessionPk) as { last_modified: string } | undefined;
  const stamp = nextStamp(session?.last_modified);
  const { json: body, endMs } = serialized(d.body);
  db.prepare(
    'INSERT INTO documents (id, session_pk, filename, type, language, created, last_modified, finished, timecode_offset, body, original, job_id, end_ms) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)',
  ).run(id, d.sessionPk, d.filename, d.type, d.language, stamp, stamp, d.timecodeOffset ?? '00:00:00:00', body, d.original === undefined ? body : typeof d.original === 'string' ? d.original : JSON.stringify(d.original), d.jobId ?? null, endMs);
  db.prepare('UPDATE sessions SET last_modified = ? WHERE id = ?').run(stamp, d.sessionPk);
  refreshDocumentDuration(db, d.sessionPk);
  return id;
}

const SCOPED =
  'SELECT d.id, d.session_pk, d.filename, d.type, d.language, d.created, d.last_modified, d.finished, d.timecode_offset, d.body, d.job_id, d.end_ms, s.session_id, s.org_id, s.allow_magic_link_export FROM documents d JOIN sessions s ON s.id = d.session_pk';

/** The engine's original body of a document, as stored. */
export function originalOf(db: Db, documentId: string): string {
  return (db.prepare('SELECT original FROM documents WHERE id = ?').get(documentId) as { original: string }).original;
}

export function findDocument(db: Db, documentId: string): ScopedDocument | undefined {
  return db.prepare(`${SCOPED} WHERE d.id = ?`).get(documentId) as ScopedDocument | undefined;
}

/** A document's organization, type and stored size, without reading its body. */
export function documentSize(db: Db, documentId: string): { org_id: number; type: string; bytes: number } | undefined {
  return db.prepare('SELECT s.org_id, d.type, length(CAST(d.body AS BLOB)) AS bytes FROM documents d JOIN sessions s ON s.id = d.session_pk WHERE d.id = ?').get(documentId) as
    | { org_id: number; type: string; bytes: number }
    | undefined;
}

/** The document if it is in that session and the session is the caller's organization's; else 404. */
export function requireDocument(db: Db, sessionId: string, documentId: string, orgId: number | null): ScopedDocument {
  const d = findDocument(db, documentId);
  if (!d || d.session_id !== sessionId || (orgId !== null && d.org_id !== orgId)) throw notFound('document');
  return d;
}

export function listDocuments(db: Db, sessionPk: number, limit = 1000, offset = 0): { rows: ScopedDocument[]; total: number } {
  const total = (db.prepare('SELECT COUNT(*) AS n FROM documents WHERE session_pk = ?').get(sessionPk) as { n: number }).n;
  const rows = db.prepare(`${SCOPED} WHERE d.session_pk = ? ORDER BY d.created, d.rowid LIMIT ? OFFSET ?`).all(sessionPk, limit, offset) as ScopedDocument[];
  return { rows, total };
}

export function parseBody(row: Pick<DocumentRow, 'body'>): DocumentBody {
  return JSON.parse(row.body) as DocumentBody;
}

export type DocumentColumns = Partial<Pick<DocumentRow, 'filename' | 'finished' | 'timecode_offset'> & { body: DocumentBody | BodyText }>;

/** Writes columns of a document (a body with its end) and moves last_modified on; returns the fresh row. */
export function updateDocument(db: Db, row: ScopedDocument, cols: DocumentColumns): ScopedDocument {
  const { body, ...rest } = cols;
  const text = body && serialized(body);
  const all: Record<string, unknown> = { ...rest, ...(text && { body: text.json, end_ms: text.endMs }), last_modified: nextStamp(row.last_modified) };
  const names = Object.keys(all);
  const changed = db
    .prepare(`UPDATE documents SET ${names.map((n) => `${n} = ?`).join(', ')} WHERE id = ? AND last_modified = ?`)
    .run(...names.map((n) => all[n]), row.id, row.last_modified).changes;
  if (changed !== 1) throw documentError(412, 'precondition_failed', 'the document changed while it was being written; read it again');
  db.prepare('UPDATE sessions SET last_modified = ? WHERE id = ?').run(all.last_modified, row.session_pk);
  // The duration is the documents' latest end: a save that keeps this document's end (most
  // corrections of words) cannot change it.
  if (text && text.endMs !== row.end_ms) refreshDocumentDuration(db, row.session_pk);
  return findDocument(db, row.id)!;
}

export interface PresentOptions {
  withContent?: boolean;
  download?: { url: string; expiresIn: number };
}

/**
 * A document with its content as the answer's JSON text: the stored body (checked when it was
 * written) is put in as it is, never parsed, checked and serialized again on the event loop.
 */
export function documentAnswer(row: ScopedDocument): JsonText {
  const head = JSON.stringify(toDocument(row, {}));
  return new JsonText(`${head.slice(0, -1)},"document":${row.body}}`);
}

/** A document's record without its body: what a list without content reads (listDocumentHeads). */
export type DocumentHead = Omit<ScopedDocument, 'body'> & { size_bytes: number };

/** The record of a document, without content. */
export function headOf(row: DocumentHead): Document {
  return {
    id: row.id,
    filename: row.filename,
    type: row.type,
    language: row.language,
    created: row.created,
    last_modified: row.last_modified,
    finished: row.finished === 1,
    timecode_offset: row.timecode_offset,
    content_type: 'application/json',
    size_bytes: row.size_bytes,
    session_id: row.session_id,
  };
}

export function toDocument(row: ScopedDocument, opts: PresentOptions = { withContent: true }): Document {
  return {
    ...headOf({ ...row, size_bytes: Buffer.byteLength(row.body) }),
    ...(opts.withContent && !opts.download ? { document: parseBody(row) } : {}),
    ...(opts.download ? { download_url: opts.download.url, expires_in: opts.download.expiresIn } : {}),
  };
}
