/**
 * Part 2 of the service in two calls for app.ts and cli.ts: registerWorkRoutes (sessions,
 * documents, shared, batch, tus) and startWork/stopWork (job runner, webhook deliveries, tus
 * expiry clean-up).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { registerBatchRoutes } from './batch/routes';
import { mountTus, type TusMount } from './batch/tus';
import type { ServiceContext } from './context';
import { registerDocumentRoutes } from './documents/routes';
import { JobRunner } from './jobs/runner';
import { MAX_DIRECT_UPLOAD_BYTES } from './media/receive';
import { registerSessionRoutes } from './sessions/routes';
import { DeliveryWorker } from './webhooks/deliveries';

interface Work {
  runner: JobRunner | null;
  deliveries: DeliveryWorker | null;
  tus: TusMount | null;
  sweep: NodeJS.Timeout | null;
}

const work = new WeakMap<ServiceContext, Work>();

function state(ctx: ServiceContext): Work {
  let w = work.get(ctx);
  if (!w) work.set(ctx, (w = { runner: null, deliveries: null, tus: null, sweep: null }));
  return w;
}

export function registerWorkRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const w = state(ctx);
  const runner = () => w.runner;
  w.tus = mountTus(app, ctx);
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_DIRECT_UPLOAD_BYTES, files: 2, fields: 10 } });
    // Media bodies (legacy PUT: audio/*, video/*, or a text document in upload mode) are streamed
    // to disk by the handler, never parsed; only JSON and multipart are parsed here.
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    registerSessionRoutes(scope, ctx, runner);
    registerDocumentRoutes(scope, ctx);
    registerBatchRoutes(scope, ctx, runner);
  });
}

/** Starts the job runner (recovering interrupted jobs first), the webhook deliveries and the tus clean-up. */
export function startWork(ctx: ServiceContext): void {
  const w = state(ctx);
  w.runner = new JobRunner(ctx);
  w.runner.start();
  w.deliveries = new DeliveryWorker(ctx);
  w.deliveries.start();
  const tus = w.tus;
  if (tus) {
    const sweep = () => void tus.cleanUpExpired().catch((e: Error) => ctx.log.warn('tus clean-up failed', { error: e.message }));
    sweep();
    w.sweep = setInterval(sweep, 3600_000);
    w.sweep.unref();
  }
}

export async function stopWork(ctx: ServiceContext): Promise<void> {
  const w = state(ctx);
  if (w.sweep) clearInterval(w.sweep);
  await w.deliveries?.stop();
  await w.runner?.stop();
}
