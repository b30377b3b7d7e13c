/**
 * A session without media (upload mode with only a document) has no media to measure, so its
 * duration is its documents' last time: the latest end of any segment or cue, in seconds. Each
 * document keeps its own end (documents.end_ms, set from the body in hand on every write), so a
 * save reads one small column per document instead of every segment's end from the stored JSON.
 */
import type { DocumentBody } from '../../common/transcript/model';
import { stmt, type Db } from '../db';

const WITHOUT_MEDIA = `session_mode = 'upload' AND NOT (COALESCE(media_type, '') GLOB 'audio/*' OR COALESCE(media_type, '') GLOB 'video/*')`;
const DOCUMENTS_END = 'COALESCE((SELECT MAX(end_ms) FROM documents WHERE session_pk = @pk), 0) / 1000.0';
/**
 * Read first, written only when it changes: most saves correct words, not the end. A SELECT with
 * the documents' end costs about a sixth of an UPDATE holding the same subquery, which SQLite
 * runs slowly even when no row matches (about 60 µs against 9 µs here).
 */
const CURRENT = `SELECT duration, ${DOCUMENTS_END} AS next FROM sessions WHERE id = @pk AND ${WITHOUT_MEDIA}`;
const WRITE = 'UPDATE sessions SET duration = @next WHERE id = @pk';

/** The latest end of the body's segments or cues, in ms; null without any. */
export function documentEndMs(body: DocumentBody): number | null {
  const items = body.content.kind === 'transcript' ? body.content.segments : body.content.cues;
  let end: number | null = null;
  for (const item of items) if (end === null || item.end_ms > end) end = item.end_ms;
  return end;
}

/** Sets the duration of an upload-mode session without audio or video from its documents' ends; any other session keeps its media's. */
export function refreshDocumentDuration(db: Db, sessionPk: number): void {
  const row = stmt(db, CURRENT).get({ pk: sessionPk }) as { duration: number | null; next: number } | undefined;
  if (row && row.duration !== row.next) stmt(db, WRITE).run({ pk: sessionPk, next: row.next });
}
