/**
 * Third-party readers accept our files: ffmpeg (SRT, VTT), ttconv (TTML, EBU STL), LibreOffice
 * (DOCX) and pdftotext (PDF). Debian packages: ffmpeg, python3-ttconv, libreoffice-writer-nogui,
 * poppler-utils, fonts-dejavu-core, fonts-noto-core.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputCues, parseCaptions, renderExport, resolveSource } from '../../../common/formats';
import type { CaptionContent, TranscriptContent } from '../../../common/transcript';
import { dejaVuPath } from '../../../main/platform/fonts';

// The fonts the app ships (assets/fonts), as its loader finds them.
const FONT = dejaVuPath()!;
const BOLD = dejaVuPath(true)!;

const SENTENCES = [
  'Good evening, and welcome to the programme.',
  'Tonight we travel from Athens to Novosibirsk & back.',
  'Καλημέρα σας, φίλοι μου, από την Αθήνα.',
  'Добрый вечер, дорогие зрители, из Новосибирска.',
  'Prices rose 5% in "the third quarter", she said <quietly>.',
  'Crème brûlée, façade, naïve and smörgåsbord.',
];

const LATIN = ['Good evening, and welcome to the programme.', 'Crème brûlée, façade, naïve and smörgåsbord.', 'Ærø, Øresund, Łódź and Œuvre: £5 ± 2°.'];
const CYRILLIC = ['Добрый вечер, дорогие зрители.', 'Съешь же ещё этих мягких французских булок.', 'Новосибирск, 5 часов утра.'];

function transcript(repeat = 4, sentences = SENTENCES, names = ['Hélène', 'Игорь']): TranscriptContent {
  const speakers = names.map((name, i) => ({ id: `p${i}`, name }));
  const segments: TranscriptContent['segments'] = [];
  let t = 500;
  for (let r = 0; r < repeat; r++) {
    for (const s of sentences) {
      const words = s.split(' ').map((text) => {
        const w = { text, start_ms: t, end_ms: t + 320, confidence: 0.9 };
        t += 380;
        return w;
      });
      segments.push({ id: `s${segments.length + 1}`, speaker_id: speakers[segments.length % 2].id, start_ms: words[0].start_ms, end_ms: words[words.length - 1].end_ms, words });
      t += 700;
    }
  }
  return { kind: 'transcript', version: 1, speakers, segments, summary: 'Two hosts greet viewers in four languages.' };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 's2t-formats-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 }).toString();
const shape = (c: CaptionContent) => c.cues.map((q) => ({ start_ms: q.start_ms, end_ms: q.end_ms, text: q.lines.join('\n') }));

/** The raw text lines of each cue of an SRT or VTT file, as written (no unescaping). */
function rawCueTexts(file: string): string[] {
  return file
    .split(/\r?\n\r?\n/)
    .map((b) => b.split(/\r?\n/))
    .filter((lines) => lines.some((l) => l.includes('-->')))
    .map((lines) => lines.slice(lines.findIndex((l) => l.includes('-->')) + 1).join(' ').trim());
}

describe('ffmpeg reads our SRT and VTT', () => {
  for (const [format, muxer] of [['srt', 'srt'], ['vtt', 'webvtt']] as const) {
    it(`${format}: re-written by ffmpeg with the same number of cues, times and text`, () => {
      const doc = { timecode_offset: '00:00:00:00', document: { document_type: 'transcript' as const, metadata: { frame_rate: 25 }, content: transcript() } };
      const ours = renderExport(format, doc) as Uint8Array;
      const src = join(dir, `ff-in.${format}`);
      const out = join(dir, `ff-out.${format}`);
      writeFileSync(src, ours);
      run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', src, '-f', muxer, out]);
      const theirs = readFileSync(out, 'utf8');
      const mine = parseCaptions(format, ours);
      expect(mine.cues.length).toBeGreaterThan(20);
      expect(theirs.match(/-->/g)?.length).toBe(mine.cues.length);
      expect(parseCaptions(format === 'vtt' ? 'vtt' : 'srt', theirs).cues.map((c) => [c.start_ms, c.end_ms])).toEqual(mine.cues.map((c) => [c.start_ms, c.end_ms]));
      // ffmpeg writes text unescaped, drops VTT voice tags, and (SubRip having no escapes) reads
      // "<quietly>" in SRT as markup: that one word is the format's limit, not ours.
      const names = new Map(mine.speakers.map((sp) => [sp.id, sp.name]));
      const expectedText = mine.cues.map((c) => {
        const text = c.lines.join(' ');
        return format === 'srt' ? text.replace(/<[^>]*>/g, '') : text;
      });
      expect(rawCueTexts(theirs)).toEqual(expectedText);
      if (format === 'vtt') expect(mine.cues.every((c) => names.get(c.speaker_id!))).toBe(true);
    });
  }
});

