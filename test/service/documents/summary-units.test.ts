/** The summary's units and selection, on word lists shaped like a recogniser's (no punctuation; times tell the pauses). */
import { describe, expect, it } from 'vitest';
import type { TranscriptContent, Word } from '../../../common/transcript/model';
import { PAUSE_MS, pickSummary, summaryUnits } from '../../../service/documents/summary';
import { textRank } from '../../../service/engines/summarize';

/** Words 250 ms each, 50 ms apart, with a longer pause before the words listed in `pauseBefore`. */
function timed(text: string, pauseBefore: Set<number> = new Set(), from = 0): Word[] {
  let t = from;
  return text.split(' ').map((w, i) => {
    t += pauseBefore.has(i) ? PAUSE_MS + 100 : 50;
    const word = { text: w, start_ms: t, end_ms: t + 250, confidence: 0.9 };
    t += 250;
    return word;
  });
}

const transcript = (...segments: Word[][]): TranscriptContent => ({
  kind: 'transcript',
  version: 1,
  speakers: [],
  segments: segments.map((words, i) => ({ id: `s${i}`, speaker_id: null, start_ms: words[0].start_ms, end_ms: words.at(-1)!.end_ms, words })),
});

describe('units', () => {
  it('end at a clear pause and at segment bounds, never inside a run of close words', () => {
    const a = timed('the budget for the library is too small this year we must ask the council for more', new Set([10]));
    const b = timed('lunch is at noon upstairs today', new Set(), 20_000);
    const units = summaryUnits(transcript(a, b));
    expect(units.map((u) => u.text)).toEqual(['the budget for the library is too small this year', 'we must ask the council for more', 'lunch is at noon upstairs today']);
    expect(units[1].start_ms).toBe(a[10].start_ms);
    expect(units[1].end_ms).toBe(a.at(-1)!.end_ms);
  });

  it('cut a long pauseless stretch at its longest gap, and join a short piece to its nearer neighbour', () => {
    const long = timed(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '));
    // The longest inner gap (170 ms, still under PAUSE_MS) is before word 17.
    for (const w of long.slice(17)) {
      w.start_ms += 120;
      w.end_ms += 120;
    }
    const units = summaryUnits(transcript(long));
    expect(units[0].words).toBe(17);
    expect(units.every((u) => u.words <= 24 && u.words >= 4)).toBe(true);
    const short = summaryUnits(transcript(timed('yes we agree on the plan for the garden', new Set([2]))));
    expect(short.map((u) => u.text)).toEqual(['yes we agree on the plan for the garden']);
  });
});

describe('selection', () => {
  it('keeps the unit TextRank ranks highest, adds others within a quarter of the words, in reading order', () => {
    const texts = [
      'the library budget is too small',
      'my cousin bought a red bicycle',
      'the council wants a smaller library budget',
      'we ask the council to keep the library budget',
      'the weather was cold this morning',
      'coffee is in the kitchen now',
      'the library budget will be voted next week',
      'please close the windows when you leave',
    ];
    let t = 0;
    const units = texts.map((s) => {
      const n = s.split(' ').length;
      const u = { text: s, start_ms: t, end_ms: t + n * 300, words: n };
      t += n * 300 + 1000;
      return u;
    });
    const picked = pickSummary(units, 0.25);
    const total = units.reduce((n, u) => n + u.words, 0);
    expect(picked.reduce((n, u) => n + u.words, 0)).toBeLessThanOrEqual(Math.round(total * 0.25));
    const scores = textRank(texts);
    expect(picked.map((u) => u.text)).toContain(texts[scores.indexOf(Math.max(...scores))]);
    expect(picked.length).toBeGreaterThan(1);
    expect(picked.some((u) => /bicycle|weather|coffee|windows/.test(u.text))).toBe(false);
    expect(picked.map((u) => u.start_ms)).toEqual([...picked.map((u) => u.start_ms)].sort((x, y) => x - y));
  });

  it('a text of one unit is its own summary', () => {
    const u = [{ text: 'only this', start_ms: 0, end_ms: 500, words: 2 }];
    expect(pickSummary(u)).toEqual(u);
  });
});
