/**
 * Timing tools and one-click rule fixes for caption cues, as pure functions of the whole content
 * (the editor pushes each result onto its undo history). Each refuses with an EditError, in words
 * for a person, rather than make cues overlap or end before they start.
 */
import { EditError, mergeCues, splitCue, tokenize, wrapWords, type CaptionContent, type CaptionProfile, type CaptionViolation, type Cue } from '../../../../common/transcript';
import { charCount } from '../../../../common/transcript';
import { cueTimeProblem } from './cueTiming';

/** One video frame at the profile's rate: its minimum gap is two frames (24 or 25 fps); 25 fps when it has none. */
export function frameMs(p: CaptionProfile): number {
  return p.minGapMs > 0 ? p.minGapMs / 2 : 40;
}

function retimed(c: CaptionContent, i: number, start: number, end: number): CaptionContent {
  const why = cueTimeProblem(Math.round(start), Math.round(end), c.cues[i - 1]?.end_ms ?? null, c.cues[i + 1]?.start_ms ?? null);
  if (why) throw new EditError(why);
  const cues = c.cues.slice();
  cues[i] = { ...cues[i], start_ms: Math.round(start), end_ms: Math.round(end) };
  return { ...c, cues };
}

function indexOf(c: CaptionContent, cueId: string): number {
  const i = c.cues.findIndex((q) => q.id === cueId);
  if (i < 0) throw new EditError('That cue is no longer there.');
  return i;
}

/** The cue's start or end moved to the playhead. */
export function setEdgeAt(c: CaptionContent, cueId: string, edge: 'start' | 'end', ms: number): CaptionContent {
  const i = indexOf(c, cueId);
  const q = c.cues[i];
  return edge === 'start' ? retimed(c, i, ms, q.end_ms) : retimed(c, i, q.start_ms, ms);
}

/** The whole cue moved by `deltaMs` (negative: earlier), its length kept. */
export function nudgeCue(c: CaptionContent, cueId: string, deltaMs: number): CaptionContent {
  const i = indexOf(c, cueId);
  const q = c.cues[i];
  return retimed(c, i, q.start_ms + deltaMs, q.end_ms + deltaMs);
}

/** The cue starts the profile's minimum gap after the previous cue ends (its end kept). */
export function snapToPrevious(c: CaptionContent, cueId: string, p: CaptionProfile): CaptionContent {
  const i = indexOf(c, cueId);
  if (i === 0) throw new EditError('The first cue has no cue before it to snap to.');
  return retimed(c, i, c.cues[i - 1].end_ms + p.minGapMs, c.cues[i].end_ms);
}

export type FixKind = 'extend' | 'split' | 'merge' | 'rebalance' | 'gap';

export const FIX_LABEL: Record<FixKind, string> = {
  extend: 'Extend into the gap',
  split: 'Split',
  merge: 'Merge with next',
  rebalance: 'Rebalance lines',
  gap: 'Shorten to leave the gap',
};

/** How long the cue must show for its duration and reading speed rules. */
function neededMs(q: Cue, p: CaptionProfile): number {
  return Math.max(p.minDurationMs, Math.ceil((charCount(q.lines.join(' ')) * 1000) / p.maxCps));
}

/** The fixes that would help with a problem, best first; empty when a person must decide. */
export function fixesFor(c: CaptionContent, v: CaptionViolation, p: CaptionProfile): FixKind[] {
  const i = v.cue_index;
  const q = c.cues[i];
  if (!q) return [];
  const next = c.cues[i + 1];
  const words = q.lines.flatMap(tokenize);
  switch (v.rule) {
    case 'max_cps':
    case 'min_duration': {
      const room = (next ? next.start_ms - p.minGapMs : Infinity) - (i > 0 ? c.cues[i - 1].end_ms + p.minGapMs : 0);
      const out: FixKind[] = [];
      if (room > q.end_ms - q.start_ms) out.push('extend');
      if (next) out.push('merge');
      return out;
    }
    case 'max_chars_per_line':
    case 'max_lines':
      return wrapWords(words, p.maxCharsPerLine, p.maxLines) ? ['rebalance'] : words.length > 1 ? ['split'] : [];
    case 'max_duration':
      return words.length > 1 ? ['split'] : [];
    case 'min_gap':
    case 'overlap':
      return ['gap'];
    case 'empty':
      return next ? ['merge'] : [];
  }
}

/** The fix applied: one content in, one out. */
export function applyFix(c: CaptionContent, cueId: string, fix: FixKind, p: CaptionProfile): CaptionContent {
  const i = indexOf(c, cueId);
  const q = c.cues[i];
  const prev = c.cues[i - 1];
  const next = c.cues[i + 1];
  switch (fix) {
    case 'extend': {
      // Later first (the cue's words are already spoken at its start), then earlier, never past the gaps.
      const want = neededMs(q, p);
      const latest = next ? next.start_ms - p.minGapMs : Infinity;
      const end = Math.max(q.end_ms, Math.min(latest, q.start_ms + want));
      const earliest = prev ? prev.end_ms + p.minGapMs : 0;
      const start = Math.min(q.start_ms, Math.max(earliest, end - want));
      return retimed(c, i, start, end);
    }
    case 'split': {
      const text = q.lines.join(' ');
      // At the word boundary nearest the middle of the text.
      const words = text.split(/\s+/).filter(Boolean);
      let best = -1;
      let pos = 0;
      for (let k = 0; k < words.length - 1; k++) {
        pos += words[k].length + 1;
        if (best < 0 || Math.abs(pos - text.length / 2) < Math.abs(best - text.length / 2)) best = pos;
      }
      if (best < 0) throw new EditError('A cue of one word cannot be split.');
      return splitCue({ ...c, cues: c.cues.map((x) => (x.id === cueId ? { ...x, lines: [words.join(' ')] } : x)) }, cueId, best);
    }
    case 'merge':
      if (!next) throw new EditError('There is no next cue to merge with.');
      return mergeCues(c, cueId, next.id);
    case 'rebalance': {
      const lines = wrapWords(q.lines.flatMap(tokenize), p.maxCharsPerLine, p.maxLines);
      if (!lines) throw new EditError('These words do not fit the lines; split the cue instead.');
      const cues = c.cues.slice();
      cues[i] = { ...q, lines };
      return { ...c, cues };
    }
    case 'gap': {
      if (!next) return c;
      return retimed(c, i, q.start_ms, Math.min(q.end_ms, next.start_ms - p.minGapMs));
    }
  }
}
