/**
 * The document content model shared by the service, the app and the exporters.
 *
 * Times are integer milliseconds so that word timings survive every round trip exactly
 * (no float drift through JSON, SQLite or the formats). A transcript is speakers plus timed
 * segments of timed words; a caption is timed cues of lines. Both are versioned: readers accept
 * every version they know and migrate it to the current one.
 */
import { z } from 'zod';

export const CONTENT_VERSION = 1 as const;

const ms = z.number().int().min(0);

export const Word = z.object({
  text: z.string(),
  start_ms: ms,
  end_ms: ms,
  /** 0..1; 1 for words a person typed or that came from an uploaded document. */
  confidence: z.number().min(0).max(1),
});
export type Word = z.infer<typeof Word>;

const WORD_KEYS = 4;
/** Is `w` a Word exactly as the schema would give it back (its four fields, nothing more)? */
function isExactWord(w: unknown): boolean {
  if (typeof w !== 'object' || w === null || Array.isArray(w)) return false;
  const { text, start_ms, end_ms, confidence } = w as Record<string, unknown>;
  if (typeof text !== 'string' || !Number.isSafeInteger(start_ms) || !Number.isSafeInteger(end_ms)) return false;
  if ((start_ms as number) < 0 || (end_ms as number) < 0 || typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1)) return false;
  let keys = 0;
  for (const k in w) if (Object.hasOwn(w, k)) keys++;
  return keys === WORD_KEYS;
}

const WordList = z.array(Word);
/**
 * A segment's words, which are most of a document: a plain loop takes a list of exact Words as it
 * is, where zod would copy every word (a first sync checks millions). Any other list goes through
 * WordList, which strips unknown keys or names the bad field, so the result is the same.
 */
const Words = z.custom<Word[]>().transform((value, ctx): Word[] => {
  if (Array.isArray(value) && value.every(isExactWord)) return value;
  const checked = WordList.safeParse(value);
  if (checked.success) return checked.data;
  ctx.issues.push(...(checked.error.issues as typeof ctx.issues));
  return z.NEVER;
});

export const Speaker = z.object({
  id: z.string().min(1),
  name: z.string(),
});
export type Speaker = z.infer<typeof Speaker>;

export const Segment = z.object({
  id: z.string().min(1),
  speaker_id: z.string().nullable(),
  start_ms: ms,
  end_ms: ms,
  words: Words,
});
export type Segment = z.infer<typeof Segment>;

export const TranscriptContent = z.object({
  kind: z.literal('transcript'),
  version: z.literal(CONTENT_VERSION),
  speakers: z.array(Speaker),
  segments: z.array(Segment),
  /** Extractive summary, when one was made. */
  summary: z.string().optional(),
});
export type TranscriptContent = z.infer<typeof TranscriptContent>;

export const Cue = z.object({
  id: z.string().min(1),
  start_ms: ms,
  end_ms: ms,
  lines: z.array(z.string()),
  speaker_id: z.string().nullable().optional(),
});
export type Cue = z.infer<typeof Cue>;

export const CaptionContent = z.object({
  kind: z.literal('caption'),
  version: z.literal(CONTENT_VERSION),
  speakers: z.array(Speaker),
  cues: z.array(Cue),
});
export type CaptionContent = z.infer<typeof CaptionContent>;

export const DocumentContent = z.discriminatedUnion('kind', [TranscriptContent, CaptionContent]);
export type DocumentContent = z.infer<typeof DocumentContent>;

/** What the engine or the importer knew about the document; free-form beyond these keys. */
export const DocumentMetadata = z.looseObject({
  /** Frames per second used with the document's timecode_offset (HH:MM:SS:FF). */
  frame_rate: z.number().positive().optional(),
  engine: z.string().optional(),
  /** Whether speakers were asked for, whether a speaker step ran (method), how many it found, or why not. */
  diarization: z
    .object({ requested: z.boolean(), available: z.boolean(), method: z.string().optional(), speakers: z.number().int().nonnegative().optional(), note: z.string().optional() })
    .optional(),
  source_format: z.string().optional(),
});
export type DocumentMetadata = z.infer<typeof DocumentMetadata>;

/**
 * The `document` object carried inside the spec's Document resource. The app's cache stores a
 * pulled body as the text the service sent once this schema accepts it (main/sync/pull.ts cuts it
 * out of the page with main/api/json-members.ts), so this schema and those under it must not fill
 * in defaults or rewrite values.
 */
export const DocumentBody = z.object({
  document_type: z.enum(['transcript', 'caption']),
  metadata: DocumentMetadata,
  content: DocumentContent,
});
export type DocumentBody = z.infer<typeof DocumentBody>;

export const DEFAULT_FRAME_RATE = 25;

export function emptyTranscript(): TranscriptContent {
  return { kind: 'transcript', version: CONTENT_VERSION, speakers: [], segments: [] };
}

export function emptyCaption(): CaptionContent {
  return { kind: 'caption', version: CONTENT_VERSION, speakers: [], cues: [] };
}

/** The plain text of a segment: its words joined by single spaces. */
export function segmentText(segment: Segment): string {
  return segment.words.map((w) => w.text).join(' ');
}

/** The plain text of any content, one segment or cue a line. */
export function plainText(content: DocumentContent): string {
  if (content.kind === 'transcript') return content.segments.map(segmentText).join('\n');
  return content.cues.map((c) => c.lines.join(' ')).join('\n');
}
