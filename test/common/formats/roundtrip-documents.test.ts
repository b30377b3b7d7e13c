/**
 * Random documents through every writer: transcripts (speakers, empty segments, Unicode, very long
 * words, zero-length and overlapping source timings) and captions with random speakers. Caption
 * formats go writer -> reader and must give back the cues outputCues made, text, times and
 * speakers (VTT voice tags, TTML agents, name prefixes); the document formats must print every
 * segment, in order, as their readers see it (our HTML rows, LibreOffice's view of DOCX is in
 * third-party.test.ts; here the DOCX XML and pdftotext).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { outputCues, parseCaptions, renderExport, resolveSource, type SpeakerStyle } from '../../../common/formats';
import { cleanLine } from '../../../common/formats/text';
import type { CaptionContent, DocumentContent, TranscriptContent } from '../../../common/transcript';
import { pdfFonts, printedText } from '../../../main/platform/fonts';

const dir = mkdtempSync(join(tmpdir(), 's2t-roundtrip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const decode = (b: Uint8Array | Promise<Uint8Array>) => new TextDecoder().decode(b as Uint8Array);

/** Words: any Unicode, scripts we care about, markup and entities, and words longer than any line. */
const word = (safe: (s: string) => string) =>
  fc
    .oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }) },
      { weight: 2, arbitrary: fc.constantFrom('Καλημέρα', 'Привет,', 'שלום', 'naïve', 'end.', 'Ω&<b>', '&amp;', '"quoted"', '-->', '42') },
      { weight: 1, arbitrary: fc.integer({ min: 50, max: 300 }).map((n) => 'Ж'.repeat(n)) },
    )
    .map(safe);

const speakerName = (safe: (s: string) => string) =>
  fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom('Zoë <Host> & co', 'Игорь', '  padded  ', 'Line\nbreak', '', 'A: B')).map(safe);

const time = fc.integer({ min: 0, max: 20_000_000 });
const span = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 12_000 }));

/** Speakers, segments (some empty, some with unknown speakers) whose word times are unordered, overlapping or zero-length. */
const transcriptDoc = (safe: (s: string) => string = (s) => s, words: fc.Arbitrary<string> = word(safe), names: fc.Arbitrary<string> = speakerName(safe)) =>
  fc
    .record({
      names: fc.array(names, { maxLength: 3 }),
      summary: fc.option(fc.string({ unit: 'grapheme', maxLength: 80 }).map(safe), { nil: undefined }),
      segments: fc.array(
        fc.record({ speaker: fc.nat(4), start: time, words: fc.array(fc.record({ text: words, at: fc.integer({ min: -2000, max: 20_000 }), len: span }), { maxLength: 12 }) }),
        { maxLength: 10 },
      ),
    })
    .map(({ names, summary, segments }): TranscriptContent => ({
      kind: 'transcript',
      version: 1,
      speakers: names.map((name, i) => ({ id: `p${i}`, name })),
      ...(summary !== undefined ? { summary } : {}),
      segments: segments.map((s, i) => {
        const words = s.words.map((w) => ({ text: w.text, start_ms: Math.max(0, s.start + w.at), end_ms: Math.max(0, s.start + w.at) + w.len, confidence: 0.9 }));
        const times = words.flatMap((w) => [w.start_ms, w.end_ms]);
        return { id: `s${i}`, speaker_id: s.speaker < names.length ? `p${s.speaker}` : s.speaker === 4 ? 'ghost' : null, start_ms: times.length ? Math.min(...times) : s.start, end_ms: times.length ? Math.max(...times) : s.start, words };
      }),
    }));

