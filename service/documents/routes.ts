/** Document routes: read, update (with conflict detection), copy, merge, summarize, reset, clear, finish, share, export, translate. */
import { readFileSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyInstance } from 'fastify';
import { buildPath, routes, type Document, type ExportFormat } from '../../common/api';
import { FORMAT_FILES, FormatError, renderExport, type ExportOptions } from '../../common/formats';
import type { CaptionContent, DocumentBody, TranscriptContent } from '../../common/transcript/model';
import { plainText } from '../../common/transcript/model';
import type { UserPrincipal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { summarize } from '../engines/summarize';
import { translateContent } from '../engines/translate';
import { documentError, validationError } from '../http/errors';
import { handle, SENT } from '../http/handle';
import { spoolMail } from '../mail/spool';
import { signToken, verifyToken } from '../net/signed-url';
import { requireSession } from '../sessions/repo';
import { createShare, requireRight, resolveShare } from './share';
import { etagOf, findDocument, insertDocument, listDocuments, parseBody, requireDocument, toDocument, updateDocument, type ScopedDocument } from './store';

/** Lifetime of a direct_download URL, seconds. */
export const DOWNLOAD_TTL = 300;

const orgOf = (p: { kind: string }) => (p as UserPrincipal).orgId;

/**
 * Conflict detection for writes: If-Match with the ETag we sent (exact), or If-Unmodified-Since
 * (HTTP date, whole seconds) older than the document's last_modified, gets 412.
 */
function checkPreconditions(req: FastifyRequest, doc: ScopedDocument): void {
  const ifMatch = req.headers['if-match'];
  if (typeof ifMatch === 'string' && ifMatch.trim() !== '*') {
    const tags = ifMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
    if (!tags.includes(etagOf(doc))) throw documentError(412, 'precondition_failed', 'the document changed since you read it (ETag mismatch)');
  }
  const ius = req.headers['if-unmodified-since'];
  if (typeof ius === 'string') {
    const since = Date.parse(ius);
    if (Number.isNaN(since)) throw validationError('If-Unmodified-Since is not an HTTP date');
    if (Math.floor(Date.parse(doc.last_modified) / 1000) * 1000 > since) {
      throw documentError(412, 'precondition_failed', 'the document changed since you read it (If-Unmodified-Since)');
    }
  }
}

function withValidators(reply: FastifyReply, doc: ScopedDocument): void {
  reply.header('etag', etagOf(doc)).header('last-modified', new Date(doc.last_modified).toUTCString());
}

type UpdateBody = { filename?: string; document?: DocumentBody; plain_document_changed?: 'true' | 'false'; timecode_offset?: string };

function applyUpdate(ctx: ServiceContext, doc: ScopedDocument, body: UpdateBody): ScopedDocument {
  const cols: Parameters<typeof updateDocument>[2] = {};
  if (body.filename !== undefined) cols.filename = body.filename;
  if (body.timecode_offset !== undefined) cols.timecode_offset = body.timecode_offset;
  if (body.document !== undefined) {
    const wantKind = doc.type === 'caption' ? 'caption' : 'transcript';
    if (body.document.content.kind !== wantKind || body.document.document_type !== wantKind) {
      throw validationError(`document: this is a ${wantKind} document; its content must be of kind ${wantKind}`);
    }
    const metadata = { ...body.document.metadata, ...(body.plain_document_changed ? { plain_document_changed: body.plain_document_changed === 'true' } : {}) };
    cols.body = JSON.stringify({ ...body.document, metadata });
  }
  return ctx.db.transaction(() => updateDocument(ctx.db, findDocument(ctx.db, doc.id)!, cols)).immediate();
}

let pdfFont: Uint8Array | undefined;
function exportOptions(doc: ScopedDocument, format: ExportFormat, q: { speakers?: 'none' | 'prefix' | 'voice'; timestamps?: boolean; profile?: string; frame_rate?: number }): ExportOptions {
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

async function sendExport(reply: FastifyReply, doc: ScopedDocument, format: ExportFormat, q: Parameters<typeof exportOptions>[2]): Promise<typeof SENT> {
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

function textOf(body: DocumentBody): string {
  return plainText(body.content).replace(/\n/g, ' ');
}

function mergeBodies(bodies: DocumentBody[]): DocumentBody {
  const first = bodies[0];
  if (first.content.kind === 'transcript') {
    const speakers = new Map<string, { id: string; name: string }>();
    const segments = bodies.flatMap((b) => {
      const c = b.content as TranscriptContent;
      for (const s of c.speakers) if (!speakers.has(s.id)) speakers.set(s.id, s);
      return c.segments;
    });
    return { ...first, content: { kind: 'transcript', version: 1, speakers: [...speakers.values()], segments: segments.map((s, i) => ({ ...s, id: `s${i + 1}` })) } };
  }
  const speakers = new Map<string, { id: string; name: string }>();
  const cues = bodies.flatMap((b) => {
    const c = b.content as CaptionContent;
    for (const s of c.speakers) if (!speakers.has(s.id)) speakers.set(s.id, s);
    return c.cues;
  });
  return { ...first, content: { kind: 'caption', version: 1, speakers: [...speakers.values()], cues: cues.map((c, i) => ({ ...c, id: `c${i + 1}` })) } };
}

export function registerDocumentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  handle(app, ctx, 'documents.list', async ({ params, query, principal }) => {
    const session = requireSession(ctx.db, params.sessionId, orgOf(principal));
    const { rows, total } = listDocuments(ctx.db, session.id, query.limit ?? 25, query.offset ?? 0);
    return { count: rows.length, total_results: total, result: rows.map((r) => toDocument(r, { withContent: query.include_content === true })) };
  });

  handle(app, ctx, 'documents.get', async ({ params, query, principal, reply }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    withValidators(reply, doc);
    if (query.direct_download) {
      const token = signToken(ctx.secret, 'download', doc.id, DOWNLOAD_TTL);
      return toDocument(doc, { download: { url: `${ctx.baseUrl()}${buildPath(routes['documents.download'].path, { token })}`, expiresIn: DOWNLOAD_TTL } });
    }
    return toDocument(doc);
  });

  handle(app, ctx, 'documents.download', async ({ params }) => {
    const id = verifyToken(ctx.secret, 'download', params.token);
    if (!id) throw documentError(403, 'forbidden', 'the download link is invalid or expired');
    const doc = findDocument(ctx.db, id);
    if (!doc) throw documentError(404, 'not_found', 'document does not exist');
    return toDocument(doc);
  });

  handle(app, ctx, 'documents.update', async ({ params, body, principal, req, reply }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    checkPreconditions(req, doc);
    const fresh = applyUpdate(ctx, doc, body);
    withValidators(reply, fresh);
    return toDocument(fresh);
  });

  handle(app, ctx, 'documents.delete', async ({ params, principal, req }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    checkPreconditions(req, doc);
    ctx.db.prepare('DELETE FROM documents WHERE id = ?').run(doc.id);
    ctx.db.prepare('UPDATE sessions SET last_modified = ? WHERE id = ?').run(new Date().toISOString(), doc.session_pk);
    return { deleted: true as const, id: doc.id };
  });

  handle(app, ctx, 'documents.copy', async ({ params, body, principal }) => {
    const src = requireDocument(ctx.db, params.sessionId, body.source_document_id, orgOf(principal));
    const id = insertDocument(ctx.db, { sessionPk: src.session_pk, filename: body.new_filename, type: src.type, language: src.language, body: parseBody(src), original: JSON.parse(src.original), timecodeOffset: src.timecode_offset });
    return toDocument(findDocument(ctx.db, id)!);
  });

  handle(app, ctx, 'documents.merge', async ({ body, principal }) => {
    const docs = body.document_ids.map((id) => {
      const d = findDocument(ctx.db, id);
      if (!d || d.org_id !== orgOf(principal)) throw documentError(404, 'not_found', `document ${id} does not exist`);
      return d;
    });
    if (new Set(docs.map((d) => d.type)).size > 1) throw validationError('document_ids: all documents must be of one type (document or caption)');
    const merged = mergeBodies(docs.map(parseBody));
    const id = insertDocument(ctx.db, { sessionPk: docs[0].session_pk, filename: body.output_filename, type: docs[0].type, language: docs[0].language, body: merged, timecodeOffset: docs[0].timecode_offset });
    return toDocument(findDocument(ctx.db, id)!);
  });

  handle(app, ctx, 'documents.summarize', async ({ params, principal }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    const body = parseBody(doc);
    const summary = summarize(textOf(body));
    const next: DocumentBody =
      body.content.kind === 'transcript' ? { ...body, content: { ...body.content, summary } } : { ...body, metadata: { ...body.metadata, summary } };
    const fresh = ctx.db.transaction(() => updateDocument(ctx.db, doc, { body: JSON.stringify(next) })).immediate();
    return { summary, document: toDocument(fresh) };
  });

  handle(app, ctx, 'documents.resetToOriginal', async ({ params, principal, req }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    checkPreconditions(req, doc);
    return toDocument(ctx.db.transaction(() => updateDocument(ctx.db, doc, { body: doc.original })).immediate());
  });

  handle(app, ctx, 'documents.clearText', async ({ params, principal, req }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    checkPreconditions(req, doc);
    const body = parseBody(doc);
    const content =
      body.content.kind === 'transcript'
        ? { ...body.content, summary: undefined, segments: body.content.segments.map((s) => ({ ...s, words: [] })) }
        : { ...body.content, cues: body.content.cues.map((c) => ({ ...c, lines: [] })) };
    return toDocument(ctx.db.transaction(() => updateDocument(ctx.db, doc, { body: JSON.stringify({ ...body, content }) })).immediate());
  });

  handle(app, ctx, 'documents.finishedStatus', async ({ params, query, principal }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    return toDocument(ctx.db.transaction(() => updateDocument(ctx.db, doc, { finished: query.status ? 1 : 0 })).immediate());
  });

  handle(app, ctx, 'documents.share', async ({ params, body, principal }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    return createShare(ctx, doc, body);
  });

  handle(app, ctx, 'documents.shareEmail', async ({ params, body, principal }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    const link = createShare(ctx, doc, { allow_editing: false, allow_export: true });
    const text = [body.message.trim(), '', `"${doc.filename}" was shared with you:`, link.url, '', `The link works until ${link.expires}.`].join('\n');
    const { messageId } = await spoolMail(ctx.config.dataDir, { to: body.email, subject: `Shared transcript: ${doc.filename}`, text });
    return { sent: true as const, message_id: messageId };
  });

  handle(app, ctx, 'documents.export', async ({ params, query, principal, reply }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    return sendExport(reply, doc, params.format, query);
  });

  handle(app, ctx, 'documents.translate', async ({ params, body, principal }) => {
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, orgOf(principal));
    const src = parseBody(doc);
    const content = await translateContent(src.content, doc.language, body.target_language);
    const translated: DocumentBody = { ...src, metadata: { ...src.metadata, translated_from: doc.id, translation_engine: 'apertium' }, content };
    const id = insertDocument(ctx.db, {
      sessionPk: doc.session_pk,
      filename: `${doc.filename} (${body.target_language})`,
      type: doc.type,
      language: body.target_language.toLowerCase(),
      body: translated,
      timecodeOffset: doc.timecode_offset,
    });
    return toDocument(findDocument(ctx.db, id)!);
  });

  handle(app, ctx, 'shared.document', async ({ params, query, reply }) => {
    resolveShare(ctx.db, query.token, params.sessionId, params.documentId);
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, null);
    withValidators(reply, doc);
    return toDocument(doc);
  });

  handle(app, ctx, 'shared.update', async ({ params, query, body, req, reply }) => {
    requireRight(resolveShare(ctx.db, query.token, params.sessionId, params.documentId), 'allow_editing');
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, null);
    checkPreconditions(req, doc);
    const fresh = applyUpdate(ctx, doc, body);
    withValidators(reply, fresh);
    return toDocument(fresh);
  });

  handle(app, ctx, 'shared.export', async ({ params, query, reply }) => {
    requireRight(resolveShare(ctx.db, query.token, params.sessionId, params.documentId), 'allow_export');
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, null);
    return sendExport(reply, doc, params.format, query);
  });
}

export type { Document };
