/**
 * A team server for tests: a real redis-server on a free loopback port (its own temp dir, AOF on
 * as BullMQ's production guide asks, noeviction), the service as API node (`--queue`), and worker
 * processes (`npm run worker`), each with its own empty data folder. S2T_TEST_QUEUE=redis makes
 * startService (./service.ts) bring one up under every service test file that uses it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { ROOT, serviceCli, workerCli } from './service-program';

const run = promisify(execFile);

// Not imported from ./service, which starts a team through this module (no import cycle).
const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const cleanup = (dir: string) => rmSync(dir, { recursive: true, force: true });

export interface Proc {
  child: ChildProcess;
  stop(): Promise<void>;
  kill(): Promise<void>;
  output(): string;
}

function track(child: ChildProcess): Proc {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((res) => (child.exitCode !== null ? res() : child.once('exit', () => res())));
  return {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Resolves when the child prints a line matching `ready`; rejects on exit or after 90 s (a loaded machine starts tsx slowly). */
function readyLine(child: ChildProcess, ready: RegExp, what: string, output: () => string): Promise<RegExpExecArray> {
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${what} did not start in 90 s:\n${output()}`)), 90_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`${what} exited with ${code}:\n${output()}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = ready.exec(line);
      if (m) {
        clearTimeout(timer);
        res(m);
      }
    });
  });
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
  });
}

export interface RedisServer {
  url: string;
  dir: string;
  /** SIGTERM (Redis writes its AOF and exits), then the same port and dir again. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = tempDir('s2t-redis-');
  const port = await freePort();
  let proc: Proc;
  const launch = async () => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction', '--save', '', '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    proc = track(child);
    await readyLine(child, /Ready to accept connections/, 'redis-server', proc.output);
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    dir,
    async restart() {
      await proc.stop();
      await launch();
    },
    async stop() {
      await proc.stop();
      cleanup(dir);
    },
  };
}

/** `npm run service -- worker add NAME --data DIR`: the key on its last line. */
export async function addWorker(serviceDataDir: string, name: string): Promise<string> {
  const { stdout } = await run(process.execPath, [...serviceCli(), 'worker', 'add', name, '--data', serviceDataDir], { cwd: ROOT, encoding: 'utf8' });
  return stdout.trim().split('\n').at(-1)!;
}

export interface RunningWorker extends Proc {
  name: string;
  dataDir: string;
  queues: string[];
}

/** `dataDir`: a folder of the test's own (a model installed there, kept across restarts); otherwise a fresh one, removed when the worker stops. */
export async function startWorker(o: { name: string; key: string; queueUrl: string; serviceUrl: string; lockSeconds?: number; args?: string[]; dataDir?: string }): Promise<RunningWorker> {
  const dataDir = o.dataDir ?? tempDir(`s2t-worker-${o.name}-`);
  const tidy = () => (o.dataDir ? undefined : cleanup(dataDir));
  const args = [...workerCli(), '--queue', o.queueUrl, '--service', o.serviceUrl, '--data', dataDir, '--lock-seconds', String(o.lockSeconds ?? 5), '--quiet', ...(o.args ?? [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, S2T_WORKER_KEY: o.key }, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = track(child);
  const m = await readyLine(child, /^worker (\S+) ready: (.*)$/, `worker ${o.name}`, proc.output);
  const stop = proc.stop;
  const kill = proc.kill;
  return { ...proc, name: o.name, dataDir, queues: m[2].split(' ').filter(Boolean), stop: async () => (await stop(), tidy()), kill: async () => (await kill(), tidy()) };
}

/** The test suite's distributed mode (S2T_TEST_QUEUE=redis): which service tests run on a team server. */
export const distributedTests = process.env.S2T_TEST_QUEUE === 'redis';
