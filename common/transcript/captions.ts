/**
 * Captions from a transcript under a rules profile, and a check (with fixes) of any caption
 * document against a profile. Characters are counted in code points, spaces included, as the
 * Netflix and BBC guidelines count them.
 */
import type { CaptionContent, Cue, TranscriptContent, Word } from './model';
import { CONTENT_VERSION } from './model';
import { interpolateWords, tokenize } from './realign';

export interface CaptionProfile {
  id: string;
  name: string;
  maxCharsPerLine: number;
  maxLines: number;
  minDurationMs: number;
  maxDurationMs: number;
  /** Reading speed limit, characters per second. */
  maxCps: number;
  /** Least time between one cue's end and the next one's start. */
  minGapMs: number;
  /** A silence between words at least this long is a natural place to break. */
  pauseMs: number;
}

/** Named profiles. The numbers follow the public guidelines each is named after ("-like": not certified). */
export const CAPTION_PROFILES = {
  /** Netflix Timed Text Style Guide (English): 42 chars x 2 lines, 5/6 s to 7 s, 20 CPS adult programmes, 2-frame gap at 24 fps. */
  'netflix-like': { id: 'netflix-like', name: 'Netflix-like', maxCharsPerLine: 42, maxLines: 2, minDurationMs: 833, maxDurationMs: 7000, maxCps: 20, minGapMs: 83, pauseMs: 500 },
  /** The same for children's programmes: 17 CPS. */
  'netflix-like-children': { id: 'netflix-like-children', name: 'Netflix-like (children)', maxCharsPerLine: 42, maxLines: 2, minDurationMs: 833, maxDurationMs: 7000, maxCps: 17, minGapMs: 83, pauseMs: 500 },
  /** BBC Subtitle Guidelines: 37 chars x 2 lines, about 160-180 words a minute (~15 CPS), 1 s minimum, 2-frame gap at 25 fps. */
  'bbc-like': { id: 'bbc-like', name: 'BBC-like', maxCharsPerLine: 37, maxLines: 2, minDurationMs: 1000, maxDurationMs: 8000, maxCps: 15, minGapMs: 80, pauseMs: 400 },
  /** Short-form social video: one short line that changes quickly. */
  'short-form': { id: 'short-form', name: 'Short-form', maxCharsPerLine: 32, maxLines: 1, minDurationMs: 500, maxDurationMs: 3000, maxCps: 22, minGapMs: 0, pauseMs: 300 },
} as const satisfies Record<string, CaptionProfile>;
export type CaptionProfileId = keyof typeof CAPTION_PROFILES;
export const DEFAULT_CAPTION_PROFILE: CaptionProfileId = 'netflix-like';

export function resolveProfile(p: CaptionProfile | CaptionProfileId | undefined): CaptionProfile {
  if (p === undefined) return CAPTION_PROFILES[DEFAULT_CAPTION_PROFILE];
  if (typeof p === 'string') {
    const found = (CAPTION_PROFILES as Record<string, CaptionProfile>)[p];
    if (!found) throw new Error(`unknown caption profile "${p}"`);
    return found;
  }
  return p;
}

/** Length in code points (a surrogate pair is one character). */
export function charCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

/** Whether words of these lengths fill at most `maxLines` lines of `maxChars` (greedy filling is optimal for this). */
function fitsLines(lens: number[], from: number, to: number, maxChars: number, maxLines: number): boolean {
  let lines = 1;
  let len = -1;
  for (let k = from; k < to; k++) {
    if (lens[k] > maxChars) return false;
    if (len + 1 + lens[k] > maxChars) {
      if (++lines > maxLines) return false;
      len = lens[k];
    } else len += 1 + lens[k];
  }
  return true;
}

