/** Word (.docx) through the `docx` library: title, summary, then one paragraph a segment. */
import { AlignmentType, Document, Footer, HeadingLevel, Packer, PageNumber, Paragraph, TextRun } from 'docx';
import { documentRows, summaryOf } from './rows';
import type { ExportOptions, ExportSource } from './source';

export async function writeDocx(src: ExportSource, opts: ExportOptions = {}): Promise<Uint8Array> {
  const timestamps = opts.timestamps ?? true;
  const children: Paragraph[] = [new Paragraph({ text: src.title, heading: HeadingLevel.TITLE })];
  const summary = summaryOf(src);
  if (summary) {
    children.push(new Paragraph({ text: 'Summary', heading: HeadingLevel.HEADING_1 }), new Paragraph({ children: [new TextRun(summary)], spacing: { after: 240 } }));
  }
  for (const r of documentRows(src, opts)) {
    const runs: TextRun[] = [];
    if (timestamps) runs.push(new TextRun({ text: `[${r.stamp}] `, color: '6B6B73' }));
    if (r.speaker) runs.push(new TextRun({ text: `${r.speaker}: `, bold: true }));
    runs.push(new TextRun(r.text));
    children.push(new Paragraph({ children: runs, spacing: { after: 160 } }));
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
