/**
 * Every export format, checked by a reference reader, for a 3-hour transcript (27,000 words, the
 * bench's) and a short one in eight scripts with the characters each format must escape:
 * - VTT: the W3C validator's parser (npm webvtt-parser), zero errors, our cues, voices and text;
 * - TTML: imscJS (npm imsc, the IMSC reference implementation dash.js uses), parsed, then an ISD
 *   generated at every media time event, with no error, fatal or warning, and our text in order;
 *   and ttconv;
 * - SRT: ffmpeg's srt demuxer; SBV: ffmpeg's subviewer demuxer; EBU STL: ttconv;
 * - DOCX: mammoth (no message), and LibreOffice for paragraph direction; PDF: pdftotext; TXT: a
 *   fatal UTF-8 decoder;
 * - in Chromium: imscJS renders the TTML at every event; the HTML opens with its words and directions.
 * The short one also has a broadcast timecode offset (01:00:00;00 at 29.97 fps, drop-frame).
 * Each file is rendered once and shared by its checks. ttconv reads the short files only: it took
 * 38 s on the 3-hour STL and 15 s on the TTML; imscJS reads the 3-hour TTML in about a second.
 * Debian packages: ffmpeg, python3-ttconv, libreoffice-writer-nogui, poppler-utils, fonts-noto-core.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import mammoth from 'mammoth';
import imscDoc from 'imsc/src/main/js/doc.js';
import imscIsd from 'imsc/src/main/js/isd.js';
import { WebVTTParser, type VttNode } from 'webvtt-parser';
import htmlEntities from 'webvtt-parser/html-entities.json';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threeHourTranscript } from '../../../bench/formats.bench';
import type { ExportFormat } from '../../../common/api/enums';
import { outputCues, parseCaptions, renderExport, resolveSource, type ExportInput, type OutCue } from '../../../common/formats';
import { documentRows } from '../../../common/formats/rows';
import type { TranscriptContent } from '../../../common/transcript';
import { pdfFonts, printedText } from '../../../main/platform/fonts';
import { launchChromium } from '../../helpers/app';
import { ROOT } from '../../helpers/service';

/** One sentence a script (the PDF draws each from DejaVu Sans or an installed Noto font). */
const SCRIPTS = [
  'Καλημέρα σας, φίλοι μου, από την Αθήνα.',
  'Добрый вечер, дорогие зрители, из Новосибирска.',
  'مرحبا بكم في نشرة الأخبار المسائية.',
  'שלום לכולם, זה מבחן קצר.',
  'नमस्ते, आज की ख़बरें सुनिए।',
  'Prices rose 5% & fell: 3 < 4 > 2, "quoted" and it\'s done.',
  'Ærø, Łódź, Œuvre: £5 ± 2°, naïve façade.',
  'გამარჯობა, ეს არის ტესტი.',
];

function nonLatinTranscript(): TranscriptContent {
  const speakers = ['Ελένη', 'Игорь', 'فاطمة', 'Zoë'].map((name, i) => ({ id: `p${i}`, name }));
  const segments: TranscriptContent['segments'] = [];
  let t = 400;
  for (let r = 0; r < 3; r++) {
    for (const s of SCRIPTS) {
      const words = s.split(' ').map((text) => ({ text, start_ms: t, end_ms: (t += 420) - 60, confidence: 0.9 }));
      segments.push({ id: `s${segments.length + 1}`, speaker_id: speakers[segments.length % speakers.length].id, start_ms: words[0].start_ms, end_ms: words[words.length - 1].end_ms, words });
      t += 900;
    }
  }
  return { kind: 'transcript', version: 1, speakers, segments, summary: 'Σύνοψη: привет, مرحبا, שלום & <done>.' };
}

interface Fixture {
  name: string;
  file: string;
  long: boolean;
  doc: ExportInput & { filename: string };
}

