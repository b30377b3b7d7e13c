/**
 * PDF through pdf-lib: A4 pages, wrapped lines, "Page n of N" footers, text in an embedded (and
 * subset) font the caller passes as bytes, with fallback fonts for characters the first lacks.
 * Right-to-left scripts (Hebrew, Arabic) are shaped, reordered for display by a simplified bidi
 * algorithm and right-aligned when a paragraph starts with them.
 */
import type FontkitModule from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib';
import { documentRows, summaryOf } from './rows';
import type { ExportOptions, ExportSource } from './source';
import { isRtlParagraph, LTR_LETTER, RTL_LETTER } from './text';

const PAGE_W = 595.28;
const PAGE_H = 841.89;
const MARGIN = 56;
const BODY = 11;
const LEAD = 15.5;
/**
 * OpenType features we turn off: kerning and ligatures change widths (our wrapping measures per
 * character) and cost most of the time on long documents. Script shaping (e.g. Arabic joining)
 * is not a feature toggle here, so it still happens.
 */
const FEATURES = { kern: false, liga: false, clig: false, calt: false, rclt: false, locl: false, ccmp: false, mark: false, mkmk: false, rlig: false, curs: false };
type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type GlyphRun = ReturnType<ReturnType<Fontkit['create']>['layout']>;

/** Scripts whose glyphs depend on their neighbours (joining, reordering, marks): these need shaping. */
const NEEDS_SHAPING = /[\u0300-\u036F\u0483-\u0489\u0591-\u08FF\u0900-\u0DFF\u0E00-\u0FFF\u1000-\u109F\u1780-\u18AF\u200C\u200D\uFB1D-\uFDFF\uFE70-\uFEFF\uD800-\uDFFF]/;
/** Scripts whose shapers reorder glyphs within a cluster (Indic pre-base vowel signs; Myanmar, Khmer). */
const REORDERED = /[\u0900-\u0DFF\u1000-\u109F\u1780-\u17FF]/;

/**
 * fontkit as pdf-lib's font engine, except that text needing no shaping (Latin, Greek, Cyrillic,
 * CJK...) maps straight through the font's cmap: fontkit's full OpenType layout of every line is
 * what made long PDFs slow, and for these scripts it only adds kerning and ligatures.
 */
const plainFontkit = (fontkit: typeof FontkitModule): Fontkit => ({
  create(buffer, postscriptName) {
    // A TrueType collection (Debian's Noto CJK is a .ttc) embeds its first face.
    const opened = fontkit.create(buffer, postscriptName) as ReturnType<Fontkit['create']> | { fonts: ReturnType<Fontkit['create']>[] };
    const font = 'fonts' in opened ? opened.fonts[0] : opened;
    const layout = font.layout.bind(font);
    const unshaped = (text: string) => ({ glyphs: font.glyphsForString(text) }) as GlyphRun;
    font.layout = (text, features) => {
      if (!NEEDS_SHAPING.test(text)) return unshaped(text);
      try {
        return layout(text, features); // right-to-left runs come back in display order already
      } catch {
        // fontkit's Universal shaper throws on some malformed clusters: draw them unshaped, never fail the export.
        return unshaped(text);
      }
    };
    return font;
  },
});

/**
 * fontkit, loaded by the first export with an embedded font: it is large, and a process that never
 * exports a PDF (the service at rest) should not hold it.
 */
async function loadFontkit(): Promise<Fontkit> {
  // @pdf-lib/fontkit was compiled with Babel's regenerator and calls a global regeneratorRuntime in
  // its Indic and Universal shapers (pdf-lib issues #785, #1419): without it Devanagari, Tamil...
  // make PDF export throw. The runtime installs that global.
  await import('regenerator-runtime/runtime.js');
  const { default: fontkit } = await import('@pdf-lib/fontkit');
  return plainFontkit(fontkit);
}


interface DirRun {
  text: string;
  rtl: boolean;
}