/** Captions with random speakers, lines (some empty), overlapping and zero-length cues. */
const captionDoc = (safe: (s: string) => string = (s) => s) =>
  fc
    .record({
      names: fc.array(speakerName(safe), { minLength: 1, maxLength: 3 }),
      cues: fc.array(fc.record({ speaker: fc.nat(3), start: time, len: span, lines: fc.array(fc.array(word(safe), { maxLength: 6 }).map((ws) => ws.join(' ')), { maxLength: 3 }) }), { maxLength: 15 }),
    })
    .map(({ names, cues }): CaptionContent => ({
      kind: 'caption',
      version: 1,
      speakers: names.map((name, i) => ({ id: `p${i}`, name })),
      cues: cues.map((c, i) => ({ id: `c${i}`, start_ms: c.start, end_ms: c.start + c.len, lines: c.lines, speaker_id: c.speaker < names.length ? `p${c.speaker}` : null })),
    }));

type CaptionFormat = 'srt' | 'vtt' | 'sbv' | 'ttml';

/** What a reader must give back: the cues outputCues made, with a name prefix where the style prints one. */
function expected(format: CaptionFormat, doc: DocumentContent, style: SpeakerStyle, speakersRead: boolean) {
  return outputCues(resolveSource(format, doc), { speakers: style }).map((c) => {
    const prefix = style !== 'none' && c.turn && c.speaker && !(format === 'vtt' && style === 'voice') ? `${c.speaker}: ` : '';
    return { start_ms: c.start_ms, end_ms: c.end_ms, lines: [prefix + c.lines[0], ...c.lines.slice(1)], speaker: speakersRead ? c.speaker : null };
  });
}

function readBack(format: CaptionFormat, doc: DocumentContent, style: SpeakerStyle) {
  const back = parseCaptions(format, renderExport(format, doc, { speakers: style }) as Uint8Array);
  const names = new Map(back.speakers.map((s) => [s.id, s.name]));
  return back.cues.map((c) => ({ start_ms: c.start_ms, end_ms: c.end_ms, lines: c.lines, speaker: (c.speaker_id && names.get(c.speaker_id)) || null }));
}

/** SubRip has no escapes: "<b>" and "{\an8}" in text are styling to every reader, so SRT gets text without them. */
const noSrtTags = (s: string) => s.replace(/[<{]/g, '(');

describe('random documents, writer then reader, every caption format', () => {
  const cases: [CaptionFormat, SpeakerStyle, boolean, (s: string) => string][] = [
    ['srt', 'prefix', false, noSrtTags],
    ['srt', 'none', false, noSrtTags],
    ['vtt', 'voice', true, (s) => s],
    ['vtt', 'prefix', false, (s) => s],
    ['sbv', 'prefix', false, (s) => s],
    ['ttml', 'prefix', true, (s) => s],
    ['ttml', 'none', true, (s) => s],
  ];
  for (const [format, style, speakersRead, safe] of cases) {
    it(`${format}, speakers ${style}: transcripts and captions give back the same cues, text${speakersRead ? ' and speakers' : ''}`, () => {
      fc.assert(
        fc.property(fc.oneof(transcriptDoc(safe), captionDoc(safe)), (doc) => {
          const back = readBack(format, doc, style);
          expect(back).toEqual(expected(format, doc, style, speakersRead));
          back.forEach((c, i) => {
            expect(c.end_ms).toBeGreaterThan(c.start_ms);
            if (i) expect(c.start_ms).toBeGreaterThanOrEqual(back[i - 1].end_ms);
          });
        }),
        { numRuns: 80 },
      );
    });
  }
});

/** Each segment as the document formats print it: "Speaker: text" (PDF: the name on a line above), empty segments skipped. */
function printedRows(t: TranscriptContent, nameSeparator = ': '): string[] {
  const names = new Map(t.speakers.map((s) => [s.id, cleanLine(s.name)]));
  return t.segments
    .map((s) => ({ text: cleanLine(s.words.map((w) => w.text).join(' ')), name: (s.speaker_id && names.get(s.speaker_id)) || '' }))
    .filter((r) => r.text)
    .map((r) => (r.name ? `${r.name}${nameSeparator}${r.text}` : r.text));
}

const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|quot|apos|amp);/gi, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[e],
  );

