/**
 * The word-level alignment of a given text to the recognised words by sequence alignment (an LCS
 * diff over normalised words, from the `diff` package). Matched words take their recognised times;
 * runs of unmatched words take the time of what was heard in their place, or share the gap between
 * their matched neighbours, so every word gets a time and times never go backwards. Pure: it runs
 * on the service's offload threads (service/offload/).
 */
import { diffArrays, type ChangeObject } from 'diff';
import type { Segment, Word } from '../../common/transcript/model';

/**
 * The diff's bounds: Myers' diff costs (given + heard) x edits, so a text that has little to do
 * with the speech (many edits) could run for minutes. Past either bound the diff gives up and the
 * whole text is spread over what was heard, as one long substitution.
 */
export const DIFF_MAX_EDITS = 20_000;
export const DIFF_TIMEOUT_MS = 5_000;

/** The diff of given against heard words, or one substitution of all by all when it is past its bounds. */
function boundedDiff(a: string[], b: string[]): ChangeObject<string[]>[] {
  const parts = diffArrays(a, b, { maxEditLength: DIFF_MAX_EDITS, timeout: DIFF_TIMEOUT_MS });
  if (parts) return parts;
  return [
    { value: a, count: a.length, removed: true, added: false },
    { value: b, count: b.length, removed: false, added: true },
  ];
}

/** About how long a spoken word lasts (150 words a minute, with their gaps). */
const TYPICAL_WORD_MS = 400;

const norm = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');

export interface Timed {
  start: number;
  end: number;
  confidence: number;
}

/** For each given token, its time: from the recognised word it matched, or interpolated. */
export function alignTokens(tokens: string[], recognized: Word[], durationMs: number): Timed[] {
  const times: (Timed | null)[] = tokens.map(() => null);
  const a = tokens.map(norm);
  const b = recognized.map((w) => norm(w.text));
  let i = 0;
  let j = 0;
  // A run of given words the recogniser heard differently (a substitution: removed beside added)
  // takes the time of what it heard there, not the whole gap to its matched neighbours.
  let given: number[] = [];
  let heard: Word[] = [];
  const settle = () => {
    if (given.length > 0 && heard.length > 0) {
      const from = heard[0].start_ms;
      const step = Math.max(0, heard.at(-1)!.end_ms - from) / given.length;
      given.forEach((t, x) => {
        const start = Math.round(from + step * x);
        times[t] = { start, end: Math.max(start, Math.round(from + step * (x + 1))), confidence: 0 };
      });
    }
    given = [];
    heard = [];
  };
  for (const part of boundedDiff(a, b)) {
    const n = part.count ?? part.value.length;
    if (part.added) {
      heard.push(...recognized.slice(j, j + n));
      j += n;
    } else if (part.removed) {
      for (let x = 0; x < n; x++) given.push(i + x);
      i += n;
    } else {
      settle();
      for (let k = 0; k < n; k++, i++, j++) {
        const r = recognized[j];
        times[i] = { start: r.start_ms, end: r.end_ms, confidence: r.confidence };
      }
    }
  }
  settle();
  // Words nothing was heard for share the gap between their neighbours; before the first heard
  // word and after the last, they take about a word's length each next to it, not all the silence to 0 or to the end.
  let k = 0;
  while (k < times.length) {
    if (times[k]) {
      k++;
      continue;
    }
    let e = k;
    while (e < times.length && !times[e]) e++;
    const n = e - k;
    let from = k > 0 ? times[k - 1]!.end : null;
    let to = e < times.length ? times[e]!.start : null;
    if (from === null) from = Math.max(0, (to ?? 0) - n * TYPICAL_WORD_MS);
    if (to === null) to = Math.max(from, Math.min(durationMs, from + n * TYPICAL_WORD_MS));
    const step = Math.max(0, to - from) / n;
    for (let x = k; x < e; x++) {
      const start = Math.round(from + step * (x - k));
      times[x] = { start, end: Math.max(start, Math.round(from + step * (x - k + 1))), confidence: 0 };
    }
    k = e;
  }
  // Guard monotonicity against overlapping recognised words.
  let last = 0;
  return times.map((t) => {
    const start = Math.max(t!.start, last);
    const end = Math.max(start, t!.end);
    last = end;
    return { start, end, confidence: t!.confidence };
  });
}


/** Sentences (or lines) of the given text become segments. */
function splitSegments(text: string): string[][] {
  return text
    .split(/\n+|(?<=[.!?])\s+/)
    .map((s) => s.split(/\s+/).filter(Boolean))
    .filter((s) => s.length > 0);
}

/** The given text as timed segments (a sentence or line each), and how many of its words matched what was heard. */
export function alignText(text: string, recognized: Word[], durationMs: number): { segments: Segment[]; matched: number } {
  const sentences = splitSegments(text.trim());
  const times = alignTokens(sentences.flat(), recognized, durationMs);
  let t = 0;
  const segments: Segment[] = sentences.map((tokens, idx) => {
    const words = tokens.map((token) => {
      const tm = times[t++];
      return { text: token, start_ms: tm.start, end_ms: tm.end, confidence: tm.confidence };
    });
    return { id: `s${idx + 1}`, speaker_id: null, start_ms: words[0].start_ms, end_ms: words.at(-1)!.end_ms, words };
  });
  return { segments, matched: times.filter((x) => x.confidence > 0).length };
}