describe('ttconv (IMSC reference implementers) reads our TTML and EBU STL', () => {
  const ttconv = (input: string, output: string, itype: string) =>
    run('ttconv', ['convert', '-i', input, '-o', output, '--itype', itype, '--otype', 'SRT']);

  it('TTML: converted to SRT with the same cues and text', () => {
    const doc = { timecode_offset: '00:00:00:00', document: { document_type: 'transcript' as const, metadata: { frame_rate: 25 }, content: transcript() } };
    const ttml = renderExport('ttml', doc) as Uint8Array;
    writeFileSync(join(dir, 'in.ttml'), ttml);
    ttconv(join(dir, 'in.ttml'), join(dir, 'ttml.srt'), 'TTML');
    const theirs = parseCaptions('srt', readFileSync(join(dir, 'ttml.srt')));
    const want = outputCues(resolveSource('ttml', doc)).map((c) => ({ start_ms: c.start_ms, end_ms: c.end_ms, text: ((c.turn ? `${c.speaker}: ` : '') + c.lines.join('\n')) }));
    expect(shape(theirs)).toEqual(want);
  });

  for (const [label, fps, offset, sentences, names] of [
    ['Latin, 25 fps', 25, '00:00:00:00', LATIN, ['Hélène', 'Jürgen']],
    ['Cyrillic, 29.97 fps, drop-frame timecode offset', 30000 / 1001, '01:00:00;00', CYRILLIC, ['Игорь', 'Ольга']],
  ] as const) {
    it(`EBU STL (${label}): converted to SRT with the same cues and text`, () => {
      const doc = { timecode_offset: offset, document: { document_type: 'transcript' as const, metadata: { frame_rate: fps }, content: transcript(8, [...sentences], [...names]) } };
      const stl = renderExport('stl', doc) as Uint8Array;
      writeFileSync(join(dir, 'in.stl'), stl);
      ttconv(join(dir, 'in.stl'), join(dir, 'stl.srt'), 'STL');
      const theirs = parseCaptions('srt', readFileSync(join(dir, 'stl.srt')));
      const ours = parseCaptions('stl', stl);
      expect(ours.cues.length).toBeGreaterThan(20);
      // Both read STL30.01 as 29.97 drop-frame: the same times, give or take a millisecond of rounding.
      expect(theirs.cues.map((c) => c.lines)).toEqual(ours.cues.map((c) => c.lines));
      theirs.cues.forEach((c, i) => {
        expect(Math.abs(c.start_ms - ours.cues[i].start_ms)).toBeLessThanOrEqual(1);
        expect(Math.abs(c.end_ms - ours.cues[i].end_ms)).toBeLessThanOrEqual(1);
      });
      // And what both read is what we meant to write, to the frame.
      const want = outputCues(resolveSource('stl', doc));
      expect(theirs.cues.map((c) => c.lines.join(' '))).toEqual(want.map((c) => (c.turn ? `${c.speaker}: ` : '') + c.lines.join(' ')));
      theirs.cues.forEach((c, i) => expect(Math.abs(c.start_ms - want[i].start_ms)).toBeLessThanOrEqual(fps === 25 ? 40 : 34));
    });
  }
});

describe('LibreOffice reads our DOCX', () => {
  it('converts it to text that matches, with and without timestamps', async () => {
    const t = transcript(2);
    const doc = { filename: 'Evening news.mp4', timecode_offset: '00:00:00:00', document: { document_type: 'transcript' as const, metadata: {}, content: t } };
    writeFileSync(join(dir, 'with.docx'), await renderExport('docx', doc));
    writeFileSync(join(dir, 'without.docx'), await renderExport('docx', doc, { timestamps: false, speakers: 'none' }));
    const profile = `file://${join(dir, 'lo-profile')}`;
    run('soffice', [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'txt:Text (encoded):UTF8', '--outdir', dir, join(dir, 'with.docx'), join(dir, 'without.docx')]);
    const read = (f: string) => readFileSync(join(dir, f), 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim());
    const ts = (ms: number) => new Date(ms).toISOString().slice(11, 19);
    const names = new Map(t.speakers.map((s) => [s.id, s.name]));
    expect(read('with.txt')).toEqual([
      'Evening news',
      'Summary',
      t.summary,
      ...t.segments.map((s) => `[${ts(s.start_ms)}] ${names.get(s.speaker_id!)}: ${s.words.map((w) => w.text).join(' ')}`),
    ]);
    expect(read('without.txt')).toEqual(['Evening news', 'Summary', t.summary, ...t.segments.map((s) => s.words.map((w) => w.text).join(' '))]);
  });
});

