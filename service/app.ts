import formbody from '@fastify/formbody';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { authPlugin } from './auth/plugin';
import { batchPlugin } from './batch/plugin';
import type { ServiceContext } from './context';
import { documentsPlugin } from './documents/plugin';
import { HttpError } from './http/errors';
import { parseJsonBodies } from './http/large-json';
import { newRateLimiter } from './http/rate-limit';
import { fastifyTrustProxy } from './http/trust-proxy';
import { drainRefusedBody } from './http/refused-body';
import { listsPlugin } from './lists/plugin';
import { modelsPlugin } from './models/plugin';
import { realtimePlugin } from './realtime/plugin';
import { sessionsPlugin } from './sessions/plugin';
import { sharedViewerPlugin } from './shared-viewer/plugin';
import { workPlugin } from './work/plugin';

/**
 * Loopback names a client may use in Host, and the public URL's host when one is set (a reverse
 * proxy's); anything else (DNS rebinding) is refused. The set is made again only when the listen
 * address changes (it is known once listening), not parsed from the URL on every request.
 */
function hostCheck(ctx: ServiceContext): (host: string | undefined) => boolean {
  let madeFor: string | undefined;
  let allowed = new Set<string>();
  return (host) => {
    const base = ctx.baseUrl();
    if (base !== madeFor) {
      const port = new URL(base).port;
      allowed = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, ...(ctx.config.publicUrl ? [new URL(ctx.config.publicUrl).host] : [])]);
      madeFor = base;
    }
    return host !== undefined && allowed.has(host.toLowerCase());
  };
}

/** The largest form body (sign-in: a user name, a password, a code). */
const FORM_BODY_LIMIT = 64 * 1024;

/**
 * The multipart reader (busboy) rejects a broken client stream with a plain Error and no status;
 * that is bad input (400), not a server fault.
 */
function malformedMultipart(err: Error): boolean {
  return !('statusCode' in err && err.statusCode) && String(err.stack ?? '').includes('/@fastify/busboy/');
}

/**
 * The service as a Fastify app: the Host check, error answers, then one plugin per area. The work
 * plugin starts the job runner, webhook deliveries and tus clean-up on ready and stops them on close.
 */
export async function buildApp(ctx: ServiceContext): Promise<FastifyInstance> {
  const app = Fastify({ bodyLimit: ctx.config.bodyLimitBytes, logger: false, trustProxy: fastifyTrustProxy(ctx.config.trustProxy ?? false), return503OnClosing: true });

  const allowedHost = hostCheck(ctx);
  app.addHook('onRequest', (req, _reply, done) => {
    done(allowedHost(req.headers.host) ? undefined : new HttpError(421, { error: 'unexpected Host header' }));
  });

  app.decorate('rateLimiter', newRateLimiter(ctx));
  // Forms carry only sign-in fields: a large one would be split into fields on the event loop.
  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
  parseJsonBodies(app);

  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    const status = err instanceof HttpError ? err.status : (err as FastifyError).statusCode;
    if (status === 413) drainRefusedBody(req.raw, reply);
    if (err instanceof HttpError) {
      reply.code(err.status).headers(err.headers).send(err.body);
      return;
    }
    if (status && status >= 400 && status < 500) {
      reply.code(status).send({ error: err.message });
      return;
    }
    if (malformedMultipart(err)) {
      reply.code(400).send({ error: `malformed multipart body: ${err.message}` });
      return;
    }
    ctx.log.error('unhandled error', { method: req.method, url: req.url.split('?')[0], error: String(err.stack ?? err) });
    reply.code(500).send({ error: 'internal error' });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ error: 'not_found', error_description: `no route for ${req.method} ${req.url.split('?')[0]}`, status: 404 });
  });

  // Background work first: the sessions and batch areas reach the job runner as app.jobs.
  await app.register(workPlugin, { ctx });
  for (const area of [authPlugin, modelsPlugin, listsPlugin, sessionsPlugin, documentsPlugin, batchPlugin, sharedViewerPlugin, realtimePlugin]) await app.register(area, { ctx });
  return app;
}
