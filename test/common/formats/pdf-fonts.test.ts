/**
 * The app's PDF export path: main/platform/fonts.ts finds the DejaVu Sans we ship in assets/fonts
 * (from the source tree and from the built bundle's place), adds Noto for scripts DejaVu lacks, and
 * the watch folders' delivery writes a PDF whose Greek and Cyrillic pdftotext reads back.
 * Debian packages: poppler-utils (pdftotext, pdffonts), fonts-noto-core.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Document } from '../../../common/api';
import { renderExport } from '../../../common/formats';
import { WatchProfile, type WatchFolder } from '../../../common/ipc';
import type { CaptionContent, TranscriptContent } from '../../../common/transcript';
import { bundledFontDirs, dejaVuPath, fallbackFontPaths, pdfFonts, printedText } from '../../../main/platform/fonts';
import { deliver } from '../../../main/watch/deliver';

const ROOT = resolve(__dirname, '..', '..', '..');
const ASSETS = join(ROOT, 'assets', 'fonts');
const dir = mkdtempSync(join(tmpdir(), 's2t-pdf-fonts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

const GREEK = 'Καλημέρα σας, φίλοι μου, από την Αθήνα.';
const CYRILLIC = 'Добрый вечер, дорогие зрители, из Новосибирска.';

function transcript(lines: string[], names: string[]): TranscriptContent {
  const speakers = names.map((name, i) => ({ id: `p${i}`, name }));
  let t = 0;
  const segments = lines.map((line, i) => {
    const words = line.split(' ').map((text) => ({ text, start_ms: (t += 400), end_ms: t + 300, confidence: 1 }));
    return { id: `s${i}`, speaker_id: speakers[i % speakers.length].id, start_ms: words[0].start_ms, end_ms: words[words.length - 1].end_ms, words };
  });
  return { kind: 'transcript', version: 1, speakers, segments, summary: 'Σύνοψη: привет.' };
}

describe('font loader', () => {
  it('finds assets/fonts from the source tree and from the bundle in dist/main', () => {
    expect(bundledFontDirs()).toContain(ASSETS);
    expect(bundledFontDirs(pathToFileURL(join(ROOT, 'dist', 'main', 'index.js')).href)).toContain(ASSETS);
    expect(existsSync(join(ASSETS, 'DejaVuSans.ttf'))).toBe(true);
    expect(readFileSync(join(ASSETS, 'LICENSE-DejaVu.txt'), 'utf8')).toMatch(/Bitstream Vera Fonts Copyright/);
  });

  it('prefers the bundled DejaVu and falls back to a system copy', () => {
    expect(dejaVuPath()).toBe(join(ASSETS, 'DejaVuSans.ttf'));
    expect(dejaVuPath(true)).toBe(join(ASSETS, 'DejaVuSans-Bold.ttf'));
    expect(dejaVuPath(false, [join(dir, 'nowhere'), '/usr/share/fonts/truetype/dejavu'])).toBe('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf');
    expect(dejaVuPath(false, [join(dir, 'nowhere')])).toBeUndefined();
  });

  it('adds Noto only for scripts DejaVu cannot draw', () => {
    const regular = dejaVuPath()!;
    expect(fallbackFontPaths(`${GREEK} ${CYRILLIC} Hello שלום مرحبا`, regular)).toEqual([]);
    const names = fallbackFontPaths('नमस्ते ሰላም สวัสดี', regular).map((p) => p.split('/').pop());
    expect(names).toEqual(['NotoSansDevanagari-Regular.ttf', 'NotoSansEthiopic-Regular.ttf', 'NotoSansThai-Regular.ttf']);
    // A letter of no script font (Latin small capital OU) comes from plain Noto Sans; what no font has adds nothing.
    expect(fallbackFontPaths('ᴕ', regular).map((p) => p.split('/').pop())).toEqual(['NotoSans-Regular.ttf']);
    expect(fallbackFontPaths('\u{1F600}', regular)).toEqual([]);
  });
});

describe('PDF export through the loader', () => {
  it('the watch-folder delivery writes a PDF whose Greek and Cyrillic pdftotext reads back, in the bundled font', async () => {
    const content = transcript([GREEK, CYRILLIC, 'Good evening, and welcome.'], ['Ελένη', 'Игорь']);
    const doc = { id: 'd1', type: 'transcript', document: { document_type: 'transcript', metadata: {}, content } } as unknown as Document;
    const folder: WatchFolder = { id: 'f', path: dir, paused: false, profile: WatchProfile.parse({ formats: [{ format: 'pdf', options: {} }] }) };
    const [file] = await deliver(folder, join(dir, 'Βράδυ news.mp4'), [doc]);
    expect(file).toBe(join(dir, 'Βράδυ news.pdf'));
    const text = run('pdftotext', ['-enc', 'UTF-8', file, '-']).replace(/\s+/g, ' ');
    for (const s of [GREEK, CYRILLIC, 'Ελένη', 'Игорь', 'Βράδυ news.mp4', 'Σύνοψη: привет.']) expect(text).toContain(s);
    const fonts = run('pdffonts', [file]);
    expect(fonts).toMatch(/DejaVuSans\b/);
    expect(fonts).toMatch(/DejaVuSans-Bold/);
  });

  it('draws Ethiopic and Thai from the Noto fonts the loader adds', async () => {
    const c: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [{ id: 'a', start_ms: 0, end_ms: 1000, lines: ['Привет ሰላም ልዑል'] }, { id: 'b', start_ms: 1000, end_ms: 2000, lines: ['สวัสดี'] }] };
    const pdf = await renderExport('pdf', c, pdfFonts(printedText(c)));
    writeFileSync(join(dir, 'noto.pdf'), pdf);
    const fonts = run('pdffonts', [join(dir, 'noto.pdf')]);
    expect(fonts).toMatch(/NotoSansEthiopic/);
    expect(fonts).toMatch(/NotoSansThai/);
    expect(run('pdftotext', ['-enc', 'UTF-8', join(dir, 'noto.pdf'), '-'])).toContain('Привет ሰላም ልዑል');
  });

  it('shapes Indic and other complex scripts instead of failing (fontkit needs a regenerator runtime there)', async () => {
    const lines = ['வணக்கம் உலகம்', 'ગુજરાતી ટેક્સ્ટ', '𖬀 Hmong', 'សួស្តី'];
    const c: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: lines.map((l, i) => ({ id: `c${i}`, start_ms: i * 1000, end_ms: i * 1000 + 900, lines: [l] })) };
    writeFileSync(join(dir, 'indic.pdf'), await renderExport('pdf', c, pdfFonts(printedText(c))));
    const text = run('pdftotext', ['-enc', 'UTF-8', join(dir, 'indic.pdf'), '-']);
    for (const l of lines) expect(text).toContain(l);
    expect(run('pdffonts', [join(dir, 'indic.pdf')])).toMatch(/NotoSansTamil[\s\S]*NotoSansGujarati|NotoSansGujarati[\s\S]*NotoSansTamil/);
  });

  it('property: any Unicode text makes a PDF (a cluster fontkit cannot shape is drawn unshaped, never an error)', async () => {
    const found = ['𝘊𐞎𑀃蓱⻊里𝘈ꭘ𒇬', '⿶ﭗ𐜲𓈰𔗛𖪄🁉𘧾𖩤葉', '꞊𝑻ꕲਙp𐠓𝘊Ҁ']; // once threw in fontkit's Universal shaper
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 6 }), async (lines) => {
        const c: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: lines.map((l, i) => ({ id: `c${i}`, start_ms: i * 10, end_ms: i * 10 + 5, lines: [l] })) };
        const pdf = await renderExport('pdf', c, pdfFonts(printedText(c)));
        expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
      }),
      { numRuns: 20, examples: [[found]] },
    );
  });

  it('embeds the first face of a TrueType collection (Noto CJK ships as .ttc)', async () => {
    // A one-face collection around DejaVu: the "ttcf" header, and table offsets moved past it.
    const ttf = readFileSync(join(ASSETS, 'DejaVuSans.ttf'));
    const ttc = Buffer.alloc(16 + ttf.length);
    ttc.write('ttcf', 0, 'latin1');
    ttc.writeUInt32BE(0x00010000, 4);
    ttc.writeUInt32BE(1, 8);
    ttc.writeUInt32BE(16, 12);
    ttf.copy(ttc, 16);
    for (let i = 0, n = ttf.readUInt16BE(4); i < n; i++) ttc.writeUInt32BE(ttf.readUInt32BE(12 + i * 16 + 8) + 16, 16 + 12 + i * 16 + 8);
    const c: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [{ id: 'a', start_ms: 0, end_ms: 1000, lines: [CYRILLIC] }] };
    writeFileSync(join(dir, 'ttc.pdf'), await renderExport('pdf', c, { font: new Uint8Array(ttc) }));
    expect(run('pdftotext', ['-enc', 'UTF-8', join(dir, 'ttc.pdf'), '-']).replace(/\s+/g, ' ')).toContain(CYRILLIC);
  });
});
