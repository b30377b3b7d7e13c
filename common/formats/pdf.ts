/**
 * PDF through pdf-lib: A4 pages, wrapped lines, "Page n of N" footers, text in an embedded (and
 * subset) font the caller passes as bytes, with fallback fonts for characters the first lacks.
 * Right-to-left text is drawn in logical order (no bidi reordering).
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { documentRows, summaryOf } from './rows';
import type { ExportOptions, ExportSource } from './source';

const PAGE_W = 595.28;
const PAGE_H = 841.89;
const MARGIN = 56;
const BODY = 11;
const LEAD = 15.5;
const GREY = rgb(0.42, 0.42, 0.45);
const INK = rgb(0.1, 0.1, 0.12);

interface Run {
  text: string;
  font: number;
}

/** Measures and draws text across a chain of fonts, choosing per character the first that has it. */
class FontChain {
  private widths = new Map<string, number>();
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
    let w = 0;
    for (const ch of text) {
      let cw = this.widths.get(ch);
      if (cw === undefined) {
        const f = this.fonts[this.fontFor(ch.codePointAt(0)!)];
        try {
          cw = f.widthOfTextAtSize(ch, 1);
        } catch {
          cw = f.widthOfTextAtSize('?', 1);
        }
        this.widths.set(ch, cw);
      }
      w += cw;
    }
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
  let cur = '';
  for (const word of text.split(' ')) {
    const cand = cur ? `${cur} ${word}` : word;
    if (chain.width(cand) * size <= max) {
      cur = cand;
      continue;
    }
    if (cur) lines.push(cur);
    cur = '';
    let piece = '';
    for (const ch of word) {
      if (piece && chain.width(piece + ch) * size > max) {
        lines.push(piece);
        piece = '';
      }
      piece += ch;
    }
    cur = piece;
  }
  if (cur) lines.push(cur);
  return lines;
}

export async function writePdf(src: ExportSource, opts: ExportOptions = {}): Promise<Uint8Array> {
  const timestamps = opts.timestamps ?? true;
  const pdf = await PDFDocument.create();
  pdf.setTitle(src.title);
  pdf.setCreator('S2T Desktop');
  pdf.setLanguage(src.language);
  let fonts: PDFFont[];
  if (opts.font) {
    pdf.registerFontkit(fontkit);
    fonts = [await pdf.embedFont(opts.font, { subset: true })];
    for (const f of opts.fallbackFonts ?? []) fonts.push(await pdf.embedFont(f, { subset: true }));
  } else {
    fonts = [await pdf.embedFont(StandardFonts.Helvetica)];
  }
  const chain = new FontChain(fonts);
  const width = PAGE_W - 2 * MARGIN;
  let page: PDFPage = pdf.addPage([PAGE_W, PAGE_H]);
  let y = PAGE_H - MARGIN;

  const draw = (text: string, x: number, size: number, color = INK) => {
    for (const r of chain.runs(chain.drawable(text))) {
      page.drawText(r.text, { x, y, size, font: chain.fonts[r.font], color });
      x += chain.width(r.text) * size;
    }
  };
  const need = (h: number) => {
    if (y - h < MARGIN + 20) {
      page = pdf.addPage([PAGE_W, PAGE_H]);
      y = PAGE_H - MARGIN;
    }
  };
  const paragraph = (text: string, size: number, lead: number, color = INK, after = 0) => {
    for (const line of wrap(chain, chain.drawable(text), size, width)) {
      need(lead);
      y -= lead;
      draw(line, MARGIN, size, color);
    }
    y -= after;
  };

  paragraph(src.title, 20, 26, INK, 10);
  const summary = summaryOf(src);
  if (summary) {
    paragraph('Summary', 13, 18, INK, 2);
    paragraph(summary, BODY, LEAD, INK, 12);
  }
  for (const r of documentRows(src, opts)) {
    const head = [timestamps ? r.stamp : '', r.speaker ?? ''].filter(Boolean).join('  ·  ');
    if (head) {
      need(LEAD * 2);
      paragraph(head, 9, 13, GREY);
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