/**
 * A line's direction runs in display order, left to right (a simplified Unicode bidi algorithm:
 * letters are strong, digits go left to right, neutrals between two runs of one direction take
 * it, other neutrals take the paragraph's). Each run's text stays in logical order.
 */
export function visualRuns(line: string, rtlParagraph: boolean): DirRun[] {
  const chars = [...line];
  const dir: (boolean | null)[] = chars.map((ch) => (RTL_LETTER.test(ch) ? true : LTR_LETTER.test(ch) ? false : null));
  for (let i = 0; i < chars.length; i++) {
    if (dir[i] !== null) continue;
    let j = i;
    while (j < chars.length && dir[j] === null) j++;
    const before = i > 0 ? dir[i - 1] : rtlParagraph;
    const after = j < chars.length ? dir[j] : rtlParagraph;
    for (let k = i; k < j; k++) dir[k] = before === after ? before : rtlParagraph;
    i = j - 1;
  }
  const runs: DirRun[] = [];
  chars.forEach((ch, i) => {
    const last = runs[runs.length - 1];
    if (last && last.rtl === dir[i]) last.text += ch;
    else runs.push({ text: ch, rtl: dir[i] === true });
  });
  return rtlParagraph ? runs.reverse() : runs;
}

interface Run {
  text: string;
  font: number;
}

/** Measures and draws text across a chain of fonts, choosing per character the first that has it. */
class FontChain {
  private charsets: Set<number>[];
  constructor(readonly fonts: PDFFont[]) {
    this.charsets = fonts.map((f) => new Set(f.getCharacterSet()));
  }
  private fontFor(cp: number): number {
    for (let i = 0; i < this.fonts.length; i++) if (this.charsets[i].has(cp)) return i;
    return 0;
  }
  runs(text: string): Run[] {
    const runs: Run[] = [];
    for (const ch of text) {
      const f = ch === ' ' ? (runs.length ? runs[runs.length - 1].font : 0) : this.fontFor(ch.codePointAt(0)!);
      const last = runs[runs.length - 1];
      if (last && last.font === f) last.text += ch;
      else runs.push({ text: ch, font: f });
    }
    return runs;
  }
  /** Width at size 1; per-character widths are cached, which is what keeps long documents fast. */
  width(text: string): number {
    if (NEEDS_SHAPING.test(text)) return this.shapedWidth(text);
    let w = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let cw = c < 0xd800 || c > 0xdfff ? this.bmp[c] : NaN;
      if (Number.isNaN(cw)) {
        const cp = text.codePointAt(i)!;
        if (cp > 0xffff) i++;
        cw = this.measure(cp);
      }
      w += cw;
    }
    return w;
  }
  /** Shaped text (joining scripts, marks) is measured as laid out: its glyphs are not the characters'. */
  private shapedWidth(text: string): number {
    let w = 0;
    for (const r of this.runs(text)) {
      try {
        w += this.fonts[r.font].widthOfTextAtSize(r.text, 1);
      } catch {
        w += r.text.length * this.fonts[r.font].widthOfTextAtSize('?', 1);
      }
    }
    return w;
  }
  private bmp = new Float64Array(0x10000).fill(NaN);
  private astral = new Map<number, number>();
  private measure(cp: number): number {
    const known = cp > 0xffff ? this.astral.get(cp) : undefined;
    if (known !== undefined) return known;
    const f = this.fonts[this.fontFor(cp)];
    let w: number;
    try {
      w = f.widthOfTextAtSize(String.fromCodePoint(cp), 1);
    } catch {
      w = f.widthOfTextAtSize('?', 1);
    }
    if (cp > 0xffff) this.astral.set(cp, w);
    else this.bmp[cp] = w;
    return w;
  }
  /** Replace what no font can draw (standard fonts only encode WinAnsi). */
  drawable(text: string): string {
    if (this.fonts.length > 1 || this.charsets[0].size > 400) return text;
    return [...text].map((ch) => (this.charsets[0].has(ch.codePointAt(0)!) ? ch : '?')).join('');
  }
}

