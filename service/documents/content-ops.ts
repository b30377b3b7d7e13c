/** The document operations that only transform a body: merge, clear_text, summarize. */
import type { CaptionContent, DocumentBody, Speaker, TranscriptContent } from '../../common/transcript/model';
import { plainText } from '../../common/transcript/model';
import { summarize } from '../engines/summarize';

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

/** An extractive summary, kept in content.summary for transcripts and metadata.summary for captions (whose content has no such field). */
export function summarizedBody(body: DocumentBody): { summary: string; body: DocumentBody } {
  const summary = summarize(plainText(body.content).replace(/\n/g, ' '));
  const next: DocumentBody =
    body.content.kind === 'transcript' ? { ...body, content: { ...body.content, summary } } : { ...body, metadata: { ...body.metadata, summary } };
  return { summary, body: next };
}
