import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CAPTION_PROFILES, captionsToTranscript, charCount, checkCaptions, fixCaptions, tokenize, transcriptToCaptions, wrapWords,
  type CaptionContent, type TranscriptContent,
} from '../../../common/transcript';

function talk(text: string, { wordMs = 350, gapMs = 50, speaker = 'a', start = 0 } = {}): TranscriptContent['segments'][number] {
  const words = text.split(' ').map((t, i) => ({ text: t, start_ms: start + i * (wordMs + gapMs), end_ms: start + i * (wordMs + gapMs) + wordMs, confidence: 0.9 }));
  return { id: `s${start}`, speaker_id: speaker, start_ms: words[0].start_ms, end_ms: words[words.length - 1].end_ms, words };
}
const doc = (...segments: TranscriptContent['segments']): TranscriptContent => ({ kind: 'transcript', version: 1, speakers: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }], segments });

describe('caption profiles', () => {
  it('ship the published numbers', () => {
    expect(CAPTION_PROFILES['netflix-like']).toMatchObject({ maxCharsPerLine: 42, maxLines: 2, minDurationMs: 833, maxDurationMs: 7000, maxCps: 20 });
    expect(CAPTION_PROFILES['netflix-like-children'].maxCps).toBe(17);
    expect(CAPTION_PROFILES['bbc-like']).toMatchObject({ maxCharsPerLine: 37, maxLines: 2 });
    expect(CAPTION_PROFILES['short-form']).toMatchObject({ maxLines: 1 });
  });
});

describe('wrapWords', () => {
  it('balances two lines and prefers a break after punctuation', () => {
    expect(wrapWords('one two three four five six seven eight nine ten eleven twelve'.split(' '), 42, 2)).toEqual(['one two three four five six seven', 'eight nine ten eleven twelve']);
    expect(wrapWords('I came, I saw the whole thing and then I conquered it all'.split(' '), 42, 2)).toEqual(['I came, I saw the whole thing', 'and then I conquered it all']);
    expect(wrapWords(['x'.repeat(43)], 42, 2)).toBeNull();
  });
});