/** Lines no wider than `max` points at `size`; a word wider than a line is broken by characters. */
function wrap(chain: FontChain, text: string, size: number, max: number): string[] {
  const lines: string[] = [];
  const limit = max / size;
  const space = chain.width(' ');
  let cur = '';
  let curW = 0;
  for (const word of text.split(' ')) {
    const w = chain.width(word);
    if (!cur || curW + space + w <= limit) {
      if (!cur && w > limit) {
        // Fall through to breaking the word below.
      } else {
        curW = cur ? curW + space + w : w;
        cur = cur ? `${cur} ${word}` : word;
        continue;
      }
    }
    if (cur) lines.push(cur);
    cur = '';
    curW = 0;
    if (w <= limit) {
      cur = word;
      curW = w;
      continue;
    }
    for (const ch of word) {
      const cw = chain.width(ch);
      if (cur && curW + cw > limit) {
        lines.push(cur);
        cur = '';
        curW = 0;
      }
      cur += ch;
      curW += cw;
    }
  }
  if (cur) lines.push(cur);
  return lines;
}

export async function writePdf(src: ExportSource, opts: ExportOptions = {}): Promise<Uint8Array> {
  // pdf-lib is loaded by the first PDF export, like fontkit: most processes never make one, and
  // loading it took a fifth of the service's start.
  const {
    beginText,
    endMarkedContent,
    endText,
    PDFDocument,
    PDFHexString,
    PDFName,
    PDFOperator,
    PDFOperatorNames,
    popGraphicsState,
    pushGraphicsState,
    rgb,
    rotateAndSkewTextRadiansAndTranslate,
    setFillingColor,
    setFontAndSize,
    showText,
    StandardFonts,
  } = await import('pdf-lib');
  const GREY = rgb(0.42, 0.42, 0.45);
  const INK = rgb(0.1, 0.1, 0.12);
  const timestamps = opts.timestamps ?? true;
  const pdf = await PDFDocument.create();
  pdf.setTitle(src.title);
  pdf.setCreator('S2T Desktop');
  pdf.setLanguage(src.language);
  let fonts: PDFFont[];
  let boldFonts: PDFFont[];
  if (opts.font) {
    pdf.registerFontkit(await loadFontkit());
    fonts = [await pdf.embedFont(opts.font, { subset: true, features: FEATURES })];
    for (const f of opts.fallbackFonts ?? []) fonts.push(await pdf.embedFont(f, { subset: true, features: FEATURES }));
    boldFonts = opts.boldFont ? [await pdf.embedFont(opts.boldFont, { subset: true, features: FEATURES }), ...fonts] : fonts;
  } else {
    fonts = [await pdf.embedFont(StandardFonts.Helvetica)];
    boldFonts = [await pdf.embedFont(StandardFonts.HelveticaBold)];
  }
  const regular = new FontChain(fonts);
  const bold = boldFonts === fonts ? regular : new FontChain(boldFonts);
  let chain = regular;
  const width = PAGE_W - 2 * MARGIN;
  let page: PDFPage = pdf.addPage([PAGE_W, PAGE_H]);
  let y = PAGE_H - MARGIN;

  /**
   * One font's run. Shapers of the scripts in REORDERED draw some glyphs before the characters
   * they follow (Devanagari ि before its consonant), and readers extract glyphs in drawing order:
   * each such word carries its characters as /ActualText (PDF 32000-1 14.9.4), so copying,
   * searching and pdftotext give the text as written. The span sits inside the text object, where
   * the font is set: poppler sizes the replacement text by the state at EMC.
   */
  const drawRun = (text: string, x: number, size: number, font: PDFFont, color: RGB) => {
    if (!REORDERED.test(text)) {
      page.drawText(text, { x, y, size, font, color });
      return;
    }
    const key = page.node.newFontDictionary(font.name, font.ref);
    for (const word of text.split(/( +)/)) {
      if (!word) continue;
      if (word[0] === ' ') {
        // Spaces drawn as glyphs: readers split words at them.
        page.drawText(word, { x, y, size, font, color });
        x += chain.width(word) * size;
        continue;
      }
      // An inline property list: pdf-lib copies a string operand into the stream as it is.
      const actual = `<</ActualText ${PDFHexString.fromText(word).toString()}>>`;
      page.pushOperators(
        pushGraphicsState(),
        beginText(),
        setFillingColor(color),
        setFontAndSize(key, size),
        rotateAndSkewTextRadiansAndTranslate(0, 0, 0, x, y),
        PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('Span'), actual]),
        showText(font.encodeText(word)),
        endMarkedContent(),
        endText(),
        popGraphicsState(),
      );
      x += chain.width(word) * size;
    }
  };
  const draw = (text: string, x: number, size: number, color = INK, rtl = false) => {
    const safe = chain.drawable(text);
    if (!rtl && !RTL_LETTER.test(safe)) {
      for (const r of chain.runs(safe)) {
        drawRun(r.text, x, size, chain.fonts[r.font], color);
        x += chain.width(r.text) * size;
      }
      return;
    }
    if (rtl) x = MARGIN + width - chain.width(safe) * size;
    for (const d of visualRuns(safe, rtl)) {
      const pieces = chain.runs(d.text);
      for (const r of d.rtl ? pieces.reverse() : pieces) {
        drawRun(r.text, x, size, chain.fonts[r.font], color);
        x += chain.width(r.text) * size;
      }
    }
  };
  const need = (h: number) => {
    if (y - h < MARGIN + 20) {
      page = pdf.addPage([PAGE_W, PAGE_H]);
      y = PAGE_H - MARGIN;
    }
  };
  const paragraph = (text: string, size: number, lead: number, color = INK, after = 0, weight = regular) => {
    chain = weight;
    const rtl = isRtlParagraph(text);
    const safe = chain.drawable(text);
    const lines = wrap(chain, safe, size, width);
    // The common case, left-to-right text in the main font: one text object per page's share of
    // the paragraph (less work for pdf-lib, smaller content streams to compress).
    const runs = rtl || RTL_LETTER.test(safe) || REORDERED.test(safe) ? null : chain.runs(safe);
    if (runs && runs.length === 1 && runs[0].font === 0) {
      for (let i = 0; i < lines.length; ) {
        need(lead);
        const room = Math.max(1, Math.floor((y - MARGIN - 20) / lead));
        const chunk = lines.slice(i, i + room);
        y -= lead;
        page.drawText(chunk.join('\n'), { x: MARGIN, y, size, font: chain.fonts[0], color, lineHeight: lead });
        y -= lead * (chunk.length - 1);
        i += chunk.length;
      }
    } else {
      for (const line of lines) {
        need(lead);
        y -= lead;
        draw(line, MARGIN, size, color, rtl);
      }
    }
    y -= after;
    chain = regular;
  };

  paragraph(src.title, 20, 26, INK, 10, bold);
  const summary = summaryOf(src);
  if (summary) {
    paragraph('Summary', 13, 18, INK, 2, bold);
    paragraph(summary, BODY, LEAD, INK, 12);
  }
  for (const r of documentRows(src, opts)) {
    const head = [timestamps ? r.stamp : '', r.speaker ?? ''].filter(Boolean).join('  ·  ');
    if (head) {
      need(LEAD * 2);
      paragraph(head, 9, 13, GREY, 0, r.speaker ? bold : regular);
    }
    paragraph(r.text, BODY, LEAD, INK, 7);
  }

  const pages = pdf.getPages();
  pages.forEach((p, i) => {
    page = p;
    y = MARGIN - 18;
    const label = `Page ${i + 1} of ${pages.length}`;
    draw(label, (PAGE_W - chain.width(label) * 9) / 2, 9, GREY);
  });
  return pdf.save();
}
