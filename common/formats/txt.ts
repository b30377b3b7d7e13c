/** Plain text: one paragraph a segment, optionally "[time] Speaker: " before it. */
import { documentRows, summaryOf } from './rows';
import type { ExportOptions, ExportSource } from './source';

export function writeTxt(src: ExportSource, opts: ExportOptions = {}): string {
  const timestamps = opts.timestamps ?? false;
  const out: string[] = [];
  const summary = summaryOf(src);
  if (summary) out.push(`Summary: ${summary}`);
  for (const r of documentRows(src, opts)) {
    out.push(`${timestamps ? `[${r.stamp}] ` : ''}${r.speaker ? `${r.speaker}: ` : ''}${r.text}`);
  }
  return out.join('\n\n') + '\n';
}
