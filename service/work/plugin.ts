/**
 * The service's background work: the job queue (recovering interrupted jobs first), the webhook
 * deliveries and the hourly tus clean-up. They start when the app is ready and stop when it
 * closes, so whoever closes the app (SIGTERM, the parent going away, a test) stops them too.
 */
import { cleanUpExpiredTus } from '../batch/tus';
import type { AreaPlugin } from '../http/plugin';
import type { JobQueue } from '../jobs/job-queue';
import { JobRunner } from '../jobs/runner';
import { openDistributedQueue } from '../queue/distributed';
import { queueHealthRoute } from '../queue/health';
import { workerRoutes } from '../queue/worker-routes';
import { DeliveryWorker } from '../webhooks/deliveries';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job queue, for routes that wake it (transcribe) or stop a job (cancel, delete). */
    jobs: JobQueue;
  }
}

const TUS_SWEEP_MS = 3600_000;

const work: AreaPlugin = async (app, { ctx }) => {
  // A team server (--queue URL) runs engines on its workers; otherwise they run in this process.
  const distributed = ctx.config.queueUrl ? await openDistributedQueue(ctx, ctx.config.queueUrl) : null;
  const runner: JobQueue = distributed ?? new JobRunner(ctx);
  if (distributed) {
    await app.register(async (scope) => workerRoutes(scope, ctx, distributed.documents));
    queueHealthRoute(app, ctx, distributed);
  }
  const deliveries = new DeliveryWorker(ctx);
  let sweep: NodeJS.Timeout | null = null;
  app.decorate('jobs', runner);

  app.addHook('onReady', async () => {
    runner.start();
    deliveries.start();
    const cleanUp = () => void cleanUpExpiredTus(ctx).catch((e: Error) => ctx.log.warn('tus clean-up failed', { error: e.message }));
    cleanUp();
    sweep = setInterval(cleanUp, TUS_SWEEP_MS);
    sweep.unref();
  });

  app.addHook('onClose', async () => {
    if (sweep) clearInterval(sweep);
    await deliveries.stop();
    await runner.stop();
  });
};

// Not encapsulated (what fastify-plugin does, without the extra dependency): `app.jobs` is for the
// area plugins registered beside it.
Object.assign(work, { [Symbol.for('skip-override')]: true });
export const workPlugin = work;
