/**
 * Threads for the service's heavy pure work (summaries, merges, export rendering, alignment's
 * diff: service/offload/tasks.ts), so no request can hold the one event loop that answers all the
 * others. Each task runs in a worker_thread with a heap limit; one that runs past its time limit
 * is stopped by terminating its thread (a fresh one takes its place), one that runs out of heap
 * fails the same way, and the queue in front of the threads is bounded: past it a caller is told
 * the service is busy instead of waiting without end.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { TaskInput, TaskName, TaskOutput } from './tasks';

/** Why a task did not finish: over its time, over its memory, or no room in the queue. */
export class OffloadError extends Error {
  constructor(
    readonly reason: 'time' | 'memory' | 'busy' | 'closed',
    message: string,
  ) {
    super(message);
  }
}

/** A task's own error, thrown in its thread: `kind` is the error's class name there (FormatError, …). */
export class OffloadTaskError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

export interface OffloadOptions {
  threads?: number;
  /** Tasks waiting beyond the running ones; more are refused as busy. */
  maxQueue?: number;
  timeLimitMs?: number;
  resourceLimits?: ResourceLimits;
}

/** A thread's heap: the largest document the service stores (16 MB of JSON) parses into a few hundred MB at most. */
const DEFAULT_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: 64 };
/** A PDF of the largest document takes about 5 s on one core: room for a busy machine, and still an end. */
export const OFFLOAD_TIME_LIMIT_MS = 60_000;

interface Queued {
  task: TaskName;
  input: unknown;
  timeLimitMs: number;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  job: Queued | null;
  timer: NodeJS.Timeout | null;
}

/** The worker's script: beside the bundle in a build (dist/service/offload-worker.js), the TypeScript source under tsx. */
function spawnWorker(resourceLimits: ResourceLimits): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const script = new URL('./worker.ts', here).href;
    const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    const code = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(script)}))`;
    return new Worker(code, { eval: true, resourceLimits });
  }
  const built = new URL('./offload-worker.js', here);
  if (!existsSync(fileURLToPath(built))) throw new Error(`the offload worker is missing beside the service bundle (${fileURLToPath(built)})`);
  return new Worker(built, { resourceLimits });
}

export class OffloadPool {
  private slots: Slot[] = [];
  private queue: Queued[] = [];
  private closed = false;
  readonly threads: number;
  readonly maxQueue: number;
  readonly timeLimitMs: number;
  private limits: ResourceLimits;

  constructor(opts: OffloadOptions = {}) {
    // One core stays for the event loop and the speech decoders.
    this.threads = opts.threads ?? Math.max(1, Math.min(2, availableParallelism() - 1));
    this.maxQueue = opts.maxQueue ?? 16;
    this.timeLimitMs = opts.timeLimitMs ?? OFFLOAD_TIME_LIMIT_MS;
    this.limits = opts.resourceLimits ?? DEFAULT_LIMITS;
  }

  run<K extends TaskName>(task: K, input: TaskInput<K>, opts: { timeLimitMs?: number } = {}): Promise<TaskOutput<K>> {
    if (this.closed) return Promise.reject(new OffloadError('closed', 'The service is stopping.'));
    const waiting = this.queue.length;
    const idle = this.slots.some((s) => !s.job) || this.slots.length < this.threads;
    if (!idle && waiting >= this.maxQueue) {
      return Promise.reject(new OffloadError('busy', 'The service is busy with other large documents; try again in a minute.'));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ task, input, timeLimitMs: opts.timeLimitMs ?? this.timeLimitMs, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /** Stops every thread; running and queued tasks fail as closed. */
  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queue.splice(0)) q.reject(new OffloadError('closed', 'The service is stopping.'));
    await Promise.all(this.slots.map((s) => this.retire(s, new OffloadError('closed', 'The service is stopping.'))));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.threads) slot = this.open();
      if (!slot) return;
      this.start(slot, this.queue.shift()!);
    }
  }

  private open(): Slot {
    const slot: Slot = { worker: spawnWorker(this.limits), job: null, timer: null };
    slot.worker.unref();
    slot.worker.on('message', (m: { ok: true; output: unknown } | { ok: false; message: string; name: string }) => {
      const job = this.finish(slot);
      if (!job) return;
      if (m.ok) job.resolve(m.output);
      else job.reject(new OffloadTaskError(m.name, m.message));
      this.pump();
    });
    slot.worker.on('error', (e: Error & { code?: string }) => {
      const memory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      void this.retire(slot, memory ? new OffloadError('memory', 'The document is too large to process within the service\'s memory limit.') : e);
    });
    slot.worker.on('exit', () => void this.retire(slot, new Error('the offload thread stopped unexpectedly')));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Queued): void {
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      void this.retire(slot, new OffloadError('time', `The document is too large to process within ${Math.round(job.timeLimitMs / 1000)} s.`));
    }, job.timeLimitMs);
    slot.worker.postMessage({ task: job.task, input: job.input });
  }

  private finish(slot: Slot): Queued | null {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    slot.worker.unref();
    return job;
  }

  /** Takes a thread out (stopped, failed, over its time): its task fails with `why`, and the queue moves on with a fresh thread. */
  private async retire(slot: Slot, why: Error): Promise<void> {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    this.finish(slot)?.reject(why);
    slot.worker.removeAllListeners('exit');
    await slot.worker.terminate();
    if (!this.closed) this.pump();
  }
}
