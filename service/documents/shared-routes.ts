/**
 * The magic-link routes: no Bearer, the ?token= decides. A bad, expired, revoked or
 * other-document token is 401 (share.ts), charged to the caller's address (429 past the limit);
 * a link without the right is 403. A link renders one export at a time (more at once is 429):
 * whoever holds it cannot fill the export threads.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { codedError } from '../http/errors';
import { handle } from '../http/handle';
import { checkPreconditions, withValidators } from './conditions';
import { sendExport } from './export';
import { requireRight, resolveShare } from './share';
import { documentAnswer, requireDocument } from './store';
import { applyUpdate } from './update';

export function registerSharedDocumentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  /** Links (by token hash) with an export being rendered. */
  const exporting = new Set<string>();

  handle(app, ctx, 'shared.document', async ({ params, query, req, reply }) => {
    resolveShare(ctx.db, req.ip, query.token, params.sessionId, params.documentId);
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, null);
    withValidators(reply, doc);
    return documentAnswer(doc);
  });

  handle(
    app,
    ctx,
    'shared.update',
    async ({ params, query, body, largeBody, req, reply }) => {
      requireRight(resolveShare(ctx.db, req.ip, query.token, params.sessionId, params.documentId), 'allow_editing');
      const doc = requireDocument(ctx.db, params.sessionId, params.documentId, null);
      checkPreconditions(req, doc);
      const fresh = await applyUpdate(ctx, doc, largeBody ?? body);
      withValidators(reply, fresh);
      return documentAnswer(fresh);
    },
    { largeBodyAsText: true },
  );

  handle(app, ctx, 'shared.export', async ({ params, query, req, reply }) => {
    const link = resolveShare(ctx.db, req.ip, query.token, params.sessionId, params.documentId);
    requireRight(link, 'allow_export');
    if (exporting.has(link.token_hash)) {
      throw codedError(429, 'export_in_progress', 'An export through this link is still being made; wait for it to finish, then ask again.');
    }
    exporting.add(link.token_hash);
    try {
      const doc = requireDocument(ctx.db, params.sessionId, params.documentId, null);
      return await sendExport(ctx, reply, doc, params.format, query);
    } finally {
      exporting.delete(link.token_hash);
    }
  });
}
