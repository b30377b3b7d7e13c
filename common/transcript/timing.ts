/** Shift timings, and set a document's timecode offset and frame rate. */
import { EditError } from './edit-error';
import type { DocumentBody, DocumentContent } from './model';
import { isValidTimecode } from './timecode';

export interface TimeRange {
  /** Items starting at or after this time move (inclusive). */
  from_ms: number;
  /** Items starting before this time move (exclusive); open-ended when absent. */
  to_ms?: number;
}

/**
 * Shift every segment/word or cue by `offsetMs` (negative moves earlier), or only those that start
 * within `range`. Times are clamped at zero: nothing ever goes negative.
 */
export function shiftTimings<C extends DocumentContent>(content: C, offsetMs: number, range?: TimeRange): C {
  if (!Number.isInteger(offsetMs)) throw new EditError(`offset must be whole milliseconds, got ${offsetMs}`);
  const inRange = (start: number) => !range || (start >= range.from_ms && (range.to_ms === undefined || start < range.to_ms));
  const mv = (t: number) => Math.max(0, t + offsetMs);
  if (content.kind === 'transcript') {
    const segments = content.segments.map((s) => {
      if (!inRange(s.start_ms)) return s;
      return { ...s, start_ms: mv(s.start_ms), end_ms: mv(s.end_ms), words: s.words.map((w) => ({ ...w, start_ms: mv(w.start_ms), end_ms: mv(w.end_ms) })) };
    });
    return { ...content, segments };
  }
  return { ...content, cues: content.cues.map((c) => (inRange(c.start_ms) ? { ...c, start_ms: mv(c.start_ms), end_ms: mv(c.end_ms) } : c)) };
}

/** The parts of a Document resource that carry timecode settings. */
export interface TimecodeCarrier {
  timecode_offset: string;
  document?: DocumentBody;
}

/** Set timecode_offset (HH:MM:SS:FF) and, optionally, metadata.frame_rate; validated together. */
export function setTimecode<D extends TimecodeCarrier>(doc: D, timecodeOffset: string, frameRate?: number): D {
  const rate = frameRate ?? doc.document?.metadata.frame_rate;
  if (frameRate !== undefined && !(frameRate > 0 && frameRate <= 120)) throw new EditError(`frame rate ${frameRate} is out of range`);
  if (!isValidTimecode(timecodeOffset, rate)) throw new EditError(`timecode offset "${timecodeOffset}" is not a valid HH:MM:SS:FF at ${rate ?? 'the default'} fps`);
  const next = { ...doc, timecode_offset: timecodeOffset };
  if (frameRate !== undefined && doc.document) {
    next.document = { ...doc.document, metadata: { ...doc.document.metadata, frame_rate: frameRate } };
  }
  return next;
}
