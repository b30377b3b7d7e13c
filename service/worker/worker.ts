/**
 * A team server's worker: takes jobs from the BullMQ queues of the engines and languages it can
 * run (queue/routing.ts), one at a time, and runs each through the API node (claim, media,
 * progress, outcome). While a job runs it renews the job's lock in the queue server; when the
 * worker dies the lock expires and the queue hands the job to another worker, whose claim
 * supersedes this one's lease. The result is sent before the queue entry is marked done, so a
 * crash between the two reruns the job, and the API node refuses the second result.
 */
import { randomUUID } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import { availableParallelism, totalmem } from 'node:os';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../context';
import { DecoderPool } from '../engines/decoder-pool';
import type { SpeechEngines } from '../engines/registry';
import { OffloadPool } from '../offload/pool';
import { WHISPER_CATALOG } from '../speech-models/catalog';
import { openSpeechEngines } from '../speech-models/open';
import { isPermanent } from '../jobs/failure-kind';
import { ChargeAnswer, ClaimAnswer, Hello, HelloAnswer, OutcomeAnswer, ProgressAnswer, QueueEntry } from '../queue/protocol';
import { documentCapabilities, localCapabilities } from '../queue/routing';
import { LeaseRefused, ServiceClient } from './client';
import { processDocumentWork } from './document-work';
import { runClaimedJob } from './run-job';

export interface WorkerOptions {
  queueUrl: string;
  serviceUrl: string;
  key: string;
  dataDir: string;
  /** How long a job's lock lives without renewal: how soon another worker takes over after this one dies. */
  lockMs: number;
  /** The engines this worker runs (`--engines`); absent: every one it can. */
  engines?: string[];
  log: Logger;
}

const IDLE_POLL_MS = 250;
const HEARTBEAT_MS = 1000;
/** A job that took its worker down this many times more fails (the API node says why). */
const MAX_STALLED = 2;
/** The most a worker's own model store may hold (as the service's --model-store-max-gb default). */
const MODEL_STORE_BYTES = 64 * 1024 ** 3;

export class TeamWorker {
  private readonly client: ServiceClient;
  private readonly redis: Redis;
  private consumers: Worker<QueueEntry>[] = [];
  private stopping = false;
  private current: AbortController | null = null;
  private loop: Promise<void> | null = null;
  private readonly decoders = DecoderPool.forService(1);
  private readonly offload = new OffloadPool();
  /** This machine's own speech models (its --data folder), which decide what it can run. */
  private readonly speech: SpeechEngines;

  constructor(private readonly opts: WorkerOptions) {
    this.client = new ServiceClient(opts.serviceUrl, opts.key);
    this.speech = openSpeechEngines(opts.dataDir, WHISPER_CATALOG, MODEL_STORE_BYTES, opts.log).speech;
    // BullMQ's workers need commands to wait through a queue server restart, not fail.
    this.redis = new Redis(opts.queueUrl, { maxRetriesPerRequest: null });
    this.redis.on('error', (e: Error) => opts.log.warn('queue server unreachable', { error: e.message }));
  }

  async start(): Promise<string[]> {
    const all = [...localCapabilities(this.speech), ...(await documentCapabilities())];
    const capabilities = all.filter((c) => !this.opts.engines || this.opts.engines.includes(c.engine));
    const free = await statfs(this.opts.dataDir).then((s) => Math.floor((s.bavail * s.bsize) / 2 ** 20)).catch(() => null);
    const hello: Hello = { capabilities, machine: { cores: availableParallelism(), memory_mb: Math.floor(totalmem() / 2 ** 20), free_disk_mb: free, version: process.version } };
    const { queues } = await this.client.json('/hello', hello, HelloAnswer, 60_000);
    this.consumers = queues.map(
      (name) => new Worker<QueueEntry>(name, null, { connection: this.redis, autorun: false, lockDuration: this.opts.lockMs, stalledInterval: this.opts.lockMs, maxStalledCount: MAX_STALLED }),
    );
    for (const c of this.consumers) {
      c.on('error', () => undefined); // reported once by the connection
      void c.startStalledCheckTimer();
    }
    this.loop = this.run();
    return queues;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.current?.abort();
    await this.loop;
    await Promise.allSettled(this.consumers.map((c) => c.close(true)));
    await this.offload.close();
    this.redis.disconnect();
  }

