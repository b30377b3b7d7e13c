/**
 * EBU STL at the format's limits: a cue with more rows than a subtitle shows becomes consecutive
 * subtitles (never dropped text), checked with our reader and ttconv's; a byte the code table
 * leaves undefined is a FormatError at its byte offset, never U+FFFD.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCaptions, readStlInfo, renderExport } from '../../../common/formats';
import { STL_MAX_ROWS } from '../../../common/formats/stl';
import type { CaptionContent } from '../../../common/transcript';
import { errorOf } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 's2t-stl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const caption = (...cues: [number, number, string[]][]): CaptionContent => ({
  kind: 'caption', version: 1, speakers: [],
  cues: cues.map(([start_ms, end_ms, lines], i) => ({ id: `c${i}`, start_ms, end_ms, lines })),
});

describe('EBU STL: cues with more rows than one subtitle', () => {
  const rows = Array.from({ length: 60 }, (_, i) => `Row ${i + 1}: Съешь ещё этих булок`);
  const doc = caption([1000, 61_000, rows], [70_000, 71_000, ['after']]);
  const bytes = renderExport('stl', doc) as Uint8Array;

  it(`become consecutive subtitles of at most ${STL_MAX_ROWS} rows, every row kept, time shared`, () => {
    const back = parseCaptions('stl', bytes);
    expect(back.cues.map((c) => c.lines.length)).toEqual([23, 23, 14, 1]);
    expect(back.cues.flatMap((c) => c.lines)).toEqual([...rows, 'after']);
    // The parts tile the cue's time: first starts at its start, each starts where the last ended.
    expect(back.cues[0].start_ms).toBe(1000);
    expect(back.cues[2].end_ms).toBe(61_000);
    expect(back.cues[1].start_ms).toBe(back.cues[0].end_ms);
    expect(back.cues[2].start_ms).toBe(back.cues[1].end_ms);
    // Shared by characters shown (an even reading speed), to the frame (40 ms at 25 fps).
    const chars = back.cues.slice(0, 3).map((c) => c.lines.join('').length);
    const total = chars.reduce((a, b) => a + b, 0);
    back.cues.slice(0, 3).forEach((c, i) => expect(Math.abs(c.end_ms - c.start_ms - (60_000 * chars[i]) / total)).toBeLessThanOrEqual(40));
    expect(back.cues[3]).toMatchObject({ start_ms: 70_000, end_ms: 71_000 });
    expect(readStlInfo(bytes).subtitles).toBe(4); // GSI TNS
    expect(Number(String.fromCharCode(bytes[253], bytes[254]))).toBe(23); // GSI MNR
  });

  it('are read the same by ttconv', () => {
    writeFileSync(join(dir, 'rows.stl'), bytes);
    execFileSync('ttconv', ['convert', '-i', join(dir, 'rows.stl'), '-o', join(dir, 'rows.srt'), '--itype', 'STL', '--otype', 'SRT'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const theirs = parseCaptions('srt', readFileSync(join(dir, 'rows.srt')));
    const ours = parseCaptions('stl', bytes);
    expect(theirs.cues.map((c) => c.lines)).toEqual(ours.cues.map((c) => c.lines));
    theirs.cues.forEach((c, i) => expect(Math.abs(c.start_ms - ours.cues[i].start_ms)).toBeLessThanOrEqual(1));
  });

  it('still get at least a frame each when the cue is shorter than its parts', () => {
    const back = parseCaptions('stl', renderExport('stl', caption([0, 40, rows])) as Uint8Array);
    expect(back.cues.flatMap((c) => c.lines)).toEqual(rows);
    back.cues.forEach((c, i) => {
      expect(c.end_ms).toBeGreaterThan(c.start_ms);
      if (i) expect(c.start_ms).toBeGreaterThanOrEqual(back.cues[i - 1].end_ms);
    });
  });
});

describe('EBU STL reader: undefined code-table bytes', () => {
  /** File offset of the first text byte equal to `b` at or after `from`. */
  const find = (bytes: Uint8Array, b: number, from = 1024) => bytes.findIndex((x, i) => i >= from && x === b);

  it('is an error at the byte offset, in the first block of a subtitle', () => {
    const bytes = renderExport('stl', caption([1000, 2000, ['Hello']], [3000, 4000, ['World']])) as Uint8Array;
    const at = find(bytes, 0x57, 1024 + 128); // "W" of the second subtitle
    const bad = bytes.slice();
    bad[at] = 0xa4; // undefined in ISO 6937
    const e = errorOf(() => parseCaptions('stl', bad));
    expect(e.byteOffset).toBe(at);
    expect(e.message).toMatch(/0xA4 is undefined in character code table 00/);
  });

  it('is an error at the byte offset in an extension block (Greek table: 0xD2 is undefined in ISO 8859-7)', () => {
    const bytes = renderExport('stl', caption([0, 5000, ['Καλημέρα '.repeat(30).trim()]])) as Uint8Array;
    expect(String.fromCharCode(bytes[12], bytes[13])).toBe('03'); // GSI CCT: Latin/Greek
    expect(bytes.length).toBeGreaterThan(1024 + 2 * 128); // the text needs extension blocks
    const at = 1024 + 2 * 128 + 16 + 3; // the third block's fourth text byte
    const bad = bytes.slice();
    bad[at] = 0xd2;
    const e = errorOf(() => parseCaptions('stl', bad));
    expect(e.byteOffset).toBe(at);
    expect(e.message).toMatch(/0xD2 is undefined in character code table 03/);
  });

  it('a diacritical mark with nothing to mark is an error, not a silently dropped accent', () => {
    const bytes = renderExport('stl', caption([0, 1000, ['café']])) as Uint8Array;
    const mark = find(bytes, 0xc2); // acute accent before the "e"
    const bad = bytes.slice();
    bad[mark + 1] = 0x8f; // the filler: the text field ends after the mark
    const e = errorOf(() => parseCaptions('stl', bad));
    expect(e.byteOffset).toBe(mark);
    expect(e.message).toMatch(/diacritical mark 0xC2/);
  });
});
