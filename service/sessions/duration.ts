/**
 * A session without media (upload mode with only a document) has no media to measure, so its
 * duration is its documents' last time: the latest end of any segment or cue, in seconds. SQLite
 * reads it from the stored JSON (json_each), so no body is parsed in JavaScript on a write.
 */
import { stmt, type Db } from '../db';

const DOCUMENT_END_MS = `
  SELECT MAX(e) FROM (
    SELECT json_extract(x.value, '$.end_ms') AS e FROM documents d, json_each(d.body, '$.content.segments') x WHERE d.session_pk = @pk
    UNION ALL
    SELECT json_extract(x.value, '$.end_ms') FROM documents d, json_each(d.body, '$.content.cues') x WHERE d.session_pk = @pk
  )`;

const WITHOUT_MEDIA = `session_mode = 'upload' AND NOT (COALESCE(media_type, '') GLOB 'audio/*' OR COALESCE(media_type, '') GLOB 'video/*')`;
const REFRESH = `UPDATE sessions SET duration = COALESCE((${DOCUMENT_END_MS}), 0) / 1000.0 WHERE id = @pk AND ${WITHOUT_MEDIA}`;

/** Sets the duration of an upload-mode session without audio or video from its documents; any other session keeps its media's. */
export function refreshDocumentDuration(db: Db, sessionPk: number): void {
  // Runs on every document write; for a session with media it is a no-op update, so the cost is the statement's compile, kept once per connection.
  stmt(db, REFRESH).run({ pk: sessionPk });
}

/** At start: sessions stored before durations were kept this way (duration 0) get theirs. */
export function repairDocumentDurations(db: Db): void {
  const stale = db.prepare(`SELECT id FROM sessions WHERE duration = 0 AND ${WITHOUT_MEDIA}`).all() as { id: number }[];
  db.transaction(() => {
    for (const s of stale) refreshDocumentDuration(db, s.id);
  })();
}
