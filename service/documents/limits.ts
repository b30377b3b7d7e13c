/**
 * What a document can be. A document is the text of a recording: no one speaks faster than about
 * five words a second, so a document of a session with media holds at most MAX_WORDS_PER_SECOND
 * words per second of that media (twice that, with room for notes), and no document, merged or
 * not, is larger than MAX_DOCUMENT_BYTES of JSON (the largest body a write accepts). Bigger input
 * is refused before any heavy work is done on it.
 */
import type { DocumentBody } from '../../common/transcript/model';
import type { Db } from '../db';
import { codedError } from '../http/errors';

export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
export const MAX_WORDS_PER_SECOND = 10;
/** Words any document may hold whatever its media's length (titles, notes, a short clip's full script). */
export const WORDS_ANY_LENGTH = 2000;

/** Words in a transcript's segments or a caption's lines. */
export function documentWords(body: DocumentBody): number {
  let n = 0;
  if (body.content.kind === 'transcript') for (const s of body.content.segments) n += s.words.length;
  else for (const c of body.content.cues) for (const line of c.lines) n += line.split(/\s+/).filter(Boolean).length;
  return n;
}

/** The most words the session's media can hold, or null when it has no audio or video to measure. */
export function wordsForMedia(db: Db, sessionPk: number): number | null {
  const s = db.prepare('SELECT duration, media_type FROM sessions WHERE id = ?').get(sessionPk) as { duration: number; media_type: string | null } | undefined;
  if (!s || !(s.duration > 0) || !/^(audio|video)\//.test(s.media_type ?? '')) return null;
  return WORDS_ANY_LENGTH + Math.ceil(s.duration * MAX_WORDS_PER_SECOND);
}

/** Refuses (413) a merge whose stored bodies add up to more than a document can be. */
export function checkMergedSize(bytes: number): void {
  if (bytes > MAX_DOCUMENT_BYTES) {
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
    throw codedError(413, 'document_too_large', `The merged document would be ${mb(bytes)}; a document can be at most ${mb(MAX_DOCUMENT_BYTES)}. Merge fewer documents.`, { bytes, max_bytes: MAX_DOCUMENT_BYTES });
  }
}
