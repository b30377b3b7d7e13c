/** A standalone HTML page: escaped text, speakers and timestamps, readable without any other file. */
import { documentRows, summaryOf } from './rows';
import type { ExportOptions, ExportSource } from './source';
import { escapeXml, isRtlParagraph } from './text';

const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.55;color:#1d1d1f}
h1{font-size:1.6rem}.summary{background:#f4f4f6;padding:.75rem 1rem;border-radius:6px}
.segment{margin:0 0 1rem}.time{color:#6b6b73;font-variant-numeric:tabular-nums;margin-right:.5rem}.speaker{font-weight:600;margin-right:.35rem}`;

export function writeHtml(src: ExportSource, opts: ExportOptions = {}): string {
  const timestamps = opts.timestamps ?? true;
  const out: string[] = [
    `<!DOCTYPE html>\n<html lang="${escapeXml(src.language)}">\n<head>\n<meta charset="utf-8">\n`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeXml(src.title)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n<main>\n<h1 dir="auto">${escapeXml(src.title)}</h1>\n`,
  ];
  const summary = summaryOf(src);
  if (summary) out.push(`<section class="summary"><h2>Summary</h2><p dir="auto">${escapeXml(summary)}</p></section>\n`);
  for (const r of documentRows(src, opts)) {
    const time = timestamps ? `<span class="time">${r.stamp}</span> ` : '';
    const speaker = r.speaker ? `<span class="speaker">${escapeXml(r.speaker)}:</span> ` : '';
    // The text's direction, not the speaker name's, sets the paragraph's (as in the PDF).
    const dir = isRtlParagraph(r.text) ? ' dir="rtl"' : '';
    out.push(`<p class="segment"${dir} data-start-ms="${r.start_ms}">${time}${speaker}${escapeXml(r.text)}</p>\n`);
  }
  out.push('</main>\n</body>\n</html>\n');
  return out.join('');
}
