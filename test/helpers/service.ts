/**
 * Starts the real local service as a child process on a free loopback port, over real HTTP.
 * Every integration test talks to the service through this.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';

import { ROOT, serviceCli } from './service-program';

export { ROOT, serviceCli, workerCli } from './service-program';
export const DEMO = { email: 'demo@example.com', password: 'demo-password-1' };

export interface RunningService {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Graceful stop (SIGTERM), waits for exit. */
  stop(): Promise<void>;
  /** SIGKILL, waits for exit. */
  kill(): Promise<void>;
  /** Lines the service wrote to stderr so far (for diagnosing a failure). */
  stderr(): string;
}

export interface StartOptions {
  dataDir?: string;
  port?: number;
  demo?: boolean;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** The script to run, relative to ROOT: service/cli.ts unless a test entry wraps the service. */
  entry?: string;
}

export function tempDir(prefix = 's2t-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startService(opts: StartOptions = {}): Promise<RunningService> {
  // S2T_TEST_QUEUE=redis: the same tests on a team server (a queue server and a worker beside the service).
  if (process.env.S2T_TEST_QUEUE === 'redis' && !opts.args?.includes('--queue')) return startOnTeam(opts);
  return startProcess(opts);
}

async function startOnTeam(opts: StartOptions): Promise<RunningService> {
  const { addWorker, freePort, startRedis, startWorker } = await import('./team');
  // The worker starts beside the service (its hello waits for the service to answer): a port known beforehand.
  const dataDir = opts.dataDir ?? tempDir('s2t-svc-');
  const port = opts.port ?? (await freePort());
  const key = await addWorker(dataDir, 'w1');
  const redis = await startRedis();
  const started = await Promise.allSettled([
    startProcess({ ...opts, dataDir, port, args: [...(opts.args ?? []), '--queue', redis.url] }),
    startWorker({ name: 'w1', key, queueUrl: redis.url, serviceUrl: `http://127.0.0.1:${port}` }),
  ]);
  const [svc, worker] = started.map((s) => (s.status === 'fulfilled' ? s.value : null)) as [RunningService | null, Awaited<ReturnType<typeof startWorker>> | null];
  if (!svc || !worker) {
    // Leave nothing running behind a failed start.
    await svc?.kill();
    await worker?.kill();
    await redis.stop();
    throw (started.find((s) => s.status === 'rejected') as PromiseRejectedResult).reason;
  }
  const down = async (end: () => Promise<void>) => {
    await end();
    await worker.stop();
    await redis.stop();
  };
  return { ...svc, stop: () => down(svc.stop), kill: () => down(svc.kill) };
}

async function startProcess(opts: StartOptions): Promise<RunningService> {
  const dataDir = opts.dataDir ?? tempDir('s2t-svc-');
  const entry = opts.entry ? ['--import', 'tsx', join(ROOT, opts.entry)] : serviceCli();
  const args = [...entry, '--port', String(opts.port ?? 0), '--data', dataDir, '--quiet'];
  if (opts.demo !== false) args.push('--demo-user', DEMO.email, '--demo-password', DEMO.password);
  args.push(...(opts.args ?? []));
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const url = await new Promise<string>((res, rej) => {
    // 90 s as for a team's processes (./team.ts): on a loaded machine a start can take most of a minute.
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // a late start would otherwise run on, unowned, for the rest of the run
      rej(new Error(`service did not start in 90 s:\n${err}`));
    }, 90_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`service exited with ${code} before listening:\n${err}`));
    });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      const m = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) res(m[1]);
      else rej(new Error(`unexpected first line: ${line}`));
    });
  });
  return {
    url,
    dataDir,
    child,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** For afterAll: stops the service if it started (SIGTERM, waits) and removes its data dir, then the other dirs given. */
export async function stopAndRemove(svc: RunningService | undefined, ...dirs: (string | undefined)[]): Promise<void> {
  if (svc) {
    await svc.stop();
    cleanup(svc.dataDir);
  }
  for (const dir of dirs) if (dir) cleanup(dir);
}

/** Temp dirs of one test file: `make(prefix)` makes one and keeps it in `all`; `removeAll()` (in afterAll) removes them. */
export interface TempDirs {
  all: string[];
  make: (prefix: string) => string;
  removeAll: () => void;
}

export function tempDirs(): TempDirs {
  const all: string[] = [];
  return {
    all,
    make: (prefix) => {
      const dir = tempDir(prefix);
      all.push(dir);
      return dir;
    },
    removeAll: () => all.forEach(cleanup),
  };
}

/** An account to sign in with (DEMO, or the app's LOCAL_DEMO). */
export interface Account {
  email: string;
  password: string;
}

const TokenLogin = z.object({ access_token: z.string().min(1) });

/** Logs in over HTTP (the token login) and returns the access token; any other answer throws. */
export async function serviceLogin(url: string, account: Account): Promise<string> {
  const res = await fetch(`${url}/api/v3/auth/login?login_type=token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: account.email, password: account.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return TokenLogin.parse(await res.json()).access_token;
}
