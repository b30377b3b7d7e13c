/**
 * Replace a segment's text while keeping word timings, the way BBC News Labs' transcript editors
 * re-align after an edit: diff the old words against the new ones (word level, ignoring case and
 * punctuation), keep the times of words that match, give substituted words the times of the words
 * they replace, and interpolate inserted words between their neighbours. Deleted words go away.
 */
import { diffArrays } from 'diff';
import type { Segment, Word } from './model';

/** A word as the diff compares it: lower case, letters and digits only. */
export function normalizeWord(text: string): string {
  return text.toLocaleLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

export function tokenize(text: string): string[] {
  return text.split(/\s+/u).filter((t) => t.length > 0);
}

/** Spread `texts` over [start, end], each word's share proportional to its length. */
export function interpolateWords(texts: string[], start: number, end: number, confidence = 1): Word[] {
  const span = Math.max(0, end - start);
  const weights = texts.map((t) => Math.max(1, [...t].length));
  const total = weights.reduce((a, b) => a + b, 0);
  const words: Word[] = [];
  let acc = 0;
  for (let i = 0; i < texts.length; i++) {
    const s = start + Math.round((span * acc) / total);
    acc += weights[i];
    const e = start + Math.round((span * acc) / total);
    words.push({ text: texts[i], start_ms: s, end_ms: e, confidence });
  }
  return words;
}

/** The words of `newText`, timed from `oldWords` wherever the diff matches them. */
export function realignWords(oldWords: Word[], newText: string, bounds?: { start_ms: number; end_ms: number }): Word[] {
  const tokens = tokenize(newText);
  const changes = diffArrays(
    oldWords.map((w) => normalizeWord(w.text) || w.text),
    tokens.map((t) => normalizeWord(t) || t),
  );
  const out: Word[] = [];
  let oi = 0; // next old word
  let ni = 0; // next new token
  const lowerBound = bounds?.start_ms ?? oldWords[0]?.start_ms ?? 0;
  const upperBound = bounds?.end_ms ?? oldWords[oldWords.length - 1]?.end_ms ?? lowerBound;
  for (let c = 0; c < changes.length; c++) {
    const ch = changes[c];
    const n = ch.count ?? ch.value.length;
    if (!ch.added && !ch.removed) {
      for (let k = 0; k < n; k++) out.push({ ...oldWords[oi + k], text: tokens[ni + k] });
      oi += n;
      ni += n;
      continue;
    }
    // Gather a run of removals and additions: together they are one replacement.
    let removed = 0;
    let added = 0;
    while (c < changes.length && (changes[c].added || changes[c].removed)) {
      const cnt = changes[c].count ?? changes[c].value.length;
      if (changes[c].removed) removed += cnt;
      else added += cnt;
      c++;
    }
    c--;
    const gone = oldWords.slice(oi, oi + removed);
    const fresh = tokens.slice(ni, ni + added);
    oi += removed;
    ni += added;
    if (fresh.length === 0) continue;
    if (gone.length === fresh.length) {
      // Word-for-word substitution: each new word takes the time of the word it replaces.
      fresh.forEach((t, k) => out.push({ text: t, start_ms: gone[k].start_ms, end_ms: gone[k].end_ms, confidence: 1 }));
      continue;
    }
    let start: number;
    let end: number;
    if (gone.length > 0) {
      start = gone[0].start_ms;
      end = Math.max(start, gone[gone.length - 1].end_ms);
    } else {
      start = out.length ? out[out.length - 1].end_ms : lowerBound;
      end = oi < oldWords.length ? oldWords[oi].start_ms : upperBound;
      if (end < start) end = start;
    }
    out.push(...interpolateWords(fresh, start, end));
  }
  return out;
}

/** A copy of `segment` whose text is `newText`; segment bounds follow the words when there are any. */
export function replaceSegmentText(segment: Segment, newText: string): Segment {
  const words = realignWords(segment.words, newText, segment);
  if (words.length === 0) return { ...segment, words };
  return {
    ...segment,
    words,
    start_ms: Math.min(segment.start_ms, words[0].start_ms),
    end_ms: Math.max(segment.end_ms, words[words.length - 1].end_ms),
  };
}
