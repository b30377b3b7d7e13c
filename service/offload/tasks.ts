/**
 * The heavy pure work the service runs off its event loop (service/offload/pool.ts): each task
 * takes and gives plain data (document bodies as JSON text, so the threads copy one string, not a
 * tree of objects), and imports nothing that touches the database or the network.
 */
import { readFileSync } from 'node:fs';
import { DocumentUpdateBody, routes, type ExportFormat, type RouteId } from '../../common/api';
import { issueText } from '../../node/zod-issues';
import { prepareUpdate, type PreparedUpdate, type Refusal } from '../documents/update';
import { renderExport, type ExportOptions } from '../../common/formats';
import type { Document } from '../../common/api';
import type { DocumentBody, Word } from '../../common/transcript/model';
import { clearedBody, mergeBodies, withSummary } from '../documents/content-ops';
import { pickSummary, summaryUnits, type SummaryPick } from '../documents/summary';
import { documentEndMs } from '../sessions/duration';
import type { BodyText } from '../documents/store';
import { alignText } from '../engines/align-tokens';
import { translationLines, withTranslation } from '../engines/translate';
import { readUpload } from '../engines/upload';
import { tellSpeakersApart } from '../engines/speakers';
import type { TranscriptContent } from '../../common/transcript/model';


const bodyText = (body: DocumentBody): BodyText => ({ json: JSON.stringify(body), endMs: documentEndMs(body) });

function parseJson(text: string): { ok: true; data: unknown } | Refusal {
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, status: 400, message: `the body is not valid JSON: ${(e as Error).message}` };
  }
}

let pdfFont: Uint8Array | undefined;

export const tasks = {
  /** The speaker step over a job's WAV (engines/speakers.ts); the transcript travels as JSON text. */
  async speakers(input: { wavPath: string; durationMs: number; transcript: string }) {
    const told = await tellSpeakersApart(input.wavPath, input.durationMs, JSON.parse(input.transcript) as TranscriptContent);
    return { transcript: JSON.stringify(told.transcript), diarization: told.diarization };
  },
  /** The summary's engine alone: the units TextRank picks (a team server's worker runs this). */
  summaryPick(input: { body: string }): SummaryPick[] {
    return pickSummary(summaryUnits((JSON.parse(input.body) as DocumentBody).content)).map(({ text, start_ms, end_ms }) => ({ text, start_ms, end_ms }));
  },
  /** The body with the summary of units picked elsewhere. */
  summarizedWith(input: { body: string; units: SummaryPick[] }): { summary: string; body: BodyText } {
    const { summary, body } = withSummary(JSON.parse(input.body) as DocumentBody, input.units);
    return { summary, body: bodyText(body) };
  },
  /** A stored body (the engine's original, for reset) with its end. */
  stored(input: { body: string }): BodyText {
    return bodyText(JSON.parse(input.body) as DocumentBody);
  },
  clear(input: { body: string }): BodyText {
    return bodyText(clearedBody(JSON.parse(input.body) as DocumentBody));
  },
  merge(input: { bodies: string[] }): BodyText {
    return bodyText(mergeBodies(input.bodies.map((b) => JSON.parse(b) as DocumentBody)));
  },
  async export(input: { format: ExportFormat; document: Omit<Document, 'document'>; body: string; options: ExportOptions }): Promise<Uint8Array> {
    // PDF embeds DejaVu Sans (Debian's fonts-dejavu-core), read once per thread.
    if (input.format === 'pdf') pdfFont ??= new Uint8Array(readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'));
    const options = input.format === 'pdf' ? { ...input.options, font: pdfFont } : input.options;
    return renderExport(input.format, { ...input.document, document: JSON.parse(input.body) as DocumentBody }, options);
  },
  /** A large JSON body checked against its route's schema: the data, or the refusal in words. */
  checkBody(input: { route: RouteId; text: string }): { ok: true; data: unknown } | Refusal {
    const parsed = parseJson(input.text);
    if (!parsed.ok) return parsed;
    const checked = routes[input.route].body.schema.safeParse(parsed.data);
    return checked.success ? { ok: true, data: checked.data } : { ok: false, status: 422, message: issueText(checked.error, 'body') };
  },
  /** A document write's large body, checked and prepared (./documents/update.ts) without the event loop ever holding the tree. */
  documentUpdate(input: { text: string; kind: 'transcript' | 'caption'; maxWords: number | null }): PreparedUpdate | Refusal {
    const parsed = parseJson(input.text);
    if (!parsed.ok) return parsed;
    const checked = DocumentUpdateBody.safeParse(parsed.data);
    if (!checked.success) return { ok: false, status: 422, message: issueText(checked.error, 'body') };
    return prepareUpdate(checked.data, input.kind, input.maxWords);
  },
  translationLines(input: { body: string }): string[] {
    return translationLines((JSON.parse(input.body) as DocumentBody).content);
  },
  /** The translated document's body: the source's with its lines replaced and where it came from in its metadata. */
  translated(input: { body: string; lines: string[]; from: string }): BodyText {
    const src = JSON.parse(input.body) as DocumentBody;
    return bodyText({ ...src, metadata: { ...src.metadata, translated_from: input.from, translation_engine: 'apertium' }, content: withTranslation(src.content, input.lines) });
  },
  readUpload(input: { text: string; diarization: boolean }) {
    return readUpload(input.text, input.diarization);
  },
  align(input: { text: string; recognized: Word[]; durationMs: number }) {
    return alignText(input.text, input.recognized, input.durationMs);
  },
};

export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;
export type TaskInput<K extends TaskName> = Parameters<Tasks[K]>[0];
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<Tasks[K]>>;
