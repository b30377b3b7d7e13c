/**
 * `GET /admin/queue` (SYSOP): a team server at a glance: each worker with what it runs, its
 * machine, when it was last heard from and the jobs it holds; each queue with its depth and which
 * workers take from it (a queue no worker takes from waits for one); recent failures. Read from
 * SQLite and from the queue server itself.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authenticate } from '../auth/principal';
import type { ServiceContext } from '../context';
import { forbidden } from '../http/errors';
import type { DistributedQueue } from './distributed';
import { Capability, HEARTBEAT_STALE_MS } from './protocol';
import { queuesFor } from './routing';

const WorkerRow = z.object({
  name: z.string(),
  last_seen: z.string().nullable(),
  capabilities: z.string(),
  machine: z.string(),
  jobs_done: z.number(),
  jobs_failed: z.number(),
});

export function queueHealthRoute(app: FastifyInstance, ctx: ServiceContext, queue: DistributedQueue): void {
  app.get('/admin/queue', async (req) => {
    const principal = await authenticate(ctx, 'bearer', req);
    if (!principal.roles.includes('SYSOP')) throw forbidden('the queue health page is for SYSOP');
    const db = ctx.db;
    const running = db
      .prepare("SELECT j.job_id, j.worker, j.progress, j.attempts, j.heartbeat_at, s.session_id FROM jobs j JOIN sessions s ON s.id = j.session_pk WHERE j.status = 'processing'")
      .all() as { job_id: string; worker: string | null; progress: number; attempts: number; heartbeat_at: number | null; session_id: string }[];
    const workers = (db.prepare('SELECT name, last_seen, capabilities, machine, jobs_done, jobs_failed FROM workers ORDER BY name').all() as unknown[]).map((raw) => {
      const w = WorkerRow.parse(raw);
      const capabilities = z.array(Capability).parse(JSON.parse(w.capabilities));
      return {
        name: w.name,
        last_seen: w.last_seen,
        online: w.last_seen !== null && Date.now() - Date.parse(w.last_seen) < HEARTBEAT_STALE_MS,
        capabilities,
        queues: queuesFor(capabilities),
        machine: JSON.parse(w.machine) as unknown,
        jobs_done: w.jobs_done,
        jobs_failed: w.jobs_failed,
        jobs: running.filter((j) => j.worker === w.name).map(({ worker: _w, ...j }) => ({ ...j, silent: j.heartbeat_at !== null && Date.now() - j.heartbeat_at > HEARTBEAT_STALE_MS })),
      };
    });
    let queueServer: 'up' | string = 'up';
    const queues = [];
    for (const name of queue.knownQueues()) {
      try {
        const counts = await queue.queue(name).getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized');
        const failed = await queue.queue(name).getFailed(0, 4);
        queues.push({ name, ...counts, served_by: workers.filter((w) => w.queues.includes(name)).map((w) => w.name), recent_failures: failed.map((f) => ({ id: f.id, reason: f.failedReason })) });
      } catch (e) {
        queueServer = `unreachable: ${(e as Error).message}`;
        break;
      }
    }
    const failures = db
      .prepare("SELECT job_id, error, updated_at, worker FROM jobs WHERE status = 'failed' ORDER BY updated_at DESC LIMIT 20")
      .all();
    const pending = (db.prepare("SELECT COUNT(*) FROM jobs WHERE status = 'pending'").pluck().get() as number) ?? 0;
    return { mode: 'distributed', queue_server: queueServer, pending, processing: running.length, workers, queues, failures };
  });
}