const SENTENCE_END = /[.!?…。！？]["'”’)\]]*$/u;
const CLAUSE_END = /[,;:–—、，；：]["'”’)\]]*$/u;

function breakBonus(word: string): number {
  if (SENTENCE_END.test(word)) return 1;
  if (CLAUSE_END.test(word)) return 0.6;
  return 0;
}

/**
 * Words into at most `maxLines` lines of at most `maxChars`, never splitting a word. Two lines are
 * chosen to break at punctuation and to balance (bottom-heavy on a tie). Returns null when the
 * words cannot fit.
 */
export function wrapWords(words: string[], maxChars: number, maxLines: number): string[] | null {
  if (words.length === 0) return [];
  const lens = words.map(charCount);
  const total = lens.reduce((a, b) => a + b, 0) + words.length - 1;
  if (total <= maxChars) return [words.join(' ')];
  if (maxLines < 2) return null;
  if (maxLines === 2) {
    let best = -1;
    let bestScore = -Infinity;
    let left = -1;
    for (let k = 1; k < words.length; k++) {
      left += lens[k - 1] + 1;
      const right = total - left - 1;
      if (left > maxChars || right > maxChars) continue;
      const score = breakBonus(words[k - 1]) * 0.5 - Math.abs(right - left) / maxChars + (right >= left ? 0.01 : 0);
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    }
    return best < 0 ? null : [words.slice(0, best).join(' '), words.slice(best).join(' ')];
  }
  const lines: string[] = [];
  let cur: string[] = [];
  let len = 0;
  for (let k = 0; k < words.length; k++) {
    const add = (cur.length ? 1 : 0) + lens[k];
    if (cur.length && len + add > maxChars) {
      lines.push(cur.join(' '));
      cur = [];
      len = 0;
    }
    len += (cur.length ? 1 : 0) + lens[k];
    cur.push(words[k]);
    if (len > maxChars) return null;
  }
  if (cur.length) lines.push(cur.join(' '));
  return lines.length <= maxLines ? lines : null;
}

/** Lines for words that may not fit: the wrap when possible, else greedy lines where a word too long for any line stands alone. */
function bestEffortLines(words: string[], p: CaptionProfile): string[] {
  const wrapped = wrapWords(words, p.maxCharsPerLine, p.maxLines);
  if (wrapped) return wrapped;
  const lines: string[] = [];
  let cur = '';
  let len = 0;
  for (const w of words) {
    const n = charCount(w);
    if (cur && len + 1 + n <= p.maxCharsPerLine) {
      cur += ` ${w}`;
      len += 1 + n;
    } else {
      if (cur) lines.push(cur);
      cur = w;
      len = n;
    }
  }
  if (cur) lines.push(cur);
  return lines;
}

interface Draft {
  start_ms: number;
  /** When the last word ends: the cue may show longer, never shorter (unless the next cue needs the room). */
  end_ms: number;
  lines: string[];
  speaker_id: string | null;
}

/**
 * Cue timings under the profile, in one forward pass: extend to the minimum duration and the
 * reading speed where the next cue leaves room, keep the minimum gap, never overlap, cap at the
 * maximum duration, never end before starting.
 */
function retime(drafts: Draft[], p: CaptionProfile): void {
  drafts.sort((a, b) => a.start_ms - b.start_ms);
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i];
    const next = drafts[i + 1];
    const chars = charCount(d.lines.join(' '));
    const wanted = Math.max(d.end_ms, d.start_ms + p.minDurationMs, d.start_ms + Math.ceil((chars * 1000) / p.maxCps));
    let end = Math.min(wanted, Math.max(d.end_ms, d.start_ms + p.maxDurationMs));
    if (next) {
      end = Math.min(end, next.start_ms - p.minGapMs);
      if (end <= d.start_ms) end = d.start_ms + 1; // hemmed in: the shortest cue there is
      if (next.start_ms < end) {
        // Source timings overlap: the next cue starts when this one ends.
        next.start_ms = end;
        next.end_ms = Math.max(next.end_ms, next.start_ms + 1);
      }
    }
    d.end_ms = Math.max(end, d.start_ms + 1);
  }
}

function toCaption(drafts: Draft[], speakers: CaptionContent['speakers']): CaptionContent {
  const cues: Cue[] = drafts.map((d, i) => ({ id: `c${i + 1}`, start_ms: d.start_ms, end_ms: d.end_ms, lines: d.lines, speaker_id: d.speaker_id }));
  return { kind: 'caption', version: CONTENT_VERSION, speakers: speakers.map((s) => ({ ...s })), cues };
}

/** Break a run of words (one segment) into cue-sized groups, preferring punctuation and pauses. */
function groupWords(words: Word[], p: CaptionProfile): Word[][] {
  const groups: Word[][] = [];
  const capacity = p.maxCharsPerLine * p.maxLines;
  const lens = words.map((w) => charCount(w.text));
  let i = 0;
  while (i < words.length) {
    let end = i + 1;
    let chars = lens[i];
    let full = false;
    while (end < words.length) {
      const prev = words[end - 1];
      const pause = words[end].start_ms - prev.end_ms;
      // A sentence end after enough time on screen, or a long silence, closes the cue.
      if (pause >= 3 * p.pauseMs || (prev.end_ms - words[i].start_ms >= p.minDurationMs && SENTENCE_END.test(prev.text))) break;
      const nextChars = chars + 1 + lens[end];
      const fits = nextChars <= p.maxCharsPerLine || (nextChars <= capacity && fitsLines(lens, i, end + 1, p.maxCharsPerLine, p.maxLines));
      if (!fits || words[end].end_ms - words[i].start_ms > p.maxDurationMs) {
        full = true;
        break;
      }
      chars = nextChars;
      end++;
    }
    if (full) {
      // The cue is full: take the best break inside it rather than wherever it filled up.
      let best = end;
      let bestScore = -Infinity;
      let acc = -1;
      for (let b = i + 1; b <= end; b++) {
        acc += lens[b - 1] + 1;
        const pause = b < words.length ? words[b].start_ms - words[b - 1].end_ms : 0;
        const score = breakBonus(words[b - 1].text) + (pause >= p.pauseMs ? 0.8 : 0) + (1.5 * acc) / capacity;
        if (score > bestScore) {
          bestScore = score;
          best = b;
        }
      }
      end = best;
    }
    groups.push(words.slice(i, end));
    i = end;
  }
  return groups;
}

