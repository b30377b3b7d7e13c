/**
 * The page a magic link opens: /transcripts/shared/{sessionId}/{documentId}?token= (and
 * /captions/shared/…), rendered here, with its script and style from this plugin. The token is
 * checked on the service for the page and again by every shared API call the page makes, so the
 * page shows only what the link allows and the API refuses anything else. A bad, revoked or
 * expired token gets a 410 "This link has expired" page; there is no sign-in here to lose. Wrong
 * tokens count against the caller's address: past the limit the page answers 429. The page's
 * media link is bound to its share (shareMediaPath), so it stops when the link is revoked.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { buildPath, routes } from '../../common/api';
import type { ServiceContext } from '../context';
import { HttpError } from '../http/errors';
import type { AreaPlugin } from '../http/plugin';
import { resolveShare, shareMediaPath } from '../documents/share';
import { etagOf, findDocument, parseBody } from '../documents/store';
import { sessionByPk } from '../sessions/repo';
import { VIEWER_CSS, VIEWER_JS } from './assets';
import { expiredPage, tooManyPage, viewerPage } from './page';

/** Only our own script, style, API and media; no framing, no forms elsewhere, no referrer (the token is in the URL). */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; media-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PageParams = z.object({ sessionId: z.string().min(1).max(128), documentId: z.string().min(1).max(128) });
const PageQuery = z.object({ token: z.string().min(1).max(512) });

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CSP)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store');
}

function sendExpired(reply: FastifyReply) {
  return pageHeaders(reply).code(410).type('text/html; charset=utf-8').send(expiredPage());
}

function sendTooMany(reply: FastifyReply, retryAfter: string | undefined) {
  if (retryAfter) reply.header('retry-after', retryAfter);
  return pageHeaders(reply).code(429).type('text/html; charset=utf-8').send(tooManyPage());
}

function renderShared(app: FastifyInstance, ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply) {
  // The page is a way to try tokens like any shared route: the same limits, by the caller's address.
  try {
    app.rateLimiter.hit(`ip:${req.ip}`, reply);
  } catch (e) {
    if (e instanceof HttpError && e.status === 429) return sendTooMany(reply, e.headers['retry-after']);
    throw e;
  }
  const params = PageParams.safeParse(req.params);
  const query = PageQuery.safeParse(req.query);
  if (!params.success || !query.success) return sendExpired(reply);
  let share;
  try {
    share = resolveShare(ctx.db, req.ip, query.data.token, params.data.sessionId, params.data.documentId);
  } catch (e) {
    if (e instanceof HttpError && e.status === 429) return sendTooMany(reply, e.headers['retry-after']);
    if (e instanceof HttpError) return sendExpired(reply);
    throw e;
  }
  const doc = findDocument(ctx.db, params.data.documentId);
  if (!doc) return sendExpired(reply);
  const mediaPath = sessionByPk(ctx.db, doc.session_pk).kept_path ? shareMediaPath(ctx, doc.session_id, share.id) : null;
  const html = viewerPage({
    filename: doc.filename,
    kind: doc.type === 'caption' ? 'caption' : 'transcript',
    body: parseBody(doc),
    etag: etagOf(doc),
    apiPath: buildPath(routes['shared.document'].path, { sessionId: doc.session_id, documentId: doc.id }),
    token: query.data.token,
    allowEditing: share.allow_editing === 1,
    allowExport: share.allow_export === 1,
    mediaPath,
    expires: share.expires,
  });
  return pageHeaders(reply).code(200).type('text/html; charset=utf-8').send(html);
}

function registerViewer(app: FastifyInstance, ctx: ServiceContext): void {
  for (const page of ['transcripts', 'captions']) {
    app.get(`/${page}/shared/:sessionId/:documentId`, (req, reply) => renderShared(app, ctx, req, reply));
    // Any other shape under the shared pages (a cut-off link) is a link that no longer works.
    app.get(`/${page}/shared/*`, (_req, reply) => sendExpired(reply));
  }
  app.get('/shared-viewer/viewer.js', (_req, reply) =>
    reply.header('x-content-type-options', 'nosniff').header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(VIEWER_JS),
  );
  app.get('/shared-viewer/viewer.css', (_req, reply) =>
    reply.header('x-content-type-options', 'nosniff').header('cache-control', 'no-cache').type('text/css; charset=utf-8').send(VIEWER_CSS),
  );
}

/** The shared-link viewer pages and their assets. */
export const sharedViewerPlugin: AreaPlugin = async (app, { ctx }) => {
  registerViewer(app, ctx);
};
