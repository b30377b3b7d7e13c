/** Word (.docx) through the `docx` library: title, summary, then one paragraph a segment. */
import type { Paragraph, TextRun } from 'docx';
import { documentRows, summaryOf } from './rows';
import type { ExportOptions, ExportSource } from './source';
import { isRtlParagraph } from './text';

export async function writeDocx(src: ExportSource, opts: ExportOptions = {}): Promise<Uint8Array> {
  // Loaded by the first DOCX export: most processes never make one.
  const { AlignmentType, Document, Footer, HeadingLevel, Packer, PageNumber, Paragraph, TextRun } = await import('docx');
  const timestamps = opts.timestamps ?? true;
  // A paragraph whose text is right-to-left is laid out so (w:bidi), its text run marked so (w:rtl).
  const children: Paragraph[] = [new Paragraph({ children: [new TextRun({ text: src.title, rightToLeft: isRtlParagraph(src.title) })], heading: HeadingLevel.TITLE, bidirectional: isRtlParagraph(src.title) })];
  const summary = summaryOf(src);
  if (summary) {
    children.push(new Paragraph({ text: 'Summary', heading: HeadingLevel.HEADING_1 }), new Paragraph({ children: [new TextRun({ text: summary, rightToLeft: isRtlParagraph(summary) })], spacing: { after: 240 }, bidirectional: isRtlParagraph(summary) }));
  }
  for (const r of documentRows(src, opts)) {
    const runs: TextRun[] = [];
    if (timestamps) runs.push(new TextRun({ text: `[${r.stamp}] `, color: '6B6B73' }));
    if (r.speaker) runs.push(new TextRun({ text: `${r.speaker}: `, bold: true }));
    runs.push(new TextRun({ text: r.text, rightToLeft: isRtlParagraph(r.text) }));
    children.push(new Paragraph({ children: runs, spacing: { after: 160 }, bidirectional: isRtlParagraph(r.text) }));
  }
  const doc = new Document({
    title: src.title,
    creator: 'S2T Desktop',
    styles: { default: { document: { run: { font: 'Noto Sans', size: 22 } } } },
    sections: [
      {
        children,
        footers: {
          default: new Footer({
            children: [new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ children: ['Page ', PageNumber.CURRENT, ' of ', PageNumber.TOTAL_PAGES], color: '6B6B73', size: 18 })] })],
          }),
        },
      },
    ],
  });
  return new Uint8Array(await Packer.toArrayBuffer(doc));
}
