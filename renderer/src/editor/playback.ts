/** Where playback is in a document: which segment, word or cue is playing at a time. */
import type { CaptionContent, Segment, TranscriptContent } from '../../../common/transcript';

/** The last index whose start is at or before `ms` (items sorted by start), or -1. */
function lastStartedAt<T>(items: T[], ms: number, start: (t: T) => number): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (start(items[mid]) <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export interface TranscriptPosition {
  /** The segment playing, or -1 between segments. */
  segment: number;
  /** The word last started in that segment (it stays lit through the short gaps between words), or -1. */
  word: number;
}

export function transcriptPosition(t: TranscriptContent, ms: number): TranscriptPosition {
  const i = lastStartedAt(t.segments, ms, (s) => s.start_ms);
  const seg: Segment | undefined = t.segments[i];
  if (!seg || ms >= seg.end_ms) return { segment: -1, word: -1 };
  return { segment: i, word: lastStartedAt(seg.words, ms, (w) => w.start_ms) };
}

/** The cue showing at `ms`, or -1. */
export function cuePosition(c: CaptionContent, ms: number): number {
  const i = lastStartedAt(c.cues, ms, (cue) => cue.start_ms);
  return i >= 0 && ms < c.cues[i].end_ms ? i : -1;
}