  private async run(): Promise<void> {
    let turn = 0;
    while (!this.stopping) {
      const token = randomUUID();
      let found: { job: Job<QueueEntry>; consumer: Worker<QueueEntry> } | null = null;
      try {
        // Round robin over the queues, so no engine or language starves the others.
        for (let i = 0; i < this.consumers.length && !found; i++) {
          const consumer = this.consumers[(turn + i) % this.consumers.length];
          const job = await consumer.getNextJob(token, { block: false });
          if (job) found = { job, consumer };
        }
      } catch (e) {
        this.opts.log.warn('could not take a job from the queue server', { error: (e as Error).message });
      }
      turn++;
      if (!found) {
        await new Promise((r) => setTimeout(r, IDLE_POLL_MS));
        continue;
      }
      await this.handle(found.job, token);
    }
  }

  private async handle(job: Job<QueueEntry>, token: string): Promise<void> {
    const renew = setInterval(() => void job.extendLock(token, this.opts.lockMs).catch(() => undefined), Math.max(500, this.opts.lockMs / 3));
    try {
      const entry = QueueEntry.parse(job.data);
      if (entry.document) await processDocumentWork(this.client, this.offload, entry.job_id);
      else await this.process(entry);
      await job.moveToCompleted('done', token, false);
    } catch (e) {
      if (this.stopping) return; // the lock expires and another worker takes the job over
      this.opts.log.warn('queue entry failed', { job_id: job.data.job_id, error: (e as Error).message });
      await job.moveToFailed(e as Error, token, false).catch(() => undefined);
    } finally {
      clearInterval(renew);
    }
  }

  /** Claims, runs and reports one job; returns when the API node has its outcome (or refused the lease). */
  private async process(entry: QueueEntry): Promise<void> {
    const jobId = entry.job_id;
    const claim = await this.client.json(`/jobs/${jobId}/claim`, { attempt_tag: entry.attempt_tag }, ClaimAnswer);
    if (claim.status === 'gone') return;
    const ac = new AbortController();
    this.current = ac;
    let percent = 5;
    let extra: { estimated_completion?: string; duration_sec?: number } = {};
    const beat = async () => {
      const answer = await this.client.json(`/jobs/${jobId}/progress`, { lease: claim.lease, percent, ...extra }, ProgressAnswer, 5000).catch(() => ({ keep: true }));
      if (!answer.keep) ac.abort();
    };
    const heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);
    let durationSec: number | null = null;
    try {
      const out = await runClaimedJob({
        jobId,
        claim,
        client: this.client,
        workDir: this.opts.dataDir,
        decoders: this.decoders,
        offload: this.offload,
        speech: this.speech,
        signal: ac.signal,
        report: (p, x) => {
          percent = Math.max(percent, Math.min(100, p));
          if (x?.estimate) extra = { ...extra, estimated_completion: x.estimate };
          if (x?.durationSec !== undefined) extra = { ...extra, duration_sec: x.durationSec };
        },
        charge: async (sec) => (await this.client.json(`/jobs/${jobId}/charge`, { lease: claim.lease, duration_sec: sec }, ChargeAnswer)).over,
        noteDuration: (sec) => (durationSec = sec),
      });
      clearInterval(heartbeat);
      const body = { lease: claim.lease, duration_sec: out.durationSec, waveform: out.waveform, transcript: out.result.transcript, captions: out.result.captions, metadata: out.result.metadata };
      await this.client.json(`/jobs/${jobId}/result`, body, OutcomeAnswer);
    } catch (e) {
      clearInterval(heartbeat);
      if (this.stopping) throw e; // the entry stays active: its lock runs out and another worker takes the job over
      if (e instanceof LeaseRefused || ac.signal.aborted) return; // cancelled or taken over: nothing to report
      const err = e as Error;
      await this.client
        .json(`/jobs/${jobId}/failure`, { lease: claim.lease, message: err.message.slice(0, 2000), permanent: isPermanent(err), duration_sec: durationSec }, OutcomeAnswer)
        .catch((refused: Error) => {
          if (!(refused instanceof LeaseRefused)) throw refused;
        });
    } finally {
      this.current = null;
    }
  }
}
