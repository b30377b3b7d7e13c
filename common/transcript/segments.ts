/** Split and merge transcript segments and caption cues. Pure: each returns a new content. */
import { EditError, freshId } from './edit-error';
import type { CaptionContent, Cue, Segment, TranscriptContent } from './model';
import { interpolateWords, tokenize } from './realign';

function indexOfId<T extends { id: string }>(items: T[], id: string, what: string): number {
  const i = items.findIndex((x) => x.id === id);
  if (i < 0) throw new EditError(`no ${what} with id "${id}"`);
  return i;
}

/** Split a segment before word `atWord` (1..words-1); the second half gets a fresh id. */
export function splitSegment(t: TranscriptContent, segmentId: string, atWord: number): TranscriptContent {
  const i = indexOfId(t.segments, segmentId, 'segment');
  const seg = t.segments[i];
  if (!Number.isInteger(atWord) || atWord < 1 || atWord >= seg.words.length) {
    throw new EditError(`cannot split segment "${segmentId}" at word ${atWord}: it has ${seg.words.length} words`);
  }
  const head = seg.words.slice(0, atWord);
  const tail = seg.words.slice(atWord);
  const first: Segment = { ...seg, words: head, end_ms: Math.max(seg.start_ms, head[head.length - 1].end_ms) };
  const second: Segment = {
    ...seg,
    id: freshId(`${seg.id}-b`, t.segments.map((s) => s.id)),
    words: tail,
    start_ms: Math.min(seg.end_ms, tail[0].start_ms),
  };
  return { ...t, segments: [...t.segments.slice(0, i), first, second, ...t.segments.slice(i + 1)] };
}

/** Merge segment `secondId` into the segment just before it; the first keeps its id and speaker. */
export function mergeSegments(t: TranscriptContent, firstId: string, secondId: string): TranscriptContent {
  const i = indexOfId(t.segments, firstId, 'segment');
  const j = indexOfId(t.segments, secondId, 'segment');
  if (j !== i + 1) throw new EditError(`segments "${firstId}" and "${secondId}" are not adjacent`);
  const a = t.segments[i];
  const b = t.segments[j];
  const merged: Segment = {
    ...a,
    words: [...a.words, ...b.words],
    start_ms: Math.min(a.start_ms, b.start_ms),
    end_ms: Math.max(a.end_ms, b.end_ms),
  };
  return { ...t, segments: [...t.segments.slice(0, i), merged, ...t.segments.slice(j + 1)] };
}

/**
 * Split a cue at a character offset of its text (lines joined by single spaces); the offset is
 * moved back to the nearest word start so a word is never cut. Time is shared by text length.
 */
export function splitCue(c: CaptionContent, cueId: string, atChar: number): CaptionContent {
  const i = indexOfId(c.cues, cueId, 'cue');
  const cue = c.cues[i];
  const words = cue.lines.flatMap(tokenize);
  let pos = 0;
  let at = 0;
  while (at < words.length && pos + words[at].length < atChar) pos += words[at++].length + 1;
  if (at < 1 || at >= words.length) throw new EditError(`cannot split cue "${cueId}" at character ${atChar}`);
  const timed = interpolateWords(words, cue.start_ms, cue.end_ms);
  const cut = timed[at].start_ms;
  const first: Cue = { ...cue, lines: [words.slice(0, at).join(' ')], end_ms: cut };
  const second: Cue = {
    ...cue,
    id: freshId(`${cue.id}-b`, c.cues.map((x) => x.id)),
    lines: [words.slice(at).join(' ')],
    start_ms: cut,
  };
  return { ...c, cues: [...c.cues.slice(0, i), first, second, ...c.cues.slice(i + 1)] };
}

/** Merge cue `secondId` into the cue just before it: lines appended, times joined. */
export function mergeCues(c: CaptionContent, firstId: string, secondId: string): CaptionContent {
  const i = indexOfId(c.cues, firstId, 'cue');
  const j = indexOfId(c.cues, secondId, 'cue');
  if (j !== i + 1) throw new EditError(`cues "${firstId}" and "${secondId}" are not adjacent`);
  const a = c.cues[i];
  const b = c.cues[j];
  const merged: Cue = {
    ...a,
    lines: [...a.lines, ...b.lines],
    start_ms: Math.min(a.start_ms, b.start_ms),
    end_ms: Math.max(a.end_ms, b.end_ms),
  };
  return { ...c, cues: [...c.cues.slice(0, i), merged, ...c.cues.slice(j + 1)] };
}
