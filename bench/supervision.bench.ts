/**
 * How long the app is without its embedded service after a crash: SIGKILL to the supervisor's
 * 'running' (exit seen, backoff, a new process on the same port, ready), beside the peer of a cold
 * start of the same service (fork to ready), the floor any restart pays; and a hung process
 * (SIGSTOP) found by the default health checks and restarted, beside the same peer. And the
 * service's memory at rest (resident set a few seconds after it is ready, as the app leaves it),
 * beside a bare Fastify server with better-sqlite3 open, what any service of this kind holds.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmbeddedService } from '../main/embedded-service';
import { superviseEmbeddedService, type ServiceSupervisor } from '../main/service-supervisor';
import { percentile, row, timeMs, type BenchModule } from './harness';

const ENTRY = resolve(import.meta.dirname, '..', 'dist/service/cli.js');
const ROUNDS = 5;
/** How long a process settles after it is ready before its resident set is read. */
const SETTLE_MS = 4000;
const PEER_SERVER = `
import Fastify from 'fastify';
import Database from 'better-sqlite3';
const db = new Database(process.argv[1]);
db.pragma('journal_mode = WAL');
const app = Fastify();
app.get('/health', async () => ({ ok: db.prepare('SELECT 1 AS one').get().one === 1 }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('listening');
`;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const settled = () => new Promise((r) => setTimeout(r, SETTLE_MS));

/** The peer's resident set: the bare server, SETTLE_MS after it listens. */
async function peerRestMb(dataDir: string): Promise<number> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', PEER_SERVER, join(dataDir, 'peer.db')], { cwd: resolve(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((res, rej) => {
      child.once('exit', (code) => rej(new Error(`the peer server exited with ${code}`)));
      child.stdout!.once('data', res);
    });
    await settled();
    return rssMb(child.pid!);
  } finally {
    child.kill('SIGTERM');
  }
}

function back(sup: ServiceSupervisor): Promise<void> {
  return new Promise((res) => {
    const off = sup.onStatus((s) => s.state === 'running' && (off(), res()));
  });
}

export const supervisionBench: BenchModule = {
  name: 'supervision',
  async run() {
    const dataDir = mkdtempSync(join(tmpdir(), 's2t-bench-sup-'));
    const cold: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let svc: Awaited<ReturnType<typeof startEmbeddedService>> | undefined;
      cold.push(await timeMs(async () => (svc = await startEmbeddedService({ dataDir, entry: ENTRY }))));
      await svc!.stop();
    }
    const sup = await superviseEmbeddedService({ dataDir, entry: ENTRY });
    const crash: number[] = [];
    try {
      await settled();
      const restMb = rssMb(sup.pid!);
      const peerMb = await peerRestMb(dataDir);
      for (let i = 0; i < ROUNDS; i++) {
        const returned = back(sup);
        crash.push(await timeMs(async () => (process.kill(sup.pid!, 'SIGKILL'), await returned)));
      }
      const returned = back(sup);
      const hung = await timeMs(async () => (process.kill(sup.pid!, 'SIGSTOP'), await returned));
      const peer = percentile(cold, 50);
      const ours = percentile(crash, 50);
      return [
        row({ name: 'service back after SIGKILL (median of 5) vs cold start', unit: 'ms', ours, peer, target: 'ratio <= 3', met: ours <= 3 * peer }),
        row({ name: 'service back after a hang (SIGSTOP, default health checks) vs cold start', unit: 'ms', ours: hung, peer, target: 'ratio <= 16 (the health checks take about 5 s to call a hang)', met: hung <= 16 * peer }),
        row({ name: `service at rest: resident memory ${SETTLE_MS / 1000} s after ready vs a bare Fastify server with better-sqlite3`, unit: 'MB', ours: restMb, peer: peerMb, target: 'ratio <= 2', met: restMb <= 2 * peerMb }),
      ];
    } finally {
      await sup.stop();
    }
  },
};