const FIXTURES: Fixture[] = [
  {
    name: '3 h / 27,000 words',
    file: 'long',
    long: true,
    doc: { filename: 'three-hours.mp4', language: 'en', timecode_offset: '00:00:00:00', document: { document_type: 'transcript', metadata: { frame_rate: 25 }, content: threeHourTranscript() } },
  },
  {
    name: 'short, eight scripts, 29.97 fps from 01:00:00;00',
    file: 'scripts',
    long: false,
    doc: { filename: 'Νέα & новости.mp4', language: 'el', timecode_offset: '01:00:00;00', document: { document_type: 'transcript', metadata: { frame_rate: 30000 / 1001 }, content: nonLatinTranscript() } },
  },
];

const dir = mkdtempSync(join(tmpdir(), 's2t-reference-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000, maxBuffer: 256 * 1024 * 1024 }).toString();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Each file rendered once, written to disk, shared by every check of it. */
const rendered = new Map<string, Promise<{ bytes: Uint8Array; path: string }>>();
function render(fx: Fixture, format: ExportFormat): Promise<{ bytes: Uint8Array; path: string }> {
  const key = `${fx.file}.${format}`;
  let p = rendered.get(key);
  if (!p) {
    const content = 'document' in fx.doc ? fx.doc.document?.content : undefined;
    const options = format === 'pdf' ? pdfFonts(printedText(content, fx.doc.filename)) : {};
    p = Promise.resolve(renderExport(format, fx.doc, options)).then((bytes) => {
      const path = join(dir, key);
      writeFileSync(path, bytes);
      return { bytes, path };
    });
    rendered.set(key, p);
  }
  return p;
}

/** The cues a caption writer meant to print, with a turn's "Name: " prefix where it prints one. */
const wantedCues = (fx: Fixture, format: ExportFormat, prefix = true) =>
  outputCues(resolveSource(format, fx.doc)).map((c: OutCue) => ({ start_ms: c.start_ms, end_ms: c.end_ms, speaker: c.speaker, text: (prefix && c.turn ? `${c.speaker}: ` : '') + c.lines.join('\n') }));

/** Every word a transcript writer prints, in order: the title (not in TXT), the summary, then each row's speaker and text. */
function wantedWords(fx: Fixture, format: ExportFormat): string[] {
  const src = resolveSource(format, fx.doc);
  const content = src.content as TranscriptContent;
  const rows = documentRows(src, {}).flatMap((r) => [...(r.speaker ? r.speaker.split(' ') : []), ...r.text.split(' ')]);
  return [...(format === 'txt' ? [] : src.title.split(' ')), ...(content.summary ? content.summary.split(' ') : []), ...rows];
}

/** Asserts `words` appear in `text` in order (whitespace-insensitive; lines may wrap at spaces). */
function expectWordsInOrder(text: string, words: string[]) {
  const flat = text.replace(/\s+/g, ' ');
  let at = 0;
  for (const w of words) {
    const k = flat.indexOf(w, at);
    expect(k, `"${w}" after offset ${at} of ${flat.length}`).toBeGreaterThanOrEqual(0);
    at = k + w.length;
  }
}

/** Hebrew and Arabic letters: right-to-left words, drawn right to left. */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
/** A paragraph's direction by its first letter (the Unicode bidi rule P2, for our fixtures). */
const firstLetterRtl = (text: string) => RTL.test(text.match(/\p{L}/u)?.[0] ?? '');
const letters = (w: string) => [...w.replace(/[^\p{L}\p{M}\p{N}]/gu, '')].sort().join('');
const decodeXml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** A WebVTT cue's text as its tree says: text nodes, <v> voices, the rest flattened. */
function vttText(nodes: VttNode[] = []): string {
  return nodes.map((n) => (n.type === 'text' ? String(n.value) : n.type === 'object' ? vttText(n.children) : '')).join('');
}
function vttVoice(nodes: VttNode[] = []): string | null {
  const v = nodes.find((n) => n.type === 'object' && n.name === 'v');
  return v ? String(v.value) : null;
}

/** An ISD's visible text: spans' text, <br/> as a newline, paragraphs on their own lines. */
function isdText(e: ImscIsdElement): string {
  if (e.kind === 'br') return '\n';
  if (e.text !== undefined) return e.text;
  const inner = (e.contents ?? []).map(isdText);
  return e.kind === 'p' || e.kind === 'span' ? inner.join('') : inner.filter((s) => s.length).join('\n');
}
function findKind(e: ImscIsdElement, kind: string): ImscIsdElement | undefined {
  if (e.kind === kind) return e;
  for (const c of e.contents ?? []) {
    const f = findKind(c, kind);
    if (f) return f;
  }
  return undefined;
}

/** ffmpeg's reading of a caption file, re-written as SRT and read back by our SRT reader. */
function ffmpegCues(path: string, demuxer: string) {
  const out = `${path}.ffmpeg.srt`;
  run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', demuxer, '-i', path, '-f', 'srt', out]);
  return parseCaptions('srt', readFileSync(out)).cues.map((c) => ({ start_ms: c.start_ms, end_ms: c.end_ms, text: c.lines.join('\n') }));
}

for (const fx of FIXTURES) {
  describe(`reference readers accept every export: ${fx.name}`, () => {
    it('VTT: webvtt-parser (the W3C validator\'s parser) finds zero errors and reads our cues, voices and text', async () => {
      const { bytes } = await render(fx, 'vtt');
      const { cues, errors } = new WebVTTParser(htmlEntities).parse(decoder.decode(bytes));
      expect(errors).toEqual([]);
      const want = wantedCues(fx, 'vtt', false);
      expect(cues.length).toBe(want.length);
      expect(cues.map((c) => ({ start_ms: Math.round(c.startTime * 1000), end_ms: Math.round(c.endTime * 1000), speaker: vttVoice(c.tree.children), text: vttText(c.tree.children) }))).toEqual(want);
    });

    it('TTML: imscJS parses it and generates an ISD at every media time event with no error, fatal or warning; the ISDs show our cues, at their times, in order', async () => {
      const { bytes } = await render(fx, 'ttml');
      const reports: string[] = [];
      const report = (level: string) => (msg: string) => {
        if (level !== 'info') reports.push(`${level}: ${msg}`);
        return false; // keep going: collect everything
      };
      const handler: ImscErrorHandler = { info: report('info'), warn: report('warn'), error: report('error'), fatal: report('fatal') };
      const tt = imscDoc.fromXML(decoder.decode(bytes), handler);
      expect(tt).not.toBeNull();
      const events = tt!.getMediaTimeEvents();
      const shown: string[] = [];
      let background: unknown;
      for (const t of events) {
        const isd = imscIsd.generateISD(tt!, t, handler);
        const root: ImscIsdElement = { kind: 'root', styleAttrs: {}, contents: isd.contents };
        const text = isdText(root);
        if (text) shown.push(text);
        background ??= findKind(root, 'span')?.styleAttrs['http://www.w3.org/ns/ttml#styling backgroundColor'];
      }
      expect(reports).toEqual([]);
      const want = wantedCues(fx, 'ttml');
      // Every cue starts and ends at one of imscJS's events (to the millisecond), and shows in order.
      const eventMs = new Set(events.map((t) => Math.round(t * 1000)));
      expect(want.flatMap((c) => [c.start_ms, c.end_ms]).filter((ms) => !eventMs.has(ms))).toEqual([]);
      expect(shown).toEqual(want.map((c) => c.text));
      // The text's background is read as we mean it: black, alpha 204 of 255 (80%).
      expect(background).toEqual([0, 0, 0, 204]);
    });

    if (!fx.long) it('TTML: ttconv converts it to SRT with our cues, times and text', async () => {
      const { path } = await render(fx, 'ttml');
      run('ttconv', ['convert', '-i', path, '-o', `${path}.srt`, '--itype', 'TTML', '--otype', 'SRT']);
      const theirs = parseCaptions('srt', readFileSync(`${path}.srt`)).cues.map((c) => ({ start_ms: c.start_ms, end_ms: c.end_ms, text: c.lines.join('\n') }));
      expect(theirs).toEqual(wantedCues(fx, 'ttml').map(({ start_ms, end_ms, text }) => ({ start_ms, end_ms, text })));
    });

    it('SRT: ffmpeg reads our cues, times and text', async () => {
      const { path } = await render(fx, 'srt');
      expect(ffmpegCues(path, 'srt')).toEqual(wantedCues(fx, 'srt').map(({ start_ms, end_ms, text }) => ({ start_ms, end_ms, text })));
    });

    it('SBV: ffmpeg (its SubViewer reader) reads our cues, times and text', async () => {
      const { path } = await render(fx, 'sbv');
      expect(ffmpegCues(path, 'subviewer')).toEqual(wantedCues(fx, 'sbv').map(({ start_ms, end_ms, text }) => ({ start_ms, end_ms, text })));
    });

    if (!fx.long) it('EBU STL: ttconv reads what our reader reads, every cue there', async () => {
      const { bytes, path } = await render(fx, 'stl');
      run('ttconv', ['convert', '-i', path, '-o', `${path}.srt`, '--itype', 'STL', '--otype', 'SRT']);
      const theirs = parseCaptions('srt', readFileSync(`${path}.srt`)).cues;
      const ours = parseCaptions('stl', bytes).cues;
      expect(ours.length).toBeGreaterThanOrEqual(wantedCues(fx, 'stl').length);
      expect(theirs.map((c) => c.lines)).toEqual(ours.map((c) => c.lines));
      theirs.forEach((c, i) => {
        expect(Math.abs(c.start_ms - ours[i].start_ms)).toBeLessThanOrEqual(1);
        expect(Math.abs(c.end_ms - ours[i].end_ms)).toBeLessThanOrEqual(1);
      });
    });

    it('DOCX: mammoth converts it with no message, the title a heading, every word in order', async () => {
      const { bytes } = await render(fx, 'docx');
      // Word's built-in Title style, which mammoth's default style map leaves out (it would warn).
      const html = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }, { styleMap: ["p[style-name='Title'] => h1:fresh"] });
      const raw = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
      expect([...html.messages, ...raw.messages]).toEqual([]);
      expect(html.value).toMatch(/^<h1>[^<]+<\/h1>/);
      expectWordsInOrder(raw.value, wantedWords(fx, 'docx'));
    });

    // LibreOffice takes seconds a file: the short one carries the right-to-left paragraphs.
    if (!fx.long) it('DOCX: LibreOffice lays the right-to-left paragraphs, and only those, out right to left', async () => {
      const { path } = await render(fx, 'docx');
      const out = join(dir, 'lo');
      run('soffice', [`-env:UserInstallation=${pathToFileURL(join(dir, 'lo-profile')).href}`, '--headless', '--convert-to', 'html', '--outdir', out, path]);
      const html = readFileSync(join(out, `${fx.file}.html`), 'utf8');
      const rtlParagraphs = [...html.matchAll(/<p dir="rtl"[^>]*>(.*?)<\/p>/gs)].map((m) => decodeXml(m[1].replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim());
      const rtlRows = documentRows(resolveSource('docx', fx.doc), {}).filter((r) => firstLetterRtl(r.text));
      expect(rtlRows.length).toBeGreaterThan(0);
      expect(rtlParagraphs.length).toBe(rtlRows.length);
      rtlRows.forEach((r, i) => expect(rtlParagraphs[i]).toContain(r.text));
    });

    it('PDF: pdftotext extracts every word: in order, right-to-left ones by their letters', async () => {
      const { path } = await render(fx, 'pdf');
      // The words as drawn, in visual order (pdftotext's logical text re-orders mixed lines by guesswork).
      const drawn = [...run('pdftotext', ['-bbox', path, '-']).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((m) => decodeXml(m[1]));
      const want = wantedWords(fx, 'pdf');
      // Devanagari included: its vowel signs drawn before their consonants are read in the order written.
      expectWordsInOrder(drawn.filter((w) => !RTL.test(w)).join(' '), want.filter((w) => !RTL.test(w)));
      // Right-to-left words are drawn right to left, so they are known by their letters.
      const bag = drawn.filter((w) => RTL.test(w)).map(letters);
      for (const w of want.filter((x) => RTL.test(x))) {
        const k = bag.indexOf(letters(w));
        expect(k, `word "${w}"`).toBeGreaterThanOrEqual(0);
        bag.splice(k, 1);
      }
    });

    it('TXT: strict UTF-8, every word in order', async () => {
      const { bytes } = await render(fx, 'txt');
      expectWordsInOrder(decoder.decode(bytes), wantedWords(fx, 'txt'));
    });
  });
}

/**
 * In a real browser: imscJS renders our TTML to HTML at every media time event (what dash.js does
 * on screen), and Chromium opens our HTML export. The page code is plain script text, so the test
 * transform never touches it.
 */
const IMSC_PAGE = `window.renderAll = function (xml) {
  var reports = [], shown = [], directions = [], backgrounds = {};
  var report = function (level) { return function (msg) { reports.push(level + ': ' + msg); return false; }; };
  var handler = { info: function () { return false; }, warn: report('warn'), error: report('error'), fatal: report('fatal') };
  var tt = imsc.fromXML(xml, handler);
  var video = document.getElementById('video');
  tt.getMediaTimeEvents().forEach(function (t) {
    video.textContent = '';
    imsc.renderHTML(imsc.generateISD(tt, t, handler), video, null, 360, 640, false, handler);
    if (video.innerText) {
      shown.push(video.innerText);
      directions.push(getComputedStyle(video.querySelector('span')).direction);
    }
    video.querySelectorAll('*').forEach(function (e) {
      var bg = getComputedStyle(e).backgroundColor;
      if (bg !== 'rgba(0, 0, 0, 0)') backgrounds[e.tagName + ' ' + bg] = true;
    });
  });
  return { reports: reports, shown: shown, directions: directions, backgrounds: Object.keys(backgrounds) };
};`;

describe('in Chromium: imscJS renders our TTML, and our HTML opens as written', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const fx of FIXTURES) {
    // The 3-hour file's ISDs are checked above; drawing its 5,300 events here would add 8 s.
    if (!fx.long) it(`TTML, ${fx.name}: rendered at every event with no error, fatal or warning, showing our cues right to left where their text is; the background only behind the text`, async () => {
      const { bytes } = await render(fx, 'ttml');
      const page = await browser.newPage();
      await page.setContent('<!DOCTYPE html><html><body style="margin:0"><div id="video" style="position:relative;width:640px;height:360px"></div></body></html>');
      await page.addScriptTag({ path: join(ROOT, 'node_modules/imsc/dist/imsc.all.min.js') });
      await page.addScriptTag({ content: IMSC_PAGE });
      const result = await page.evaluate('renderAll(' + JSON.stringify(decoder.decode(bytes)) + ')') as { reports: string[]; shown: string[]; directions: string[]; backgrounds: string[] };
      await page.close();
      expect(result.reports).toEqual([]);
      // innerText gives a rendered <br> as a newline and trims nothing else.
      const want = outputCues(resolveSource('ttml', fx.doc));
      expect(result.shown).toEqual(wantedCues(fx, 'ttml').map((c) => c.text));
      expect(result.directions).toEqual(want.map((c) => (firstLetterRtl(c.lines.join(' ')) ? 'rtl' : 'ltr')));
      expect(result.directions).toContain('rtl');
      // The text's own inline boxes carry the background, not a block as wide as the region.
      expect(result.backgrounds).toEqual(['SPAN rgba(0, 0, 0, 0.8)']);
    });

    it(`HTML, ${fx.name}: UTF-8, its language and title, every word in order, right-to-left paragraphs laid out right to left`, async () => {
      const { path } = await render(fx, 'html');
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path).href);
      const seen = await page.evaluate(`({
        charset: document.characterSet,
        lang: document.documentElement.lang,
        title: document.title,
        text: document.body.innerText,
        directions: Array.from(document.querySelectorAll('p.segment')).map(function (p) { return getComputedStyle(p).direction; })
      })`) as { charset: string; lang: string; title: string; text: string; directions: string[] };
      await page.close();
      const src = resolveSource('html', fx.doc);
      expect(seen.charset).toBe('UTF-8');
      expect(seen.lang).toBe(src.language);
      expect(seen.title).toBe(src.title);
      expectWordsInOrder(seen.text, wantedWords(fx, 'html'));
      const rows = documentRows(src, {});
      expect(seen.directions).toEqual(rows.map((r) => (firstLetterRtl(r.text) ? 'rtl' : 'ltr')));
      if (!fx.long) expect(seen.directions).toContain('rtl');
    });
  }
});
