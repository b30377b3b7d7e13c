/**
 * The magic-link routes: no Bearer, the ?token= decides. A bad, expired, revoked or
 * other-document token is 401 (share.ts), charged to the caller's address (429 past the limit);
 * a link without the right is 403.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { handle } from '../http/handle';
import { checkPreconditions, withValidators } from './conditions';
import { sendExport } from './export';
import { requireRight, resolveShare } from './share';
import { requireDocument, toDocument } from './store';
import { applyUpdate } from './update';

export function registerSharedDocumentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  handle(app, ctx, 'shared.document', async ({ params, query, req, reply }) => {
    resolveShare(ctx.db, req.ip, query.token, params.sessionId, params.documentId);
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, null);
    withValidators(reply, doc);
    return toDocument(doc);
  });

  handle(app, ctx, 'shared.update', async ({ params, query, body, req, reply }) => {
    requireRight(resolveShare(ctx.db, req.ip, query.token, params.sessionId, params.documentId), 'allow_editing');
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, null);
    checkPreconditions(req, doc);
    const fresh = applyUpdate(ctx, doc, body);
    withValidators(reply, fresh);
    return toDocument(fresh);
  });

  handle(app, ctx, 'shared.export', async ({ params, query, req, reply }) => {
    requireRight(resolveShare(ctx.db, req.ip, query.token, params.sessionId, params.documentId), 'allow_export');
    const doc = requireDocument(ctx.db, params.sessionId, params.documentId, null);
    return sendExport(reply, doc, params.format, query);
  });
}
