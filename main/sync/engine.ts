/**
 * The sync loop: push the outbox, then pull, whenever asked, shortly after a local edit, and
 * every PERIOD_MS while online. When a request finds the service unreachable (or degraded), the
 * loop stops quietly and probes with backoff; the first good answer resumes it by itself.
 */
import type { EventName, EventPayload, SyncState } from '../../common/ipc';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Cache } from '../cache/cache';
import type { Connectivity } from './connectivity';
import { pull } from './pull';
import { pushAll } from './push';

export const PERIOD_MS = 60_000;
const EDIT_DELAY_MS = 250;

type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface SyncEngineOptions {
  client: ApiClient;
  cache: Cache;
  connectivity: Connectivity;
  emit: Emit;
  /** The signed-in account, or null (then nothing syncs). */
  accountId: () => number | null;
  /** Start the timers (the app); tests and the crash child drive runs themselves. */
  background?: boolean;
}

export class SyncEngine {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly abort = new AbortController();
  lastError: ApiError | null = null;

  constructor(private readonly o: SyncEngineOptions) {}

  state(): SyncState {
    const lastPull = this.o.accountId() === null ? null : this.o.cache.getCursor(this.o.accountId()!, 'lastPullAt');
    return { connectivity: this.o.connectivity.state, pending: this.o.cache.pendingCount(), lastPullAt: lastPull, running: this.running !== null };
  }

  private publish(): void {
    if (!this.closed) this.o.emit('sync.state', this.state());
  }

  start(): void {
    if (this.o.background) this.schedule(1000);
  }

  /** A local edit was queued: push soon. */
  kick(): void {
    this.publish();
    if (this.o.background && this.o.connectivity.state !== 'offline') this.schedule(EDIT_DELAY_MS);
  }

  onConnectivityChange(): void {
    this.publish();
    if (this.o.connectivity.state === 'online' && this.o.cache.pendingCount() > 0 && this.o.background) this.schedule(EDIT_DELAY_MS);
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run().then(() => this.afterRun());
    }, ms);
    this.timer.unref?.();
  }

  private afterRun(): void {
    if (this.o.connectivity.state === 'online') this.schedule(PERIOD_MS);
    else this.schedule(this.o.connectivity.nextProbeDelay()); // a probe is simply the next run's first request
  }

  /** Push then pull once; while a run is going, callers share one run queued after it. Never throws. */
  run(opts: { full?: boolean } = {}): Promise<void> {
    if (this.running) {
      this.queued ??= this.running.then(() => {
        this.queued = null;
        return this.run(opts);
      });
      return this.queued;
    }
    this.running = this.once(opts).finally(() => {
      this.running = null;
      this.publish();
    });
    return this.running;
  }

  private async once(opts: { full?: boolean }): Promise<void> {
    const accountId = this.o.accountId();
    if (accountId === null || this.closed) return;
    const { client, cache, emit } = this.o;
    const signal = this.abort.signal;
    const changed = (c: { sessions: string[]; documents: string[] }) => emit('cache.changed', c);
    this.publish();
    try {
      await pushAll({ client, cache, signal, changed, progress: (done, total) => emit('sync.progress', { phase: 'push', done, total }), conflict: (c) => emit('sync.conflict', c) });
      await pull({ client, cache, accountId, signal, changed, progress: (done, total) => emit('sync.progress', { phase: 'pull', done, total }) }, opts);
      this.lastError = null;
    } catch (err) {
      // Offline, degraded or signed out: the state says so; no error storm, no unhandled rejection.
      if (err instanceof ApiError) this.lastError = err;
      else {
        this.lastError = new ApiError('sync', { status: 0, code: 'INTERNAL', message: (err as Error).message, details: {} });
        process.stderr.write(`sync failed: ${(err as Error).stack ?? String(err)}\n`);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.abort.abort();
    await this.running?.catch(() => {});
  }
}