describe('random transcripts through the document writers', () => {
  it('TXT: one paragraph a non-empty segment, in order, with its speaker', () => {
    fc.assert(
      fc.property(transcriptDoc(), (t) => {
        const summary = t.summary?.trim() ? [`Summary: ${t.summary.trim()}`] : [];
        expect(decode(renderExport('txt', t))).toBe([...summary, ...printedRows(t)].join('\n\n') + '\n');
      }),
      { numRuns: 100 },
    );
  });

  it('HTML: one escaped paragraph a non-empty segment, in order, and no markup from the text', () => {
    fc.assert(
      fc.property(transcriptDoc(), (t) => {
        const html = decode(renderExport('html', t, { timestamps: false }));
        const rows = [...html.matchAll(/<p class="segment"[^>]*>(.*?)<\/p>/gs)].map((m) => unescapeXml(m[1].replace(/<span class="speaker">(.*?):<\/span> /, '$1: ')));
        expect(rows).toEqual(printedRows(t));
        // Every tag in the page is one the writer made.
        for (const tag of html.match(/<\/?[a-z][^>]*>/gi) ?? []) expect(tag).toMatch(/^<\/?(html|head|meta|title|style|body|main|h1|h2|section|p|span)\b/i);
      }),
      { numRuns: 100 },
    );
  });

  it('DOCX: the document XML holds every row, in order', async () => {
    await fc.assert(
      fc.asyncProperty(transcriptDoc(), async (t) => {
        const file = join(dir, 'p.docx');
        writeFileSync(file, await renderExport('docx', t, { timestamps: false }));
        const xml = execFileSync('unzip', ['-p', file, 'word/document.xml']).toString();
        const paragraphs = [...xml.matchAll(/<w:p>(.*?)<\/w:p>|<w:p [^>]*>(.*?)<\/w:p>/gs)].map((m) =>
          unescapeXml([...(m[1] ?? m[2]).matchAll(/<w:t(?: [^>]*)?>(.*?)<\/w:t>/gs)].map((x) => x[1]).join('')),
        );
        // Title, then the summary heading and text when there is one, then the rows.
        const body = paragraphs.slice(t.summary?.trim() ? 3 : 1);
        expect(body).toEqual(printedRows(t));
      }),
      { numRuns: 25 },
    );
  });

  it('PDF (fonts from the app loader): pdftotext finds every row, in order', async () => {
    // pdftotext reorders right-to-left and combining text for display: here Latin, Greek and Cyrillic words, long ones included.
    const letters = (alphabet: string, max: number) => fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: max });
    const latin = 'abcdefghijklmnopqrstuvwxyzABCXYZàéîõüß.,!?';
    const safeWord = fc.oneof(letters(latin, 10), letters('αβγδεζηθικλμνξοπρστυφχψωΑΘΗΝάέ', 10), letters('абвгдежзийклмнопрстуфхцчшщыэюяЖЁё', 10), letters('Жx', 400));
    const doc = transcriptDoc((s) => s, safeWord, letters(latin + 'ΑΩЖЯ ', 16).map((n) => n.trim() || 'X'));
    await fc.assert(
      fc.asyncProperty(doc, async (t) => {
        const file = join(dir, 'p.pdf');
        writeFileSync(file, await renderExport('pdf', t, { timestamps: false, ...pdfFonts(printedText(t)) }));
        const flat = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString().replace(/Page \d+ of \d+/g, '').replace(/\s+/g, '');
        let at = 0;
        for (const row of printedRows(t, '')) {
          const k = flat.indexOf(row.replace(/\s+/g, ''), at);
          expect(k, row.slice(0, 60)).toBeGreaterThanOrEqual(0);
          at = k + 1;
        }
      }),
      { numRuns: 10 },
    );
  });
});
