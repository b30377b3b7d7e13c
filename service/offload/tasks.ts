/**
 * The heavy pure work the service runs off its event loop (service/offload/pool.ts): each task
 * takes and gives plain data (document bodies as JSON text, so the threads copy one string, not a
 * tree of objects), and imports nothing that touches the database or the network.
 */
import { readFileSync } from 'node:fs';
import type { ExportFormat } from '../../common/api';
import { renderExport, type ExportOptions } from '../../common/formats';
import type { Document } from '../../common/api';
import type { DocumentBody, Word } from '../../common/transcript/model';
import { mergeBodies, summarizedBody } from '../documents/content-ops';
import { documentEndMs } from '../sessions/duration';
import type { BodyText } from '../documents/store';
import { alignTokens } from '../engines/align-tokens';


const bodyText = (body: DocumentBody): BodyText => ({ json: JSON.stringify(body), endMs: documentEndMs(body) });

let pdfFont: Uint8Array | undefined;

export const tasks = {
  summarize(input: { body: string }): { summary: string; body: BodyText } {
    const { summary, body } = summarizedBody(JSON.parse(input.body) as DocumentBody);
    return { summary, body: bodyText(body) };
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
  align(input: { tokens: string[]; recognized: Word[]; durationMs: number }) {
    return alignTokens(input.tokens, input.recognized, input.durationMs);
  },
};

export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;
export type TaskInput<K extends TaskName> = Parameters<Tasks[K]>[0];
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<Tasks[K]>>;
