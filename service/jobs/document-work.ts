/**
 * A document's engine work, translation and summary, as the job queue runs it: in this process
 * (jobs/runner.ts) or on a team server's worker (queue/document-work.ts, worker/document-work.ts).
 * Only the engine's part travels: the lines Apertium translates and the lines it answers, or the
 * document and the units TextRank picks. Reading the document and storing the outcome stay with
 * the route, which answers the caller once the work is done, as before.
 */
import { z } from 'zod';
import { MAX_DOCUMENT_BYTES } from '../documents/limits';
import { MAX_SUMMARY_UNITS, type SummaryPick } from '../documents/summary';
import { translateLines } from '../engines/translate';

/** A document of MAX_DOCUMENT_BYTES holds fewer lines than this, and no line longer. */
const MAX_LINES = 1_000_000;
const MAX_LINE_CHARS = MAX_DOCUMENT_BYTES;

export const DocumentWork = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('translate'),
    /** The Apertium mode (eng-spa), which also names the queue of the workers that have it. */
    mode: z.string().min(1).max(40),
    source_language: z.string().min(1).max(32),
    target_language: z.string().min(1).max(32),
    lines: z.array(z.string().max(MAX_LINE_CHARS)).max(MAX_LINES),
  }),
  z.object({ kind: z.literal('summarize'), body: z.string().max(MAX_DOCUMENT_BYTES) }),
]);
export type DocumentWork = z.infer<typeof DocumentWork>;

const Pick = z.object({ text: z.string().max(MAX_LINE_CHARS), start_ms: z.number().nonnegative(), end_ms: z.number().nonnegative() });

export const DocumentWorkOutput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('translate'), lines: z.array(z.string().max(MAX_LINE_CHARS)).max(MAX_LINES) }),
  z.object({ kind: z.literal('summarize'), units: z.array(Pick).max(MAX_SUMMARY_UNITS) }),
]);
export type DocumentWorkOutput = z.infer<typeof DocumentWorkOutput>;
export type TranslateOutput = Extract<DocumentWorkOutput, { kind: 'translate' }>;

/** Runs the engine of one piece of document work on this machine; `pick` runs TextRank on an offload thread. */
export async function runDocumentWork(work: DocumentWork, pick: (body: string) => Promise<SummaryPick[]>): Promise<DocumentWorkOutput> {
  if (work.kind === 'translate') return { kind: 'translate', lines: await translateLines(work.lines, work.source_language, work.target_language) };
  return { kind: 'summarize', units: await pick(work.body) };
}