describe('pdftotext reads our PDF', () => {
  it('extracts every word, Greek and Cyrillic included, over numbered pages', async () => {
    const t = transcript(12);
    const doc = { filename: 'Long talk.wav', document: { document_type: 'transcript' as const, metadata: {}, content: t } };
    const pdf = await renderExport('pdf', doc, { font: readFileSync(FONT), boldFont: readFileSync(BOLD) });
    writeFileSync(join(dir, 'talk.pdf'), pdf);
    const text = run('pdftotext', ['-enc', 'UTF-8', join(dir, 'talk.pdf'), '-']);
    const pages = text.split('\f').filter((p) => p.trim());
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${pages.length}`));
    const flat = text.replace(/Page \d+ of \d+/g, ' ').replace(/\s+/g, ' ');
    expect(flat).toContain('Καλημέρα σας, φίλοι μου, από την Αθήνα.');
    expect(flat).toContain('Добрый вечер, дорогие зрители, из Новосибирска.');
    expect(flat).toContain('Hélène');
    expect(flat).toContain('Игорь');
    // Every word, in order (lines wrap only at spaces here).
    let at = 0;
    for (const w of t.segments.flatMap((s) => s.words.map((x) => x.text))) {
      const k = flat.indexOf(w, at);
      expect(k, `word "${w}" after offset ${at}`).toBeGreaterThanOrEqual(0);
      at = k + w.length;
    }
  });

  it('shapes and orders right-to-left text: an RTL paragraph is right-aligned, its first word rightmost', async () => {
    const c: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [{ id: 'a', start_ms: 0, end_ms: 1000, lines: ['שלום עולם, זה מבחן.'] }, { id: 'b', start_ms: 1000, end_ms: 2000, lines: ['Say مرحبا بالعالم please'] }] };
    writeFileSync(join(dir, 'rtl.pdf'), await renderExport('pdf', c, { font: readFileSync(FONT) }));
    const words = [...run('pdftotext', ['-bbox', join(dir, 'rtl.pdf'), '-']).matchAll(/<word xMin="([\d.]+)"[^>]*>([^<]*)<\/word>/g)].map((m) => ({ x: Number(m[1]), text: m[2] }));
    // pdftotext reports visual order; identify words by their letters, whatever order it prints them in.
    const x = (letters: string) => words.find((w) => [...w.text].sort().join('').replace(/[^\p{L}]/gu, '') === [...letters].sort().join(''))!.x;
    expect(x('שלום')).toBeGreaterThan(x('עולם'));
    expect(x('עולם')).toBeGreaterThan(x('מבחן'));
    expect(x('שלום')).toBeGreaterThan(400); // right-aligned
    expect(x('Say')).toBeLessThan(x('مرحبا'));
    expect(x('مرحبا')).toBeGreaterThan(x('بالعالم')); // the RTL run reads right to left
    expect(x('بالعالم')).toBeLessThan(x('please'));
  });

  it('draws what the main font lacks from a fallback font (Ethiopic from Noto Sans Ethiopic)', async () => {
    const c: CaptionContent = { kind: 'caption', version: 1, speakers: [], cues: [{ id: 'a', start_ms: 0, end_ms: 1000, lines: ['Hello ሰላም ልዑል Привет'] }] };
    const pdf = await renderExport('pdf', c, { font: readFileSync(FONT), fallbackFonts: [readFileSync('/usr/share/fonts/truetype/noto/NotoSansEthiopic-Regular.ttf')] });
    writeFileSync(join(dir, 'fallback.pdf'), pdf);
    const fonts = run('pdffonts', [join(dir, 'fallback.pdf')]);
    expect(fonts).toMatch(/DejaVuSans/);
    expect(fonts).toMatch(/NotoSansEthiopic/);
    const text = run('pdftotext', ['-enc', 'UTF-8', join(dir, 'fallback.pdf'), '-']);
    expect(text).toContain('ሰላም ልዑል');
    expect(text).toContain('Hello');
    expect(text).toContain('Привет');
  });
});
