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

/** The fingerprint of a transcript's content: equal contents, equal fingerprints. */
export function contentHash(content: TranscriptContent): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

/** Links the captions to the transcript (or moves the link), as built from `content`. */
export function linkCaption(db: WritableDb, captionId: string, transcriptId: string, content: TranscriptContent): void {
  stmt(
    db,
    `INSERT INTO caption_links (caption_id, transcript_id, built_from, built_hash) VALUES (?, ?, ?, ?)
     ON CONFLICT(caption_id) DO UPDATE SET transcript_id = excluded.transcript_id, built_from = excluded.built_from, built_hash = excluded.built_hash`,
  ).run(captionId, transcriptId, JSON.stringify(content), contentHash(content));
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
