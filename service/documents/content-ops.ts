/** The document operations that only transform a body: merge, clear_text, summarize. */
import type { CaptionContent, DocumentBody, Speaker, TranscriptContent } from '../../common/transcript/model';
import { summaryText, SUMMARY_RATIO, type SummaryPick } from './summary';

function uniqueSpeakers(lists: Speaker[][]): Speaker[] {
  const byId = new Map<string, Speaker>();
  for (const s of lists.flat()) if (!byId.has(s.id)) byId.set(s.id, s);
  return [...byId.values()];
}

/** Concatenates bodies of one kind in the given order, renumbering segment or cue ids so they stay unique. */
export function mergeBodies(bodies: DocumentBody[]): DocumentBody {
  const first = bodies[0];
  if (first.content.kind === 'transcript') {
    const parts = bodies.map((b) => b.content as TranscriptContent);
    const segments = parts.flatMap((c) => c.segments).map((s, i) => ({ ...s, id: `s${i + 1}` }));
    return { ...first, content: { kind: 'transcript', version: 1, speakers: uniqueSpeakers(parts.map((c) => c.speakers)), segments } };
  }
  const parts = bodies.map((b) => b.content as CaptionContent);
  const cues = parts.flatMap((c) => c.cues).map((c, i) => ({ ...c, id: `c${i + 1}` }));
  return { ...first, content: { kind: 'caption', version: 1, speakers: uniqueSpeakers(parts.map((c) => c.speakers)), cues } };
}

/** Empties the words (or cue lines) and keeps every segment's and cue's times, so the text can be typed afresh. */
export function clearedBody(body: DocumentBody): DocumentBody {
  const content =
    body.content.kind === 'transcript'
      ? { ...body.content, summary: undefined, segments: body.content.segments.map((s) => ({ ...s, words: [] })) }
      : { ...body.content, cues: body.content.cues.map((c) => ({ ...c, lines: [] })) };
  return { ...body, content };
}

/**
 * The body with an extractive summary of the units ./summary.ts picked (here, or on a team
 * server's worker): its text is kept in content.summary for transcripts and
 * metadata.summary for captions (whose content has no such field); the chosen units with their
 * times in metadata.summary_units, so a reader can play or jump to each.
 */
export function withSummary(body: DocumentBody, units: SummaryPick[]): { summary: string; body: DocumentBody } {
  const summary = summaryText(units);
  const metadata = { ...body.metadata, summary_ratio: SUMMARY_RATIO, summary_units: units.map(({ text, start_ms, end_ms }) => ({ text, start_ms, end_ms })) };
  const next: DocumentBody =
    body.content.kind === 'transcript' ? { ...body, metadata, content: { ...body.content, summary } } : { ...body, metadata: { ...metadata, summary } };
  return { summary, body: next };
}
