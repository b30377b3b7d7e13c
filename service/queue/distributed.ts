/**
 * The API node's job queue for a team server (`--queue redis://…`): jobs stay rows in its SQLite,
 * and each due one is put on BullMQ (Redis), on the queue of its engine and language
 * (routing.ts), for a worker to run (service/worker/). A queue entry is named after the job and
 * its attempt, so putting it twice (the API node restarted between the put and noting it) adds
 * nothing. A periodic check puts back what the queue server lost and settles jobs whose workers
 * stopped for good. Cancel needs no call to the worker: its next heartbeat is answered "stop".
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ServiceContext } from '../context';
import type { JobQueue } from '../jobs/job-queue';
import { applyFailure } from '../jobs/outcome';
import type { JobParams, JobRow } from '../jobs/queue';
import { transition } from '../jobs/states';
import { recoverInterruptedDownloads } from '../sessions/media-source';
import type { LeasedJob } from './leases';
import type { DocumentWork, DocumentWorkOutput } from '../jobs/document-work';
import { DocumentWorkQueue } from './document-work';
import { HEARTBEAT_STALE_MS, type QueueEntry } from './protocol';
import { languageKey, queueName } from './routing';

const DISPATCH_EVERY_MS = 500;
const CHECK_EVERY_MS = 10_000;
/** A pending job's queue entry is looked for after this long. */
const ENTRY_GRACE_MS = 30_000;
/** Finished queue entries are kept this long for the health page, then BullMQ drops them. */
const KEEP_DONE = { age: 24 * 3600, count: 5000 };
const KEEP_FAILED = { age: 7 * 24 * 3600, count: 5000 };

export const entryId = (jobId: string, attempt: number) => `${jobId}-${attempt}`;

/** BullMQ and its Redis client, loaded only for a team server: the embedded service never pays their memory. */
interface QueueLibrary {
  Queue: typeof Queue;
  Redis: typeof Redis;
}

/** The distributed queue for `--queue URL`, with BullMQ loaded on the way. */
export async function openDistributedQueue(ctx: ServiceContext, url: string): Promise<DistributedQueue> {
  const [{ Queue }, { Redis }] = await Promise.all([import('bullmq'), import('ioredis')]);
  return new DistributedQueue(ctx, url, { Queue, Redis });
}

export class DistributedQueue implements JobQueue {
  private readonly redis: Redis;
  private readonly queues = new Map<string, Queue<QueueEntry>>();
  private timers: NodeJS.Timeout[] = [];
  private dispatching: Promise<void> | null = null;
  private again = false;
  private stopping = false;
  /** Translations and summaries, while their requests wait. */
  readonly documents: DocumentWorkQueue;

  constructor(
    private readonly ctx: ServiceContext,
    url: string,
    private readonly lib: QueueLibrary,
  ) {
    // Fail fast while the queue server is away: the dispatch loop tries again, SQLite keeps the job.
    this.redis = new lib.Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.on('error', (e: Error) => this.ctx.log.warn('queue server unreachable', { error: e.message }));
    this.documents = new DocumentWorkQueue(ctx, (name) => this.queue(name));
  }

  queue(name: string): Queue<QueueEntry> {
    let q = this.queues.get(name);
    if (!q) {
      q = new this.lib.Queue<QueueEntry>(name, { connection: this.redis, defaultJobOptions: { removeOnComplete: KEEP_DONE, removeOnFail: KEEP_FAILED } });
      q.on('error', () => undefined); // reported once by the connection
      this.queues.set(name, q);
    }
    return q;
  }

  /** Every queue this API node has put jobs on or knows a worker takes from. */
  knownQueues(): string[] {
    const used = this.ctx.db.prepare('SELECT DISTINCT queue_name FROM jobs WHERE queue_name IS NOT NULL').pluck().all() as string[];
    return [...new Set([...used, ...this.queues.keys()])].sort();
  }

  start(): void {
    const downloads = recoverInterruptedDownloads(this.ctx);
    if (downloads > 0) this.ctx.log.info('interrupted media_source downloads settled after restart', { count: downloads });
    // No recovery of processing jobs: their workers may well be running them still.
    this.timers.push(setInterval(() => this.wake(), DISPATCH_EVERY_MS), setInterval(() => void this.check(), CHECK_EVERY_MS));
    for (const t of this.timers) t.unref();
    this.wake();
    void this.check();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.documents.stop();
    for (const t of this.timers) clearInterval(t);
    await this.dispatching;
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    this.redis.disconnect();
  }

  wake(): void {
    if (this.stopping) return;
    if (this.dispatching) {
      this.again = true;
      return;
    }
    this.dispatching = this.dispatch()
      .catch((e: Error) => this.ctx.log.warn('jobs could not be put on the queue; trying again', { error: e.message }))
      .finally(() => {
        this.dispatching = null;
        if (this.again && !this.stopping) {
          this.again = false;
          this.wake();
        }
      });
  }

  abort(): void {
    // The holder's next heartbeat (every second or so) is answered keep: false.
  }

  documentWork(work: DocumentWork): Promise<DocumentWorkOutput> {
    return this.documents.run(work);
  }

