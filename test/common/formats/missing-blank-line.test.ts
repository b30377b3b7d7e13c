/**
 * A missing blank line between two cues must never fold the next cue's number or timing line into
 * the text of the one before. SRT reads a cue number followed by a timing line as the next cue, as
 * ffmpeg does (checked against ffmpeg itself); every other timing line inside a block is a
 * FormatError naming that line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCaptions, renderExport } from '../../../common/formats';
import type { CaptionContent } from '../../../common/transcript';
import { errorOf } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 's2t-blank-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cues = (c: CaptionContent) => c.cues.map((q) => [q.start_ms, q.end_ms, q.lines]);

/** What ffmpeg's SubRip demuxer makes of `srt`, re-written by its muxer and read by us. */
function ffmpegReads(srt: string): CaptionContent {
  const src = join(dir, 'in.srt');
  const out = join(dir, 'out.srt');
  writeFileSync(src, srt);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', src, '-f', 'srt', out]);
  return parseCaptions('srt', readFileSync(out));
}

describe('SRT: a cue number and a timing line inside a block start the next cue, as in ffmpeg', () => {
  for (const [label, file] of [
    ['numbered cues with no blank line between', '1\n00:00:01,000 --> 00:00:02,000\nHello\n2\n00:00:03,000 --> 00:00:04,000\nWorld\n'],
    ['an out-of-sequence number', '1\n00:00:01,000 --> 00:00:02,000\nHello there\nfriend\n7\n00:00:03,000 --> 00:00:04,500\nWorld\n\n3\n00:00:05,000 --> 00:00:06,000\nAgain\n'],
    ['three cues in one block, the middle one empty', '1\n00:00:01,000 --> 00:00:02,000\nA\n2\n00:00:02,500 --> 00:00:03,000\n3\n00:00:03,000 --> 00:00:04,000\nC\n'],
  ] as const) {
    it(`${label}: the same cues ffmpeg reads`, () => {
      const ours = parseCaptions('srt', file);
      expect(cues(ours).every(([, , lines]) => !(lines as string[]).some((l) => /-->|^\d+$/.test(l)))).toBe(true);
      // ffmpeg drops cues with no text; so do we when we compare.
      expect(cues(ffmpegReads(file))).toEqual(cues(ours).filter(([, , lines]) => (lines as string[]).length > 0));
    });
  }

  it('reads the first case as two cues', () => {
    expect(cues(parseCaptions('srt', '1\n00:00:01,000 --> 00:00:02,000\nHello\n2\n00:00:03,000 --> 00:00:04,000\nWorld\n'))).toEqual([
      [1000, 2000, ['Hello']],
      [3000, 4000, ['World']],
    ]);
  });

  it('refuses a timing line with no cue number before it, naming the line', () => {
    const e = errorOf(() => parseCaptions('srt', '1\n00:00:01,000 --> 00:00:02,000\nHello\n00:00:03,000 --> 00:00:04,000\nWorld\n'));
    expect(e.line).toBe(4);
    expect(e.message).toMatch(/timing line inside a cue/);
    expect(errorOf(() => parseCaptions('srt', '1\n00:00:01,000 --> 00:00:02,000\n00:00:03,000 --> 00:00:04,000\nWorld\n')).line).toBe(3);
  });
});

describe('VTT and SBV: a timing line inside a block is an error naming it', () => {
  it('VTT: in a cue, after an identifier, in the header, in a NOTE', () => {
    expect(errorOf(() => parseCaptions('vtt', 'WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n00:03.000 --> 00:04.000\nWorld\n')).line).toBe(5);
    expect(errorOf(() => parseCaptions('vtt', 'WEBVTT\n\nc1\n00:01.000 --> 00:02.000\nHello\nc2\n00:03.000 --> 00:04.000\nWorld\n')).line).toBe(7);
    expect(errorOf(() => parseCaptions('vtt', 'WEBVTT\n00:01.000 --> 00:02.000\nHello\n')).line).toBe(2);
    expect(errorOf(() => parseCaptions('vtt', 'WEBVTT\n\nNOTE a comment\n00:01.000 --> 00:02.000\nHello\n')).line).toBe(4);
  });

  it('SBV', () => {
    const e = errorOf(() => parseCaptions('sbv', '0:00:01.000,0:00:02.000\nHello\n0:00:03.000,0:00:04.000\nWorld\n'));
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/timing line inside a cue/);
  });
});

describe('property: dropping any blank line between cues never changes a cue silently', () => {
  const doc = fc
    .array(fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.array(fc.constantFrom('Hello', 'wörld', 'Ωμέγα', '42', 'a b c', 'end.'), { minLength: 1, maxLength: 3 })), { minLength: 2, maxLength: 6 })
    .map((xs): CaptionContent => {
      let t = 0;
      return {
        kind: 'caption', version: 1, speakers: [],
        cues: xs.map(([len, words], i) => {
          const q = { id: `c${i}`, start_ms: t, end_ms: t + len, lines: [words.join(' ')] };
          t += len + 100;
          return q;
        }),
      };
    });

  for (const format of ['srt', 'vtt', 'sbv'] as const) {
    it(format, () => {
      fc.assert(
        fc.property(doc, fc.nat(), (c, pick) => {
          const text = new TextDecoder().decode(renderExport(format, c, { speakers: 'none' }) as Uint8Array);
          const full = parseCaptions(format, text);
          const lines = text.split('\n');
          // Blank lines that separate two cues (not the one after the VTT header, not the last).
          const blanks = lines.map((l, i) => (l === '' && i > (format === 'vtt' ? 1 : 0) && i < lines.length - 1 ? i : -1)).filter((i) => i >= 0);
          const cut = blanks[pick % blanks.length];
          const broken = [...lines.slice(0, cut), ...lines.slice(cut + 1)].join('\n');
          if (format === 'srt') {
            expect(cues(parseCaptions('srt', broken))).toEqual(cues(full));
          } else {
            // The first line after the cut that holds a timing arrow (VTT: after the cue's identifier).
            const timing = lines.findIndex((l, i) => i > cut && (l.includes('-->') || /^\d+:\d\d:\d\d\.\d{3},/.test(l)));
            expect(errorOf(() => parseCaptions(format, broken)).line).toBe(timing); // 1-based, one line earlier
          }
        }),
        { numRuns: 60 },
      );
    });
  }
});