/** Captions from a transcript: each segment's words into cues, never across segments or speakers. */
export function transcriptToCaptions(t: TranscriptContent, profile?: CaptionProfile | CaptionProfileId): CaptionContent {
  const p = resolveProfile(profile);
  const drafts: Draft[] = [];
  for (const seg of t.segments) {
    // A word's text may hold spaces (an engine's multi-word token): it stays one unit, never split.
    const words = seg.words.filter((w) => /\S/u.test(w.text)).map((w) => (/^\S+$/u.test(w.text) ? w : { ...w, text: w.text.trim().replace(/\s+/gu, ' ') }));
    for (const g of groupWords(words, p)) {
      let start = g[0].start_ms;
      let end = g[0].end_ms;
      for (const w of g) {
        start = Math.min(start, w.start_ms);
        end = Math.max(end, w.end_ms);
      }
      drafts.push({ start_ms: start, end_ms: Math.max(start, end), lines: bestEffortLines(g.map((w) => w.text), p), speaker_id: seg.speaker_id });
    }
  }
  retime(drafts, p);
  return toCaption(drafts, t.speakers);
}

export type CaptionRule = 'empty' | 'max_lines' | 'max_chars_per_line' | 'min_duration' | 'max_duration' | 'max_cps' | 'min_gap' | 'overlap';

export interface CaptionViolation {
  rule: CaptionRule;
  cue_id: string;
  cue_index: number;
  /** The offending line, for max_chars_per_line. */
  line?: number;
  actual: number;
  limit: number;
  message: string;
}

/** Every rule of `profile` that `c` breaks, each with its cue (and line), in document order. */
export function checkCaptions(c: CaptionContent, profile?: CaptionProfile | CaptionProfileId): CaptionViolation[] {
  const p = resolveProfile(profile);
  const out: CaptionViolation[] = [];
  c.cues.forEach((cue, i) => {
    const v = (rule: CaptionRule, actual: number, limit: number, message: string, line?: number) =>
      out.push({ rule, cue_id: cue.id, cue_index: i, actual, limit, message: `cue ${i + 1}: ${message}`, ...(line !== undefined ? { line } : {}) });
    const text = cue.lines.join(' ').trim();
    if (!text) v('empty', 0, 1, 'has no text');
    if (cue.lines.length > p.maxLines) v('max_lines', cue.lines.length, p.maxLines, `${cue.lines.length} lines, at most ${p.maxLines}`);
    cue.lines.forEach((l, li) => {
      const n = charCount(l);
      if (n > p.maxCharsPerLine) v('max_chars_per_line', n, p.maxCharsPerLine, `line ${li + 1} has ${n} characters, at most ${p.maxCharsPerLine}`, li);
    });
    const dur = cue.end_ms - cue.start_ms;
    if (dur < p.minDurationMs) v('min_duration', dur, p.minDurationMs, `shows for ${dur} ms, at least ${p.minDurationMs} ms`);
    if (dur > p.maxDurationMs) v('max_duration', dur, p.maxDurationMs, `shows for ${dur} ms, at most ${p.maxDurationMs} ms`);
    const cps = dur > 0 ? (charCount(text) * 1000) / dur : Infinity;
    if (text && cps > p.maxCps) v('max_cps', Math.round(cps * 10) / 10, p.maxCps, `reads at ${cps.toFixed(1)} characters a second, at most ${p.maxCps}`);
    const next = c.cues[i + 1];
    if (next) {
      const gap = next.start_ms - cue.end_ms;
      if (gap < 0) v('overlap', gap, 0, `overlaps the next cue by ${-gap} ms`);
      else if (gap < p.minGapMs) v('min_gap', gap, p.minGapMs, `leaves ${gap} ms before the next cue, at least ${p.minGapMs} ms`);
    }
  });
  return out;
}

/**
 * Fix what is fixable: drop empty cues, re-wrap lines, split cues whose text or time is too long
 * (time shared by text length), then retime for duration, reading speed, gaps and overlaps where
 * the neighbours leave room. Returns the result and what still breaks the rules.
 */
export function fixCaptions(c: CaptionContent, profile?: CaptionProfile | CaptionProfileId): { content: CaptionContent; remaining: CaptionViolation[] } {
  const p = resolveProfile(profile);
  const drafts: Draft[] = [];
  for (const cue of c.cues) {
    const words = cue.lines.flatMap(tokenize);
    if (words.length === 0) continue;
    const speaker_id = cue.speaker_id ?? null;
    const dur = cue.end_ms - cue.start_ms;
    const wrapped = wrapWords(words, p.maxCharsPerLine, p.maxLines);
    if (wrapped && (dur <= p.maxDurationMs || words.length === 1)) {
      drafts.push({ start_ms: cue.start_ms, end_ms: cue.end_ms, lines: wrapped, speaker_id });
      continue;
    }
    const timed = interpolateWords(words, cue.start_ms, cue.end_ms);
    for (const g of groupWords(timed, p)) {
      drafts.push({ start_ms: g[0].start_ms, end_ms: g[g.length - 1].end_ms, lines: bestEffortLines(g.map((w) => w.text), p), speaker_id });
    }
  }
  retime(drafts, p);
  const content = toCaption(drafts, c.speakers);
  return { content, remaining: checkCaptions(content, p) };
}
