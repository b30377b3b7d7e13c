/** What the transcript formats (TXT, HTML, DOCX, PDF) print: one row a segment, offset applied. */
import { segmentText } from '../transcript/model';
import { formatHms, msToTimecode } from '../transcript/timecode';
import { outputTranscript, type ExportOptions, type ExportSource } from './source';
import { cleanLine } from './text';

export interface DocRow {
  start_ms: number;
  /** "HH:MM:SS", or "HH:MM:SS:FF" when the document has a timecode offset (broadcast work). */
  stamp: string;
  speaker: string | null;
  text: string;
}

export function documentRows(src: ExportSource, opts: ExportOptions): DocRow[] {
  const t = outputTranscript(src);
  const names = new Map(t.speakers.map((s) => [s.id, cleanLine(s.name)]));
  const showSpeakers = opts.speakers !== 'none';
  const stamp = src.offsetMs ? (ms: number) => msToTimecode(ms, src.frameRate) : formatHms;
  const rows: DocRow[] = [];
  for (const seg of t.segments) {
    const text = cleanLine(segmentText(seg));
    if (!text) continue;
    const start = Math.max(0, seg.words.length ? Math.min(seg.start_ms, seg.words[0].start_ms) : seg.start_ms) + src.offsetMs;
    rows.push({ start_ms: start, stamp: stamp(start), speaker: (showSpeakers && seg.speaker_id && names.get(seg.speaker_id)) || null, text });
  }
  return rows;
}

/** The summary, when the document has one. */
export function summaryOf(src: ExportSource): string | null {
  return src.content.kind === 'transcript' && src.content.summary?.trim() ? src.content.summary.trim() : null;
}
