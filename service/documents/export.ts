/** Sends a document rendered by common/formats, on an offload thread (service/offload), as an attachment. */
import type { FastifyReply } from 'fastify';
import type { ExportFormat } from '../../common/api';
import { FORMAT_FILES, type ExportOptions } from '../../common/formats';
import type { ServiceContext } from '../context';
import { SENT } from '../http/handle';
import { offloaded } from '../offload/http';
import { toDocument, type ScopedDocument } from './store';

export interface ExportQuery {
  speakers?: 'none' | 'prefix' | 'voice';
  timestamps?: boolean;
  profile?: string;
  frame_rate?: number;
}

function exportOptions(doc: ScopedDocument, q: ExportQuery): ExportOptions {
  const opts: ExportOptions = { title: doc.filename, language: doc.language };
  if (q.speakers) opts.speakers = q.speakers;
  if (q.timestamps !== undefined) opts.timestamps = q.timestamps;
  if (q.profile) opts.profile = q.profile as ExportOptions['profile'];
  if (q.frame_rate) opts.frameRate = q.frame_rate;
  return opts;
}

export async function sendExport(ctx: ServiceContext, reply: FastifyReply, doc: ScopedDocument, format: ExportFormat, q: ExportQuery): Promise<typeof SENT> {
  const bytes = await offloaded(ctx, 'export', { format, document: toDocument(doc, {}), body: doc.body, options: exportOptions(doc, q) });
  const f = FORMAT_FILES[format];
  const name = `${doc.filename.replace(/[^\w .()-]+/g, '_') || 'document'}.${f.extension}`;
  await reply
    .header('content-type', f.mediaType.startsWith('text/') ? `${f.mediaType}; charset=utf-8` : f.mediaType)
    .header('content-disposition', `attachment; filename="${name.replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return SENT;
}
