/**
 * The sync loop: push the outbox, then pull, whenever asked, shortly after a local edit, and
 * every PERIOD_MS while online. When a request finds the service unreachable (or degraded), the
 * loop stops quietly and probes with backoff; the first good answer resumes it by itself.
 * A failing push does not hold back the pull (other devices' changes still arrive), except when
 * nothing can work: no answer at all, or signed out. What went wrong reaches the user as one
 * sentence in SyncState.lastError, beside the count of blocked changes and the reason kept with each.
 */
import type { EventName, EventPayload, SyncState } from '../../common/ipc';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Cache } from '../cache/cache';
import type { Connectivity } from './connectivity';
import { describeSyncError, stopsTheRun } from './errors';
import { pull } from './pull';
import { blockedSentence, pushAll } from './push';

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
  /** When the pending timer fires (Date.now() ms): a later request never postpones a sooner run. */
  private timerAt = 0;
  private closed = false;
  private readonly abort = new AbortController();
  /** What went wrong in the last run, in words for a person; null after a clean run. */
  lastError: string | null = null;

  constructor(private readonly o: SyncEngineOptions) {}

  state(): SyncState {
    const lastPull = this.o.accountId() === null ? null : this.o.cache.getCursor(this.o.accountId()!, 'lastPullAt');
    const { cache, connectivity } = this.o;
    // Each blocked change's own reason, kept with it in the cache: a later clean run does not wipe it.
    const blockedReasons = cache.blockedEntries().map((e) => blockedSentence(cache, e, e.last_error ?? 'no reason was kept'));
    return { connectivity: connectivity.state, pending: cache.pendingCount(), blocked: cache.blockedCount(), lastPullAt: lastPull, lastError: this.lastError, blockedReasons, running: this.running !== null };
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
    const at = Date.now() + ms;
    if (this.timer && this.timerAt <= at) return; // an edit's quick push is not pushed back by the period
    this.clearTimer();
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, ms);
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The next background run, after any run (timer, Sync now, a retry). */
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
    // This run covers what a pending timer waited for (the push reads the outbox as it goes): no
    // second run right after it, which would also wipe the lastError this one reports.
    this.clearTimer();
    this.running = this.once(opts).finally(() => {
      this.running = null;
      this.publish();
      if (this.o.background) this.afterRun();
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
    let failure: unknown = null;
    let blocked: string[] = [];
    try {
      blocked = (await pushAll({ client, cache, signal, changed, progress: (done, total) => emit('sync.progress', { phase: 'push', done, total }), conflict: (c) => emit('sync.conflict', c) })).blocked;
    } catch (err) {
      failure = err;
    }
    if (!stopsTheRun(failure)) {
      try {
        await pull({ client, cache, accountId, signal, changed, progress: (done, total) => emit('sync.progress', { phase: 'pull', done, total }) }, opts);
      } catch (err) {
        failure ??= err;
      }
    }
    // Offline, degraded or signed out: the state says so, once per run; no error storm, no unhandled rejection.
    this.lastError = failure !== null ? describeSyncError(failure) : (blocked.at(-1) ?? null);
    if (failure !== null && !(failure instanceof ApiError)) process.stderr.write(`sync failed: ${(failure as Error).stack ?? String(failure)}\n`);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    this.abort.abort();
    await this.running?.catch(() => {});
  }
}
