/** Malformed input: a FormatError naming the line or byte offset, never a crash or a partial result. */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError, parseCaptions, readStlInfo, renderExport } from '../../../common/formats';
import { decodeStlChar, encodeStlText } from '../../../common/formats/stl-charset';
import type { CaptionContent } from '../../../common/transcript';
import { errorOf } from './helpers';

const one: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [{ id: 'a', start_ms: 1000, end_ms: 2000, lines: ['Hello'] }, { id: 'b', start_ms: 3000, end_ms: 4000, lines: ['World'] }] };

describe('readers reject malformed input with its place', () => {
  it('SRT', () => {
    expect(errorOf(() => parseCaptions('srt', '1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n00:00:03,000 -> 00:00:04,000\nThere\n')).line).toBe(6);
    expect(errorOf(() => parseCaptions('srt', 'just some text\n')).line).toBe(1);
    expect(errorOf(() => parseCaptions('srt', '1\n00:00:05,000 --> 00:00:04,000\nback\n')).message).toMatch(/ends before it starts \(line 2\)/);
    expect(errorOf(() => parseCaptions('srt', Uint8Array.from([0x31, 0x0a, 0xff, 0xfe]))).byteOffset).toBe(2);
  });

  it('VTT', () => {
    expect(errorOf(() => parseCaptions('vtt', '00:01.000 --> 00:02.000\nno header\n')).line).toBe(1);
    expect(errorOf(() => parseCaptions('vtt', 'WEBVTT\n\nNOTE fine\n\nid\n00:01.000 --> 00:02,000\nbad comma\n')).line).toBe(6);
    const ok = parseCaptions('vtt', 'WEBVTT - title\n\nSTYLE\n::cue { color: red }\n\n00:01.000 --> 00:02.500 align:start\n<v.loud Mary>Hi &amp; <i>bye</i>\n');
    expect(ok.cues).toEqual([{ id: 'c1', start_ms: 1000, end_ms: 2500, lines: ['Hi & bye'], speaker_id: 'spk-1' }]);
    expect(ok.speakers).toEqual([{ id: 'spk-1', name: 'Mary' }]);
  });

  it('SBV', () => {
    expect(errorOf(() => parseCaptions('sbv', '0:00:01.000,0:00:02.000\nok\n\n0:00:03.000 0:00:04.000\nbad\n')).line).toBe(4);
  });

  it('TTML', () => {
    expect(errorOf(() => parseCaptions('ttml', '<tt xmlns="http://www.w3.org/ns/ttml">\n<body>\n<p begin="1s" end="2s">x</div>\n</body></tt>')).line).toBe(3);
    const badTime = errorOf(() => parseCaptions('ttml', '<tt xmlns="http://www.w3.org/ns/ttml">\n<body>\n<div>\n<p begin="1s" end="2s">ok</p>\n<p xml:id="p9" begin="soon" end="2s">x</p></div></body></tt>'));
    expect(badTime.message).toMatch(/p9.*invalid begin time "soon"/);
    expect(badTime.line).toBe(5);
    const untimed = errorOf(() => parseCaptions('ttml', '<tt xmlns="http://www.w3.org/ns/ttml"><body>\n<div>\n\n<p>untimed</p></div></body></tt>'));
    expect(untimed.message).toMatch(/paragraph 1 has no end time/);
    expect(untimed.line).toBe(4);
    expect(errorOf(() => parseCaptions('ttml', '<html/>')).message).toMatch(/no <tt>/);
  });

  it('TTML reader handles frames, ticks, offsets, nested timing and spans', () => {
    const x = `<?xml version="1.0"?><tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="25" ttp:tickRate="10000000">
      <body begin="10s"><div begin="1s">
        <p begin="00:00:01:05" end="00:00:02:00">  frames <span>and   spans</span><br/>second line </p>
        <p begin="30000000t" dur="500ms">ticks</p>
        <p begin="0.1h" end="6.5m">hours</p>
      </div></body></tt>`;
    expect(parseCaptions('ttml', x).cues.map((c) => [c.start_ms, c.end_ms, c.lines])).toEqual([
      [12_200, 13_000, ['frames and spans', 'second line']],
      [14_000, 14_500, ['ticks']],
      [371_000, 401_000, ['hours']],
    ]);
  });

  it('EBU STL', () => {
    const good = renderExport('stl', one) as Uint8Array;
    expect(readStlInfo(good)).toMatchObject({ frameRate: 25, codeTable: '00', startOfProgramme: '00:00:00:00', subtitles: 2 });
    expect(errorOf(() => parseCaptions('stl', good.subarray(0, 500))).byteOffset).toBe(500);
    expect(errorOf(() => parseCaptions('stl', good.subarray(0, good.length - 10))).byteOffset).toBe(1024 + 128);
    const badDfc = good.slice();
    badDfc.set([0x58], 3);
    expect(errorOf(() => parseCaptions('stl', badDfc)).byteOffset).toBe(3);
    const badTc = good.slice();
    badTc[1024 + 128 + 8] = 99; // frames of the second subtitle's TCI
    expect(errorOf(() => parseCaptions('stl', badTc)).byteOffset).toBe(1024 + 128 + 5);
    const badCount = good.slice();
    badCount.set([0x30, 0x30, 0x30, 0x30, 0x39], 238);
    expect(errorOf(() => parseCaptions('stl', badCount)).byteOffset).toBe(238);
    expect(errorOf(() => parseCaptions('stl', 'text')).message).toMatch(/binary/);
  });

  it('unknown formats are an error', () => {
    expect(errorOf(() => parseCaptions('docx', 'x')).message).toMatch(/cannot read/);
  });

  it('property: any input either parses or throws a FormatError, for every reader', () => {
    const seeds = ['srt', 'vtt', 'sbv', 'ttml', 'stl'].map((f) => renderExport(f as 'srt', one) as Uint8Array);
    const mutated = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), fc.nat()).map(([k, edits, cut]) => {
      const b = seeds[k].slice();
      for (const [at, v] of edits) b[at % b.length] = v;
      return b.subarray(0, b.length - (cut % 4 === 0 ? cut % b.length : 0));
    });
    fc.assert(
      fc.property(fc.constantFrom('srt', 'vtt', 'sbv', 'ttml', 'stl'), fc.oneof(mutated, fc.uint8Array({ maxLength: 2000 })), (format, bytes) => {
        try {
          const c = parseCaptions(format, bytes);
          for (const q of c.cues) expect(q.end_ms).toBeGreaterThanOrEqual(q.start_ms);
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('EBU STL code tables', () => {
  it('match Python codecs for ISO 8859-5 and 8859-7, byte for byte', () => {
    const py = execFileSync('python3', ['-c', `
import json
out = {}
for t, enc in (('01', 'iso8859_5'), ('03', 'iso8859_7')):
    m = {}
    for b in range(0xA0, 0x100):
        try: m[b] = bytes([b]).decode(enc)
        except UnicodeDecodeError: pass
    out[t] = m
print(json.dumps(out))`]).toString();
    const tables = JSON.parse(py) as Record<'01' | '03', Record<string, string>>;
    for (const t of ['01', '03'] as const) {
      for (let b = 0xa0; b <= 0xff; b++) {
        const want = tables[t][b];
        const got = decodeStlChar(Uint8Array.of(b), 0, t);
        // A byte the table leaves undefined is null (the reader makes it a FormatError), never U+FFFD.
        expect(got?.text ?? null, `table ${t} byte ${b.toString(16)}`).toBe(want ?? null);
        if (want && want !== '\u00ad') expect(encodeStlText(want, t)).toEqual([b]);
      }
    }
  });

  it('writes Latin accents as ISO 6937 prefix bytes', () => {
    expect(encodeStlText('é', '00')).toEqual([0xc2, 0x65]);
    expect(encodeStlText('Ž', '00')).toEqual([0xcf, 0x5a]);
    expect(encodeStlText('ß€', '00')).toEqual([0xfb, 0x3f]);
  });
});