describe('transcriptToCaptions', () => {
  it('breaks at sentence ends and never across speakers', () => {
    const c = transcriptToCaptions(doc(talk('Good morning everyone. Today we talk about rivers and lakes.'), talk('Sounds great.', { speaker: 'b', start: 6000 })));
    expect(c.cues.map((x) => x.lines.join(' '))).toEqual(['Good morning everyone.', 'Today we talk about rivers and lakes.', 'Sounds great.']);
    expect(c.cues.map((x) => x.speaker_id)).toEqual(['a', 'a', 'b']);
    expect(c.speakers).toEqual(doc().speakers);
  });

  it('prefers a pause for the break when a cue fills up', () => {
    const words = 'this sentence is long enough to fill more than one caption so it must break somewhere sensible and here is the rest of it'.split(' ');
    const seg = talk(words.join(' '), { wordMs: 200, gapMs: 20 });
    // A 600 ms pause after "somewhere".
    const k = words.indexOf('caption');
    for (const w of seg.words.slice(k + 1)) {
      w.start_ms += 600;
      w.end_ms += 600;
    }
    const c = transcriptToCaptions(doc(seg), 'netflix-like');
    expect(c.cues[0].lines.join(' ')).toBe('this sentence is long enough to fill more than one caption');
    // Without the pause the cue fills further.
    expect(transcriptToCaptions(doc(talk(words.join(' '), { wordMs: 200, gapMs: 20 })), 'netflix-like').cues[0].lines.join(' ')).not.toBe('this sentence is long enough to fill more than one caption');
  });

  it('keeps cues within the profile when speech allows', () => {
    const text = Array.from({ length: 60 }, (_, i) => `word${i}${i % 9 === 8 ? '.' : ''}`).join(' ');
    for (const id of Object.keys(CAPTION_PROFILES) as (keyof typeof CAPTION_PROFILES)[]) {
      const c = transcriptToCaptions(doc(talk(text, { wordMs: 300, gapMs: 200 })), id);
      expect(checkCaptions(c, id)).toEqual([]);
    }
  });

  const arbDoc = fc
    .array(
      fc.record({
        speaker: fc.constantFrom('a', 'b', null),
        words: fc.array(
          fc.record({
            text: fc.oneof(fc.constantFrom('hello', 'world.', 'and,', 'Ωμέγα', 'данные', '漢字', ''), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 })),
            start: fc.integer({ min: 0, max: 100_000 }),
            len: fc.integer({ min: 0, max: 3000 }),
          }),
          { maxLength: 40 },
        ),
      }),
      { maxLength: 8 },
    )
    .map((segs) => doc(...segs.map((s, i) => {
      const words = s.words.map((w) => ({ text: w.text, start_ms: w.start, end_ms: w.start + w.len, confidence: 0.5 })).sort((x, y) => x.start_ms - y.start_ms);
      return { id: `s${i}`, speaker_id: s.speaker, start_ms: words[0]?.start_ms ?? 0, end_ms: words[words.length - 1]?.end_ms ?? 0, words };
    })));

  it('property: every word appears once in order, unsplit; cues never overlap; lines fit unless one word is too long', () => {
    fc.assert(
      fc.property(arbDoc, fc.constantFrom(...(Object.keys(CAPTION_PROFILES) as (keyof typeof CAPTION_PROFILES)[])), (t, id) => {
        const p = CAPTION_PROFILES[id];
        const c = transcriptToCaptions(t, id);
        // Nothing lost, nothing invented (cues are in time order, segments need not be).
        const fromWords = t.segments.flatMap((s) => s.words.flatMap((w) => tokenize(w.text)));
        const fromCues = c.cues.flatMap((q) => q.lines.flatMap(tokenize));
        expect([...fromCues].sort()).toEqual([...fromWords].sort());
        // Never split a word: each word's text sits whole on one line of some cue.
        const lines = new Set(c.cues.flatMap((q) => q.lines.map((l) => ` ${l} `)));
        for (const s of t.segments) for (const w of s.words) {
          const text = w.text.trim().replace(/\s+/gu, ' ');
          if (text) expect([...lines].some((l) => l.includes(` ${text} `))).toBe(true);
        }
        for (let i = 0; i < c.cues.length; i++) {
          const q = c.cues[i];
          expect(q.end_ms).toBeGreaterThan(q.start_ms);
          if (i) expect(q.start_ms).toBeGreaterThanOrEqual(c.cues[i - 1].end_ms);
          for (const line of q.lines) if (charCount(line) > p.maxCharsPerLine) expect(tokenize(line)).toHaveLength(1);
        }
      }),
      { numRuns: 150 },
    );
  });

  /** Like arbDoc, with words that sometimes last longer than any cue may (held notes, long silences marked as one word). */
  const arbLongWordsDoc = arbDoc.chain((t) =>
    fc.array(fc.integer({ min: 0, max: 12_000 }), { minLength: 1, maxLength: 3 }).map((lens) => ({
      ...t,
      segments: t.segments.map((s, i) => ({ ...s, words: s.words.map((w, k) => (k % 7 === i % 7 ? { ...w, end_ms: w.start_ms + lens[k % lens.length] } : w)) })),
    })),
  );

  it('property: checkCaptions finds no broken rule the segmentation could have kept', () => {
    fc.assert(
      fc.property(fc.oneof(arbDoc, arbLongWordsDoc), fc.constantFrom(...(Object.keys(CAPTION_PROFILES) as (keyof typeof CAPTION_PROFILES)[])), (t, id) => {
        const p = CAPTION_PROFILES[id];
        const c = transcriptToCaptions(t, id);
        const words = t.segments.flatMap((s) => s.words).map((w) => ({ text: w.text.trim().replace(/\s+/gu, ' '), span: w.end_ms - w.start_ms }));
        for (const v of checkCaptions(c, id)) {
          const cue = c.cues[v.cue_index];
          const next = c.cues[v.cue_index + 1];
          const dur = cue.end_ms - cue.start_ms;
          // Times of speech are fixed: a cue starts with its first word and may only grow later,
          // up to the next cue less the minimum gap. "Hemmed in": there is no such room.
          const hemmed = next !== undefined && cue.end_ms >= next.start_ms - p.minGapMs;
          const text = cue.lines.join(' ');
          const why = `${v.message} in ${JSON.stringify(cue)} before ${JSON.stringify(next)}`;
          switch (v.rule) {
            case 'empty':
            case 'overlap':
            case 'max_lines':
              throw new Error(`never expected: ${why}`);
            case 'min_gap':
              // Only when the next cue starts within the gap of this one's start: this one is squeezed to 1 ms.
              expect(dur, why).toBe(1);
              expect(next.start_ms - p.minGapMs, why).toBeLessThanOrEqual(cue.start_ms + 1);
              break;
            case 'min_duration':
              expect(hemmed, why).toBe(true);
              break;
            case 'max_cps':
              // Hemmed in, or the text takes longer to read at the limit than a cue may last.
              expect(hemmed || Math.ceil((charCount(text) * 1000) / p.maxCps) > p.maxDurationMs, why).toBe(true);
              break;
            case 'max_duration':
              // A single word lasts longer than a cue may: the cue cannot end before its words do.
              expect(words.some((w) => w.span > p.maxDurationMs && w.text && ` ${text} `.includes(` ${w.text} `)), why).toBe(true);
              break;
            case 'max_chars_per_line':
              // A word longer than a line stands alone on it: a word is never split.
              expect(words.some((w) => w.text === cue.lines[v.line!]), why).toBe(true);
              break;
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('checkCaptions and fixCaptions', () => {
  const bad: CaptionContent = {
    kind: 'caption',
    version: 1,
    speakers: [],
    cues: [
      { id: 'a', start_ms: 0, end_ms: 400, lines: ['Short'] },
      { id: 'b', start_ms: 420, end_ms: 9000, lines: ['This line is far too long for a Netflix caption line', 'and there', 'are three lines'] },
      { id: 'c', start_ms: 8000, end_ms: 9500, lines: [''] },
      { id: 'd', start_ms: 9600, end_ms: 10000, lines: ['Way too many characters for such a short time'] },
      { id: 'e', start_ms: 20000, end_ms: 21000, lines: ['Supercalifragilisticexpialidociousnessitudeness'] },
    ],
  };

  it('lists every broken rule with its place', () => {
    const v = checkCaptions(bad, 'netflix-like');
    const summary = v.map((x) => `${x.cue_id}:${x.rule}${x.line !== undefined ? `@${x.line}` : ''}`);
    expect(summary).toEqual([
      'a:min_duration', 'a:min_gap',
      'b:max_lines', 'b:max_chars_per_line@0', 'b:max_duration', 'b:overlap',
      'c:empty',
      'd:max_chars_per_line@0', 'd:min_duration', 'd:max_cps',
      'e:max_chars_per_line@0', 'e:max_cps',
    ]);
    expect(v[0].message).toMatch(/^cue 1: shows for 400 ms, at least 833 ms/);
  });

  it('fixes what is fixable and reports what is left', () => {
    const { content, remaining } = fixCaptions(bad, 'netflix-like');
    expect(content.cues.flatMap((c) => c.lines).join(' ')).toBe(bad.cues.flatMap((c) => c.lines).filter(Boolean).join(' '));
    // Unfixable: a word longer than a line, and cues hemmed in by their neighbours.
    expect(remaining.filter((r) => r.rule === 'max_chars_per_line').map((r) => r.cue_id)).toHaveLength(1);
    expect(remaining.some((r) => ['max_lines', 'overlap', 'empty', 'max_duration'].includes(r.rule))).toBe(false);
    expect(checkCaptions(fixCaptions(content, 'netflix-like').content, 'netflix-like').length).toBeLessThanOrEqual(remaining.length);
  });
});

describe('captionsToTranscript', () => {
  it('makes one segment a cue with words timed across it', () => {
    const t = captionsToTranscript({ kind: 'caption', version: 1, speakers: [{ id: 'x', name: 'X' }], cues: [{ id: 'c1', start_ms: 1000, end_ms: 2000, lines: ['ab cd', 'ef'], speaker_id: 'x' }] });
    expect(t.segments).toHaveLength(1);
    expect(t.segments[0]).toMatchObject({ id: 'c1', speaker_id: 'x', start_ms: 1000, end_ms: 2000 });
    expect(t.segments[0].words.map((w) => [w.text, w.start_ms, w.end_ms])).toEqual([['ab', 1000, 1333], ['cd', 1333, 1667], ['ef', 1667, 2000]]);
  });
});
