/** Sends a document rendered by common/formats as an attachment. */
import { readFileSync } from 'node:fs';
import type { FastifyReply } from 'fastify';
import type { ExportFormat } from '../../common/api';
import { FORMAT_FILES, FormatError, renderExport, type ExportOptions } from '../../common/formats';
import { validationError } from '../http/errors';
import { SENT } from '../http/handle';
import { toDocument, type ScopedDocument } from './store';

export interface ExportQuery {
  speakers?: 'none' | 'prefix' | 'voice';
  timestamps?: boolean;
  profile?: string;
  frame_rate?: number;
}

/** Read once: PDF embeds DejaVu Sans (Debian's fonts-dejavu-core). */
let pdfFont: Uint8Array | undefined;

function exportOptions(doc: ScopedDocument, format: ExportFormat, q: ExportQuery): ExportOptions {
  const opts: ExportOptions = { title: doc.filename, language: doc.language };
  if (q.speakers) opts.speakers = q.speakers;
  if (q.timestamps !== undefined) opts.timestamps = q.timestamps;
  if (q.profile) opts.profile = q.profile as ExportOptions['profile'];
  if (q.frame_rate) opts.frameRate = q.frame_rate;
  if (format === 'pdf') {
    pdfFont ??= new Uint8Array(readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'));
    opts.font = pdfFont;
  }
  return opts;
}

export async function sendExport(reply: FastifyReply, doc: ScopedDocument, format: ExportFormat, q: ExportQuery): Promise<typeof SENT> {
  let bytes: Uint8Array;
  try {
    bytes = await renderExport(format, toDocument(doc), exportOptions(doc, format, q));
  } catch (e) {
    if (e instanceof FormatError) throw validationError(`export ${format}: ${e.message}`);
    throw e;
  }
  const f = FORMAT_FILES[format];
  const name = `${doc.filename.replace(/[^\w .()-]+/g, '_') || 'document'}.${f.extension}`;
  await reply
    .header('content-type', f.mediaType.startsWith('text/') ? `${f.mediaType}; charset=utf-8` : f.mediaType)
    .header('content-disposition', `attachment; filename="${name.replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return SENT;
}
