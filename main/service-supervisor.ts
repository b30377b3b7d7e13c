/**
 * Keeps the embedded service running: a crash is seen at once (the process's exit) and a hung
 * process within a few health checks (it is then killed); either way it starts again with backoff,
 * on the same port while that port is free, so the client's URL (and the tokens stored under it)
 * stay valid, with the same owner credential handed over again. A port another program took in
 * between is not waited for: the service moves to a free one, and `url` says where (the backend
 * then reopens the local account there). Stopping (the app quits) cancels any restart under way and
 * leaves no process behind.
 */
import { createServer } from 'node:net';
import type { ServiceStatus } from '../common/ipc/shell';
import { ownerCredential, startEmbeddedService, type EmbeddedService, type EmbeddedServiceOptions, type LocalAccount } from './embedded-service';

export interface SupervisorOptions extends Omit<EmbeddedServiceOptions, 'port' | 'onUnexpectedExit' | 'signal' | 'owner'> {
  owner?: LocalAccount;
  /** Waits before each restart try, in order; the last repeats. */
  backoffMs?: number[];
  /** Tries after one crash before giving up (state 'failed'). */
  maxAttempts?: number;
  healthIntervalMs?: number;
  healthTimeoutMs?: number;
  /** Health checks in a row that may fail before the process counts as hung. */
  healthFailures?: number;
}

export interface ServiceSupervisor {
  /** Where the service answers now; a restart changes it only when the port was taken meanwhile. */
  readonly url: string;
  readonly owner: LocalAccount;
  /** The running process's id (changes with each restart). */
  readonly pid: number | undefined;
  status(): ServiceStatus;
  onStatus(fn: (status: ServiceStatus) => void): () => void;
  stop(): Promise<void>;
}

const RUNNING: ServiceStatus = { state: 'running', attempt: 0, message: null };

/** Whether 127.0.0.1:port can be listened on now (the service listens there). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** Any HTTP answer means the process serves; only silence (refused, timed out) is a failure. */
async function answers(url: string, timeoutMs: number): Promise<boolean> {
  try {
    await fetch(`${url}/`, { signal: AbortSignal.timeout(timeoutMs) }).then((r) => r.body?.cancel());
    return true;
  } catch {
    return false;
  }
}

export async function superviseEmbeddedService(opts: SupervisorOptions): Promise<ServiceSupervisor> {
  const owner = opts.owner ?? ownerCredential();
  const backoff = opts.backoffMs ?? [200, 500, 1000, 2000, 4000, 8000];
  const maxAttempts = opts.maxAttempts ?? 10;
  const quit = new AbortController();
  const listeners = new Set<(s: ServiceStatus) => void>();
  let status = RUNNING;
  const setStatus = (s: ServiceStatus) => {
    status = s;
    for (const fn of listeners) fn(s);
  };

  let current: EmbeddedService & { kill(): void };
  let starting: Promise<unknown> | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let port = 0;
  const start = async () => {
    // A restart keeps the port unless it was taken meanwhile; each try asks again, so a port taken between this look and the listen costs one try.
    if (port !== 0 && !(await portFree(port))) port = 0;
    const started = await startEmbeddedService({ ...opts, owner, port, signal: quit.signal, onUnexpectedExit: crashed });
    port = Number(new URL(started.url).port);
    return started;
  };

  function crashed(code: number | null): void {
    if (quit.signal.aborted) return;
    setStatus({ state: 'restarting', attempt: 1, message: `The local service stopped unexpectedly (exit ${code ?? 'by signal'}).` });
    schedule(1);
  }

  function schedule(attempt: number): void {
    retryTimer = setTimeout(() => {
      starting = start().then(
        (started) => {
          current = started;
          setStatus(RUNNING);
        },
        (err: Error) => {
          if (quit.signal.aborted) return;
          if (attempt >= maxAttempts) setStatus({ state: 'failed', attempt, message: `The local service could not be restarted: ${err.message}` });
          else {
            setStatus({ state: 'restarting', attempt: attempt + 1, message: err.message });
            schedule(attempt + 1);
          }
        },
      ).finally(() => (starting = null));
    }, backoff[Math.min(attempt - 1, backoff.length - 1)]);
  }

  current = await start();

  // A process that is alive but does not answer (hung) is killed; its exit then restarts it. After
  // a miss the next check follows at once, so a hang is found in about healthFailures x timeout.
  let misses = 0;
  let healthTimer: NodeJS.Timeout | undefined;
  const interval = opts.healthIntervalMs ?? 1500;
  const check = (delay: number) => {
    healthTimer = setTimeout(async () => {
      const checked = current;
      const ok = status.state !== 'running' || (await answers(checked.url, opts.healthTimeoutMs ?? 1500));
      if (quit.signal.aborted) return;
      if (ok || checked !== current) misses = 0;
      else if (++misses >= (opts.healthFailures ?? 3)) {
        misses = 0;
        checked.kill();
      }
      check(misses ? 0 : interval);
    }, delay);
    healthTimer.unref();
  };
  check(interval);

  return {
    get url() {
      return current.url;
    },
    owner,
    get pid() {
      return current.pid;
    },
    status: () => status,
    onStatus(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    async stop() {
      quit.abort();
      clearTimeout(retryTimer);
      clearTimeout(healthTimer);
      // A start under way ends (its child killed) before we stop the last one that ran.
      await starting;
      await current.stop();
    },
  };
}