  async translationModes(): Promise<{ modes: string[]; where: string }> {
    return { modes: this.documents.translationModes(), where: 'on any worker of this team server' };
  }

  /** A named engine must be one some worker said it runs in that language (at its last hello): its queue is the only one the job goes to. */
  speechEngineRefusal(engine: string, language: string, mode: 'decode' | 'align' | 'upload'): string | null {
    const all = this.documents.capabilities();
    const named = all.filter((c) => c.speech_engine === engine);
    if (named.length === 0) {
      const known = [...new Set(all.flatMap((c) => (c.speech_engine ? [c.speech_engine] : [])))].sort();
      return `speech_engine: "${engine}" is not installed on any worker of this team server (they run: ${known.join(', ') || 'none yet'})`;
    }
    if (mode === 'upload') return null;
    const key = languageKey(language);
    if (named.some((c) => c.engine === mode && (c.languages === null || c.languages.includes(key)))) return null;
    return `speech_engine: no worker of this team server runs "${engine}" for ${mode} in language "${language}"`;
  }

  /** Puts every due pending job not yet on the queue for its current attempt there. */
  private async dispatch(): Promise<void> {
    const db = this.ctx.db;
    for (;;) {
      const rows = db
        .prepare(
          `SELECT job_id, kind, params, attempts FROM jobs WHERE status = 'pending' AND run_after <= ?
           AND (queued_attempt IS NULL OR queued_attempt != attempts) ORDER BY created_at, rowid LIMIT 50`,
        )
        .all(Date.now()) as Pick<JobRow, 'job_id' | 'kind' | 'params' | 'attempts'>[];
      if (rows.length === 0 || this.stopping) return;
      for (const r of rows) {
        const params = JSON.parse(r.params) as JobParams;
        const name = queueName(r.kind, params.language, params.speechEngine);
        await this.queue(name).add('job', { job_id: r.job_id, attempt_tag: r.attempts }, { jobId: entryId(r.job_id, r.attempts) });
        db.prepare("UPDATE jobs SET queued_attempt = ?, queued_at = ?, queue_name = ? WHERE job_id = ? AND status = 'pending' AND attempts = ?").run(r.attempts, Date.now(), name, r.job_id, r.attempts);
      }
    }
  }

  /** Puts back what the queue server lost; settles jobs whose holders went silent. */
  async check(): Promise<void> {
    if (this.stopping) return;
    try {
      await this.checkPending();
      await this.checkSilent();
    } catch (e) {
      this.ctx.log.warn('queue check failed; trying again', { error: (e as Error).message });
    }
  }

  private async checkPending(): Promise<void> {
    const db = this.ctx.db;
    const rows = db
      .prepare("SELECT job_id, queued_attempt, queue_name FROM jobs WHERE status = 'pending' AND queued_attempt = attempts AND queued_at < ? LIMIT 500")
      .all(Date.now() - ENTRY_GRACE_MS) as Pick<LeasedJob, 'job_id' | 'queued_attempt'>[] & { queue_name: string }[];
    for (const r of rows as (Pick<LeasedJob, 'job_id' | 'queued_attempt'> & { queue_name: string })[]) {
      const entry = await this.queue(r.queue_name).getJob(entryId(r.job_id, r.queued_attempt!));
      const state = entry ? await entry.getState() : 'missing';
      if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized') continue;
      // Lost (the queue server's last second before a crash) or ended without a claim: put it again.
      if (entry) await entry.remove().catch(() => undefined);
      db.prepare("UPDATE jobs SET queued_attempt = NULL WHERE job_id = ? AND status = 'pending'").run(r.job_id);
      this.ctx.log.warn('a job was missing from the queue server; put back', { job_id: r.job_id, state });
    }
    if (rows.length) this.wake();
  }

  private async checkSilent(): Promise<void> {
    const db = this.ctx.db;
    const rows = db
      .prepare("SELECT job_id, session_pk, queued_attempt, queue_name, worker FROM jobs WHERE status = 'processing' AND heartbeat_at < ? LIMIT 500")
      .all(Date.now() - HEARTBEAT_STALE_MS) as (LeasedJob & { queue_name: string | null })[];
    for (const r of rows) {
      const entry = r.queue_name && r.queued_attempt !== null ? await this.queue(r.queue_name).getJob(entryId(r.job_id, r.queued_attempt)) : undefined;
      const state = entry ? await entry.getState() : 'missing';
      if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized') continue; // another worker will take it over
      if (state === 'failed') {
        // BullMQ gave up after the job stalled more than maxStalledCount times: it takes its workers down.
        const reason = entry?.failedReason ?? 'its workers stopped while running it';
        applyFailure(this.ctx, r.job_id, { message: `The job stopped every worker that ran it (${reason}); it was not tried again.`, permanent: true });
        continue;
      }
      db.transaction(() => {
        const why = `worker ${r.worker ?? '?'} went silent and the queue server has no entry for the job; it is queued again`;
        transition(db, 'job', r.job_id, 'pending', why, { progress: 0, run_after: 0, queued_attempt: null, lease: null });
        transition(db, 'session', r.session_pk, 'queued', why);
      }).immediate();
      this.wake();
    }
  }
}
