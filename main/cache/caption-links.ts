/**
 * Which transcript a caption document follows, and the transcript content it was last built from
 * (or kept in step with). Kept here, not on the service: its document model has no such link.
 * With the content it was built from, a later change to the transcript can be told apart from the
 * captions' own hand edits (common/transcript/caption-follow.ts).
 */
import { createHash } from 'node:crypto';
import type { TranscriptContent } from '../../common/transcript/model';
import { stmt, type ReadableDb, type WritableDb } from './db';

export interface CaptionLink {
  captionId: string;
  transcriptId: string;
  builtFrom: TranscriptContent;
  builtHash: string;
}

interface Row {
  caption_id: string;
  transcript_id: string;
  built_from: string;
  built_hash: string;
}

const fromRow = (r: Row): CaptionLink => ({ captionId: r.caption_id, transcriptId: r.transcript_id, builtFrom: JSON.parse(r.built_from) as TranscriptContent, builtHash: r.built_hash });

/** The fingerprint of a transcript's content as stored (json_extract's text of it). */
export function contentHash(contentJson: string): string {
  return createHash('sha256').update(contentJson).digest('hex');
}

/** A document's content as SQLite's JSON text, without parsing the body in JS. */
const CONTENT_OF = "SELECT json_extract(body, '$.content') AS c FROM documents WHERE id = ? AND body IS NOT NULL AND deleted = 0";

/**
 * Links the captions to the transcript (or moves the link), as built from the transcript's
 * content as it is stored now. False when the transcript has no content here.
 */
export function linkCaption(db: WritableDb, captionId: string, transcriptId: string): boolean {
  const row = stmt(db, CONTENT_OF).get(transcriptId) as { c: string | null } | undefined;
  if (!row?.c) return false;
  stmt(
    db,
    `INSERT INTO caption_links (caption_id, transcript_id, built_from, built_hash) VALUES (?, ?, ?, ?)
     ON CONFLICT(caption_id) DO UPDATE SET transcript_id = excluded.transcript_id, built_from = excluded.built_from, built_hash = excluded.built_hash`,
  ).run(captionId, transcriptId, row.c, contentHash(row.c));
  return true;
}

/** Links whose transcript's content moved on since the captions were built (compared in SQLite, no body parsed here). */
const MOVED_ON = `FROM caption_links l JOIN documents t ON t.id = l.transcript_id
  WHERE t.body IS NOT NULL AND json_extract(t.body, '$.content') IS NOT l.built_from`;

/** The caption documents whose transcript moved on since they were built. */
export function pendingCaptions(db: ReadableDb, transcriptId: string): string[] {
  const rows = stmt(db, `SELECT l.caption_id ${MOVED_ON} AND l.transcript_id = ? ORDER BY l.caption_id`).all(transcriptId) as { caption_id: string }[];
  return rows.map((r) => r.caption_id);
}

/** Whether this caption document's transcript moved on since it was built. */
export function captionPending(db: ReadableDb, captionId: string): boolean {
  return !!stmt(db, `SELECT 1 ${MOVED_ON} AND l.caption_id = ?`).get(captionId);
}

/**
 * The transcript a caption document follows by default: one of its session's transcripts in its
 * language (the oldest here), with content. Captions in another language (a translation) follow none.
 */
export function defaultTranscript(db: ReadableDb, captionId: string): string | null {
  const r = stmt(
    db,
    `SELECT t.id FROM documents c JOIN documents t ON t.session_id = c.session_id AND t.type = 'document' AND t.deleted = 0 AND t.body IS NOT NULL
       AND (t.language = c.language OR substr(t.language, 1, 2) = substr(c.language, 1, 2))
     WHERE c.id = ? ORDER BY t.language = c.language DESC, t.rowid LIMIT 1`,
  ).get(captionId) as { id: string } | undefined;
  return r?.id ?? null;
}

/** A document's type and session, without its body; null when it is not here or deleted. */
export function documentKind(db: ReadableDb, id: string): { type: 'document' | 'caption'; session_id: string } | null {
  return (stmt(db, 'SELECT type, session_id FROM documents WHERE id = ? AND deleted = 0').get(id) as { type: 'document' | 'caption'; session_id: string } | undefined) ?? null;
}

/** The session's caption documents with no link yet. */
export function unlinkedCaptions(db: ReadableDb, sessionId: string): string[] {
  const rows = stmt(db, "SELECT id FROM documents WHERE session_id = ? AND type = 'caption' AND deleted = 0 AND id NOT IN (SELECT caption_id FROM caption_links)").all(sessionId) as { id: string }[];
  return rows.map((r) => r.id);
}

export function captionLink(db: ReadableDb, captionId: string): CaptionLink | null {
  const r = stmt(db, 'SELECT * FROM caption_links WHERE caption_id = ?').get(captionId) as Row | undefined;
  return r ? fromRow(r) : null;
}

/** The caption documents that follow this transcript. */
export function captionsFollowing(db: ReadableDb, transcriptId: string): CaptionLink[] {
  return (stmt(db, 'SELECT * FROM caption_links WHERE transcript_id = ? ORDER BY caption_id').all(transcriptId) as Row[]).map(fromRow);
}

/** A link whose documents are gone (deleted here or on the service) is forgotten. */
export function unlinkCaption(db: WritableDb, captionId: string): void {
  stmt(db, 'DELETE FROM caption_links WHERE caption_id = ?').run(captionId);
}
