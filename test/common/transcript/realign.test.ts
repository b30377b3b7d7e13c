import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { realignWords, replaceSegmentText, type Segment, type Word } from '../../../common/transcript';

const w = (text: string, start_ms: number, end_ms: number, confidence = 0.8): Word => ({ text, start_ms, end_ms, confidence });
const seg = (words: Word[]): Segment => ({ id: 's1', speaker_id: null, start_ms: words[0]?.start_ms ?? 0, end_ms: words[words.length - 1]?.end_ms ?? 0, words });

describe('replaceSegmentText (word-level realignment)', () => {
  const base = seg([w('the', 0, 200), w('quick', 250, 500), w('brown', 600, 900), w('fox', 1000, 1300)]);

  it('keeps the timings of unchanged words, even when case and punctuation change', () => {
    const out = replaceSegmentText(base, 'The quick brown fox.');
    expect(out.words.map((x) => [x.text, x.start_ms, x.end_ms, x.confidence])).toEqual([
      ['The', 0, 200, 0.8],
      ['quick', 250, 500, 0.8],
      ['brown', 600, 900, 0.8],
      ['fox.', 1000, 1300, 0.8],
    ]);
  });

  it('gives a substituted word the time of the word it replaces', () => {
    const out = replaceSegmentText(base, 'the quick red fox');
    expect(out.words[2]).toEqual({ text: 'red', start_ms: 600, end_ms: 900, confidence: 1 });
    expect(out.words[3]).toEqual(base.words[3]);
  });

  it('drops deleted words and keeps the rest', () => {
    const out = replaceSegmentText(base, 'the fox');
    expect(out.words).toEqual([base.words[0], base.words[3]]);
  });

  it('interpolates inserted words inside the gap between their neighbours', () => {
    const out = replaceSegmentText(base, 'the quick and very brown fox');
    const [and, very] = [out.words[2], out.words[3]];
    expect(and.text).toBe('and');
    expect(very.text).toBe('very');
    expect(and.start_ms).toBe(500);
    expect(very.end_ms).toBe(600);
    expect(and.end_ms).toBeLessThanOrEqual(very.start_ms);
    expect(out.words[4]).toEqual(base.words[2]);
  });

  it('spreads several words over the span of fewer replaced words', () => {
    const out = replaceSegmentText(base, 'the quick grey little fox');
    expect(out.words.slice(2, 4).map((x) => x.text)).toEqual(['grey', 'little']);
    expect(out.words[2].start_ms).toBe(600);
    expect(out.words[3].end_ms).toBe(900);
  });

  it('times words typed into an empty segment across the segment', () => {
    const empty: Segment = { id: 'e', speaker_id: null, start_ms: 1000, end_ms: 3000, words: [] };
    const out = replaceSegmentText(empty, 'hello world');
    expect(out.words[0].start_ms).toBe(1000);
    expect(out.words[1].end_ms).toBe(3000);
  });

  it('property: unchanged words keep their times, times stay ordered and in bounds', () => {
    const vocab = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'Ωmega', 'эхо', 'x', 'the');
    fc.assert(
      fc.property(fc.array(vocab, { minLength: 1, maxLength: 25 }), fc.array(vocab, { maxLength: 25 }), (oldTexts, newTexts) => {
        const words = oldTexts.map((t, i) => w(t, i * 500, i * 500 + 300));
        const out = realignWords(words, newTexts.join(' '));
        expect(out.map((x) => x.text)).toEqual(newTexts);
        for (let i = 0; i < out.length; i++) {
          expect(out[i].end_ms).toBeGreaterThanOrEqual(out[i].start_ms);
          if (i) expect(out[i].start_ms).toBeGreaterThanOrEqual(out[i - 1].start_ms);
          expect(out[i].start_ms).toBeGreaterThanOrEqual(0);
          expect(out[i].end_ms).toBeLessThanOrEqual(words[words.length - 1].end_ms);
        }
        // Identity edit: every word keeps its time exactly.
        expect(realignWords(words, oldTexts.join(' '))).toEqual(words);
      }),
    );
  });

  it('property: an edit keeps the times of every word it leaves alone; new words sit between their kept neighbours', () => {
    // Old words are distinct, so which word the diff keeps is never ambiguous; a kept word may
    // change case or punctuation (still the same word); other words are deleted, substituted or
    // joined by inserted ones.
    const op = fc.record({ kind: fc.constantFrom('keep', 'keep', 'restyle', 'delete', 'substitute'), inserts: fc.nat(2) });
    const timing = fc.record({ gap: fc.integer({ min: 0, max: 800 }), len: fc.integer({ min: 0, max: 900 }) });
    fc.assert(
      fc.property(fc.array(fc.tuple(timing, op), { minLength: 1, maxLength: 30 }), fc.nat(2), (plan, trailing) => {
        let t = 0;
        const old = plan.map(([{ gap, len }], i) => w(`w${i}`, (t += gap), (t += len), 0.5 + (i % 5) / 10));
        const tokens: { text: string; kept?: Word }[] = [];
        let fresh = 0;
        plan.forEach(([, o], i) => {
          for (let k = 0; k < o.inserts; k++) tokens.push({ text: `new${fresh++}` });
          if (o.kind === 'keep') tokens.push({ text: old[i].text, kept: old[i] });
          if (o.kind === 'restyle') tokens.push({ text: `${old[i].text.toUpperCase()},`, kept: old[i] });
          if (o.kind === 'substitute') tokens.push({ text: `new${fresh++}` });
        });
        for (let k = 0; k < trailing; k++) tokens.push({ text: `new${fresh++}` });

        const out = replaceSegmentText(seg(old), tokens.map((x) => x.text).join(' ')).words;
        expect(out.map((x) => x.text)).toEqual(tokens.map((x) => x.text));
        const lower = old[0].start_ms;
        const upper = old[old.length - 1].end_ms;
        out.forEach((x, i) => {
          const kept = tokens[i].kept;
          if (kept) {
            expect([x.start_ms, x.end_ms, x.confidence]).toEqual([kept.start_ms, kept.end_ms, kept.confidence]);
            return;
          }
          // Between the kept words around it (or the segment's bounds).
          const before = tokens.slice(0, i).reverse().find((y) => y.kept)?.kept;
          const after = tokens.slice(i + 1).find((y) => y.kept)?.kept;
          expect(x.start_ms).toBeGreaterThanOrEqual(before ? before.end_ms : lower);
          expect(x.end_ms).toBeLessThanOrEqual(after ? after.start_ms : upper);
          expect(x.end_ms).toBeGreaterThanOrEqual(x.start_ms);
          if (i) expect(x.start_ms).toBeGreaterThanOrEqual(out[i - 1].start_ms);
        });
      }),
      { numRuns: 300 },
    );
  });
});
