/**
 * Document routes for signed-in callers: list, read (or direct_download), update, delete, copy,
 * merge, summarize, reset, clear, finish, share (create, revoke, e-mail), export, translate.
 * Every write checks If-Match / If-Unmodified-Since (412 when stale) and answers fresh validators.
 * Another organization's document is 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserPrincipal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { translationMode, translationTargets } from '../engines/translate';
import { codedError, documentError, validationError } from '../http/errors';
import type { JobQueue } from '../jobs/job-queue';
import { handle, JsonText } from '../http/handle';
import { deliverMail, MailDeliveryError } from '../mail/send';
import { refreshDocumentDuration } from '../sessions/duration';
import { requireSession } from '../sessions/repo';
import { checkPreconditions, withValidators } from './conditions';
import { downloadLink, downloadSubject, downloadTtl } from './download';
import { sendExport } from './export';
import { checkMergedSize } from './limits';
import { offloaded } from '../offload/http';
import { createShare, listShares, revokeAllShares, revokeShare } from './share';
import { registerSharedDocumentRoutes } from './shared-routes';
import { documentsPage, documentsPageWithContent } from './list-page';
import { documentAnswer, documentSize, findDocument, originalOf, insertDocument, requireDocument, toDocument, updateDocument, type DocumentColumns, type ScopedDocument } from './store';
import { applyUpdate } from './update';

function throwNotFound(id: string): never {
  throw documentError(404, 'not_found', `document ${id} does not exist`);
}

/** A body-rewriting write: preconditions, compare-and-set, fresh validators. */
function rewrite(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply, doc: ScopedDocument, cols: DocumentColumns): ScopedDocument {
  checkPreconditions(req, doc);
  const fresh = ctx.db.transaction(() => updateDocument(ctx.db, doc, cols)).immediate();
  withValidators(reply, fresh);
  return fresh;
}

