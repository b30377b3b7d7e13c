/** Writer then reader gives the same cues and text, for every caption format, over random documents. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCaptions, renderExport, resolveSource, outputCues, FormatError } from '../../../common/formats';
import type { CaptionContent } from '../../../common/transcript';

type Fmt = 'srt' | 'vtt' | 'sbv' | 'ttml' | 'stl';
const shape = (c: CaptionContent) => c.cues.map((q) => ({ start_ms: q.start_ms, end_ms: q.end_ms, lines: q.lines }));

const text = (unit: 'grapheme' | fc.Arbitrary<string>, specials = true) =>
  !specials ? fc.oneof(fc.string({ unit, maxLength: 50 }), fc.string({ unit, maxLength: 200 })) : fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit, maxLength: 50 }) },
    { weight: 1, arbitrary: fc.constantFrom('', '   ', 'a  b\tc', 'Ελληνικά και Русский', 'ß & <b>bold</b> "quotes" \'apos\'', '-->', 'x'.repeat(200), '10:00:00,000 --> x', 'NOTE this', '&amp; &lt;') },
  );
const caption = (unit: 'grapheme' | fc.Arbitrary<string>, mapLine = (l: string) => l, specials = true) =>
  fc
    .array(
      fc.record({
        start: fc.integer({ min: 0, max: 36_000_000 }),
        dur: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10_000 })),
        lines: fc.array(text(unit, specials).map(mapLine), { maxLength: 3 }),
      }),
      { maxLength: 25 },
    )
    .map((cues): CaptionContent => ({
      kind: 'caption',
      version: 1,
      speakers: [],
      cues: cues.map((c, i) => ({ id: `c${i}`, start_ms: c.start, end_ms: c.start + c.dur, lines: c.lines })),
    }));

function expected(format: Fmt, c: CaptionContent) {
  return outputCues(resolveSource(format, c), { speakers: 'none' }).map(({ start_ms, end_ms, lines }) => ({ start_ms, end_ms, lines }));
}

function checkNoOverlap(c: CaptionContent) {
  for (let i = 0; i < c.cues.length; i++) {
    expect(c.cues[i].start_ms).toBeGreaterThanOrEqual(0);
    expect(c.cues[i].end_ms).toBeGreaterThan(c.cues[i].start_ms);
    if (i) expect(c.cues[i].start_ms).toBeGreaterThanOrEqual(c.cues[i - 1].end_ms);
  }
}

describe('round trip: writer then reader', () => {
  for (const format of ['vtt', 'sbv', 'ttml'] as const) {
    it(`${format}: same cues and text for random Unicode documents`, () => {
      fc.assert(
        fc.property(caption('grapheme'), (c) => {
          const back = parseCaptions(format, renderExport(format, c, { speakers: 'none' }) as Uint8Array);
          expect(shape(back)).toEqual(expected(format, c));
          checkNoOverlap(back);
        }),
        { numRuns: 120 },
      );
    });
  }

  it('srt: same cues and text (text without SubRip formatting tags, which readers treat as styling)', () => {
    fc.assert(
      fc.property(caption('grapheme', (l) => l.replace(/[<{]/g, '(')), (c) => {
        const back = parseCaptions('srt', renderExport('srt', c, { speakers: 'none' }) as Uint8Array);
        expect(shape(back)).toEqual(expected('srt', c));
        checkNoOverlap(back);
      }),
      { numRuns: 120 },
    );
  });

  it('stl: same text and times to the frame, for text in the Latin code table', () => {
    const latin = fc.string({ unit: fc.constantFrom(...'abcxyzABCXYZ 0123456789.,!?\'"-()&éèêëàâäçñöüßÆøœŁ'.split('')), maxLength: 38 });
    fc.assert(
      fc.property(caption(latin, (l) => l, false), fc.constantFrom(25, 30, 29.97), (c, fps) => {
        const doc = { document: { document_type: 'caption' as const, metadata: { frame_rate: fps }, content: c } };
        const bytes = renderExport('stl', doc, { speakers: 'none' }) as Uint8Array;
        const back = parseCaptions('stl', bytes);
        const want = expected('stl', c);
        // Rows longer than the format's 40 are re-wrapped (a longer word is cut): every character survives, in order.
        const chars = (lines: string[]) => lines.join('').replace(/ /g, '');
        expect(back.cues.map((q) => chars(q.lines))).toEqual(want.map((q) => chars(q.lines)));
        for (const q of back.cues) for (const l of q.lines) expect([...l].length).toBeLessThanOrEqual(40);
        expect(Number(String.fromCharCode(bytes[251], bytes[252]))).toBeLessThanOrEqual(40); // GSI MNC
        const frame = fps === 25 ? 40 : 1001 / 30;
        back.cues.forEach((q, i) => {
          // Frames are floored; a start pushed past a same-frame neighbour moves by whole frames.
          expect(q.start_ms).toBeGreaterThanOrEqual(want[i].start_ms - frame - 1);
          if (i === 0 || want[i].start_ms - want[i - 1].end_ms >= frame) expect(q.start_ms).toBeLessThanOrEqual(want[i].start_ms + 1);
        });
        checkNoOverlap(back);
      }),
      { numRuns: 120 },
    );
  });

  it('stl: Latin, Greek or Cyrillic documents with empty lines, long words, many-row cues and speakers: every character back, times to the frame', () => {
    const scripts = {
      '00': 'abcxyzABCXYZ0123456789.,!?\'"-()&éèêëàâäçñöüßÆøœŁ',
      '01': 'абвгдежзийклмнопрстуфхцчшщъыьэюяАБВЖЯЁё0123456789.,!?-',
      '03': 'αβγδεζηθικλμνξοπρστυφχψωςΑΒΓΔΘΛΞΠΣΦΨΩάέήίόύώϊΰ0123456789.,!?-',
    } as const;
    const doc = fc.constantFrom(...(Object.keys(scripts) as (keyof typeof scripts)[])).chain((table) => {
      const w = fc.oneof({ weight: 5, arbitrary: fc.string({ unit: fc.constantFrom(...scripts[table]), minLength: 1, maxLength: 12 }) }, { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...scripts[table]), minLength: 41, maxLength: 130 }) });
      const line = fc.oneof({ weight: 6, arbitrary: fc.array(w, { maxLength: 8 }).map((ws) => ws.join(' ')) }, { weight: 1, arbitrary: fc.constant('') });
      const cue = fc.record({ start: fc.integer({ min: 0, max: 3_600_000 }), dur: fc.integer({ min: 0, max: 20_000 }), speaker: fc.nat(2), lines: fc.oneof({ weight: 5, arbitrary: fc.array(line, { maxLength: 4 }) }, { weight: 1, arbitrary: fc.array(line, { minLength: 20, maxLength: 70 }) }) });
      return fc.record({ table: fc.constant(table), names: fc.tuple(w, w), fps: fc.constantFrom(25, 30, 29.97), cues: fc.array(cue, { maxLength: 12 }) });
    });
    fc.assert(
      fc.property(doc, ({ table, names, fps, cues }) => {
        const content: CaptionContent = {
          kind: 'caption', version: 1, speakers: names.map((name, i) => ({ id: `p${i}`, name })),
          cues: cues.map((c, i) => ({ id: `c${i}`, start_ms: c.start, end_ms: c.start + c.dur, lines: c.lines, speaker_id: c.speaker < 2 ? `p${c.speaker}` : null })),
        };
        const input = { document: { document_type: 'caption' as const, metadata: { frame_rate: fps }, content } };
        const bytes = renderExport('stl', input) as Uint8Array;
        const back = parseCaptions('stl', bytes).cues;
        const want = outputCues(resolveSource('stl', input), { speakers: 'prefix' });
        if (want.length) expect(['00', table]).toContain(String.fromCharCode(bytes[12], bytes[13])); // GSI CCT (digits alone need no table)
        const chars = (lines: string[]) => lines.join('').replace(/ /g, '');
        // Rows are re-wrapped at 40 characters (a longer word is cut) and a cue of more than 23 rows
        // becomes consecutive subtitles: take back cues until they hold the wanted cue's characters.
        const frame = fps === 25 ? 40 : 1001 / 30;
        let k = 0;
        want.forEach((q, i) => {
          const text = chars([(q.turn ? `${q.speaker}: ` : '') + q.lines[0], ...q.lines.slice(1)]);
          const first = k;
          let got = '';
          while (got.length < text.length && k < back.length) got += chars(back[k++].lines);
          expect(got).toBe(text);
          expect(back[first].start_ms).toBeGreaterThanOrEqual(q.start_ms - frame - 1);
          if (i === 0 || q.start_ms - want[i - 1].end_ms >= frame) expect(back[first].start_ms).toBeLessThanOrEqual(q.start_ms + 1);
          for (const c of back.slice(first, k)) {
            expect(c.lines.length).toBeLessThanOrEqual(23);
            for (const l of c.lines) expect([...l].length).toBeLessThanOrEqual(40);
          }
        });
        expect(k).toBe(back.length);
        checkNoOverlap(parseCaptions('stl', bytes));
      }),
      { numRuns: 150 },
    );
  });

  it('stl: Cyrillic and Greek pick their code tables and come back intact', () => {
    for (const [line, table] of [['Привет, мир! Съешь же ещё этих булок', '01'], ['Καλημέρα κόσμε, ΆΈΉ ϊΰ', '03']] as const) {
      const c: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [{ id: 'a', start_ms: 1000, end_ms: 2000, lines: [line] }] };
      const bytes = renderExport('stl', c) as Uint8Array;
      expect(String.fromCharCode(bytes[12], bytes[13])).toBe(table);
      expect(parseCaptions('stl', bytes).cues[0].lines).toEqual([line]);
    }
  });

  it('vtt voice tags and ttml agents carry speakers both ways', () => {
    const c: CaptionContent = {
      kind: 'caption', version: 1, speakers: [{ id: 'x', name: 'Zoë <Host> & co' }],
      cues: [{ id: 'a', start_ms: 0, end_ms: 1000, lines: ['hi'], speaker_id: 'x' }, { id: 'b', start_ms: 1000, end_ms: 2000, lines: ['there'] }],
    };
    for (const f of ['vtt', 'ttml'] as const) {
      const back = parseCaptions(f, renderExport(f, c, { speakers: f === 'vtt' ? 'voice' : 'none' }) as Uint8Array);
      expect(back.speakers).toEqual([{ id: 'spk-1', name: 'Zoë <Host> & co' }]);
      expect(back.cues.map((q) => [q.lines, q.speaker_id])).toEqual([[['hi'], 'spk-1'], [['there'], null]]);
    }
    const srt = new TextDecoder().decode(renderExport('srt', c) as Uint8Array);
    expect(srt).toContain('Zoë <Host> & co: hi');
  });

  it('honours timecode_offset and frame rate in every caption format; the reader can subtract it', () => {
    const c: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [{ id: 'a', start_ms: 1000, end_ms: 2000, lines: ['hello'] }] };
    const doc = { timecode_offset: '10:00:00:12', document: { document_type: 'caption' as const, metadata: { frame_rate: 25 }, content: c } };
    for (const f of ['srt', 'vtt', 'sbv', 'ttml', 'stl'] as const) {
      const bytes = renderExport(f, doc) as Uint8Array;
      expect(parseCaptions(f, bytes).cues[0]).toMatchObject({ start_ms: 36_001_480, end_ms: 36_002_480 });
      expect(parseCaptions(f, bytes, { timecodeOffset: '10:00:00:12', frameRate: 25 }).cues[0]).toMatchObject({ start_ms: 1000, end_ms: 2000 });
    }
    const stl = renderExport('stl', doc) as Uint8Array;
    expect(String.fromCharCode(...stl.subarray(256, 264))).toBe('10000012'); // GSI TCP
    expect(String.fromCharCode(...stl.subarray(3, 11))).toBe('STL25.01'); // GSI DFC
    expect(() => renderExport('srt', { ...doc, timecode_offset: '10:00:00:30' })).toThrow(FormatError);
  });

  it('transcripts become captions through a profile', () => {
    const words = 'One two three. Four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen.'.split(' ');
    const t = { kind: 'transcript' as const, version: 1 as const, speakers: [], segments: [{ id: 's', speaker_id: null, start_ms: 0, end_ms: 9000, words: words.map((text, i) => ({ text, start_ms: i * 500, end_ms: i * 500 + 400, confidence: 1 })) }] };
    const back = parseCaptions('srt', renderExport('srt', t, { profile: 'short-form' }) as Uint8Array);
    expect(back.cues[0].lines).toEqual(['One two three.']);
    for (const q of back.cues) expect(q.lines.length).toBe(1);
    expect(back.cues.flatMap((q) => q.lines).join(' ')).toBe(words.join(' '));
  });
});