export function registerDocumentRoutes(app: FastifyInstance, ctx: ServiceContext, jobs: JobQueue): void {
  downloadTtl(); // a malformed S2T_DOWNLOAD_TTL_SECONDS fails here, at start
  const owned = (params: { sessionId: string; documentId: string }, principal: UserPrincipal) =>
    requireDocument(ctx.db, params.sessionId, params.documentId, principal.orgId);

  handle(app, ctx, 'documents.list', async ({ params, query, principal }) => {
    const session = requireSession(ctx.db, params.sessionId, principal.orgId);
    const page = query.include_content === true ? documentsPageWithContent : documentsPage;
    return page(ctx.db, session.id, query.limit ?? 25, query.offset ?? 0);
  });

  handle(app, ctx, 'documents.get', async ({ params, query, principal, reply }) => {
    const doc = owned(params, principal);
    withValidators(reply, doc);
    return query.direct_download ? toDocument(doc, { download: downloadLink(ctx, doc.id) }) : documentAnswer(doc);
  });

  handle(app, ctx, 'documents.download', async ({ params }) => {
    const id = downloadSubject(ctx, params.token);
    if (!id) throw documentError(403, 'forbidden', 'the download link is invalid or expired');
    const doc = findDocument(ctx.db, id);
    if (!doc) throw documentError(404, 'not_found', 'document does not exist');
    return documentAnswer(doc);
  });

  handle(
    app,
    ctx,
    'documents.update',
    async ({ params, body, largeBody, principal, req, reply }) => {
      const doc = owned(params, principal);
      checkPreconditions(req, doc);
      const fresh = await applyUpdate(ctx, doc, largeBody ?? body);
      withValidators(reply, fresh);
      return documentAnswer(fresh);
    },
    { largeBodyAsText: true },
  );

  handle(app, ctx, 'documents.delete', async ({ params, principal, req }) => {
    const doc = owned(params, principal);
    checkPreconditions(req, doc);
    ctx.db.prepare('DELETE FROM documents WHERE id = ?').run(doc.id);
    ctx.db.prepare('UPDATE sessions SET last_modified = ? WHERE id = ?').run(new Date().toISOString(), doc.session_pk);
    refreshDocumentDuration(ctx.db, doc.session_pk);
    return { deleted: true as const, id: doc.id };
  });

  handle(app, ctx, 'documents.copy', async ({ params, body, principal }) => {
    const src = requireDocument(ctx.db, params.sessionId, body.source_document_id, principal.orgId);
    // The copy keeps the source's engine original, so reset_to_original works on it too.
    const id = insertDocument(ctx.db, { sessionPk: src.session_pk, filename: body.new_filename, type: src.type, language: src.language, body: { json: src.body, endMs: src.end_ms }, original: originalOf(ctx.db, src.id), timecodeOffset: src.timecode_offset });
    return documentAnswer(findDocument(ctx.db, id)!);
  });

  handle(app, ctx, 'documents.merge', async ({ body, principal }) => {
    // Sizes first, bodies only once the merge fits: another organization's document is 404
    // before anything else is said about the list, and a document named twice is refused.
    const sizes = new Map<string, { org_id: number; type: string; bytes: number }>();
    for (const id of body.document_ids) {
      if (sizes.has(id)) continue;
      const d = documentSize(ctx.db, id);
      if (!d || d.org_id !== principal.orgId) throw documentError(404, 'not_found', `document ${id} does not exist`);
      sizes.set(id, d);
    }
    if (sizes.size < body.document_ids.length) {
      const twice = body.document_ids.find((id, i) => body.document_ids.indexOf(id) !== i);
      throw validationError(`document_ids: document ${twice} is named more than once; name each document once`);
    }
    if (new Set([...sizes.values()].map((d) => d.type)).size > 1) throw validationError('document_ids: all documents must be of one type (document or caption)');
    checkMergedSize([...sizes.values()].reduce((n, d) => n + d.bytes, 0));
    const docs = body.document_ids.map((id) => findDocument(ctx.db, id) ?? throwNotFound(id));
    const merged = await offloaded(ctx, 'merge', { bodies: docs.map((d) => d.body) });
    const id = insertDocument(ctx.db, { sessionPk: docs[0].session_pk, filename: body.output_filename, type: docs[0].type, language: docs[0].language, body: merged, timecodeOffset: docs[0].timecode_offset });
    return documentAnswer(findDocument(ctx.db, id)!);
  });

  handle(app, ctx, 'documents.summarize', async ({ params, principal, req, reply }) => {
    const doc = owned(params, principal);
    // TextRank runs where the engines run (a team server's worker); the body is rebuilt here.
    const picked = await jobs.documentWork({ kind: 'summarize', body: doc.body });
    if (picked.kind !== 'summarize') throw new Error('the summary engine answered another kind of work');
    const { summary, body } = await offloaded(ctx, 'summarizedWith', { body: doc.body, units: picked.units });
    // The document may have changed while the summary was made: rewrite's compare-and-set answers 412 then.
    const fresh = rewrite(ctx, req, reply, doc, { body });
    return new JsonText(`{"summary":${JSON.stringify(summary)},"document":${documentAnswer(fresh).text}}`);
  });

  handle(app, ctx, 'documents.resetToOriginal', async ({ params, principal, req, reply }) => {
    const doc = owned(params, principal);
    checkPreconditions(req, doc);
    return documentAnswer(rewrite(ctx, req, reply, doc, { body: await offloaded(ctx, 'stored', { body: originalOf(ctx.db, doc.id) }) }));
  });

  handle(app, ctx, 'documents.clearText', async ({ params, principal, req, reply }) => {
    const doc = owned(params, principal);
    checkPreconditions(req, doc);
    return documentAnswer(rewrite(ctx, req, reply, doc, { body: await offloaded(ctx, 'clear', { body: doc.body }) }));
  });

  handle(app, ctx, 'documents.finishedStatus', async ({ params, query, principal, req, reply }) => {
    const doc = owned(params, principal);
    return documentAnswer(rewrite(ctx, req, reply, doc, { finished: query.status ? 1 : 0 }));
  });

  handle(app, ctx, 'documents.share', async ({ params, body, principal }) => createShare(ctx, owned(params, principal), body));

  handle(app, ctx, 'documents.shareList', async ({ params, principal }) => ({ document_id: params.documentId, links: listShares(ctx.db, owned(params, principal)) }));

  handle(app, ctx, 'documents.shareRevoke', async ({ params, principal }) => revokeShare(ctx.db, owned(params, principal), params.token));

  handle(app, ctx, 'documents.shareRevokeAll', async ({ params, principal }) => revokeAllShares(ctx.db, owned(params, principal)));

  handle(app, ctx, 'documents.shareEmail', async ({ params, body, principal }) => {
    const doc = owned(params, principal);
    const link = createShare(ctx, doc, { allow_editing: false, allow_export: true }, body.email);
    const reach = link.local_only ? ' It opens only on the computer it was shared from (the service has no public address).' : '';
    const text = [body.message.trim(), '', `"${doc.filename}" was shared with you:`, link.url, '', `The link works until ${link.expires}.${reach}`].join('\n');
    let mail;
    try {
      mail = await deliverMail(ctx.config.dataDir, ctx.config.smtp, { to: body.email, subject: `Shared transcript: ${doc.filename}`, text });
    } catch (e) {
      if (e instanceof MailDeliveryError) throw documentError(502, 'mail_not_sent', e.message);
      throw e;
    }
    return {
      sent: mail.delivery === 'smtp',
      message_id: mail.messageId,
      delivery: mail.delivery,
      ...(mail.delivery === 'draft' ? { draft_path: mail.path } : {}),
      link_url: link.url,
      local_only: link.local_only === true,
      link_id: link.id,
      expires: link.expires,
    };
  });

  handle(app, ctx, 'documents.export', async ({ params, query, principal, reply }) => sendExport(ctx, reply, owned(params, principal), params.format, query));

  handle(app, ctx, 'documents.translate', async ({ params, body, principal }) => {
    const doc = owned(params, principal);
    // The document is read and rebuilt on an offload thread; Apertium runs where the engines run
    // (a child process here, or a team server's worker), on the lines alone.
    const mode = translationMode(doc.language, body.target_language);
    const lines = await offloaded(ctx, 'translationLines', { body: doc.body });
    const out = await jobs.documentWork({ kind: 'translate', mode, source_language: doc.language, target_language: body.target_language, lines });
    if (out.kind !== 'translate' || out.lines.length !== lines.length) throw codedError(500, 'TRANSLATION_FAILED', 'The translation engine changed the number of lines; translation aborted.');
    const translated = await offloaded(ctx, 'translated', { body: doc.body, lines: out.lines, from: doc.id });
    const id = insertDocument(ctx.db, {
      sessionPk: doc.session_pk,
      filename: `${doc.filename} (${body.target_language})`,
      type: doc.type,
      language: body.target_language.toLowerCase(),
      body: translated,
      timecodeOffset: doc.timecode_offset,
    });
    return documentAnswer(findDocument(ctx.db, id)!);
  });

  handle(app, ctx, 'documents.translateTargets', async ({ params, principal }) => {
    const { modes, where } = await jobs.translationModes();
    return translationTargets(owned(params, principal).language, modes, where);
  });

  registerSharedDocumentRoutes(app, ctx);
}
