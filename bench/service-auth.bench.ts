/**
 * Throughput of an authenticated session-list request (JWT verified, login session and user
 * checked, rate limit counted, the page of stored session JSON read) against a bare Fastify
 * handler that returns the same JSON bytes, both in their own process, driven by the same
 * keep-alive load loop in alternating slices. Beside it, each server's CPU time per request (from
 * /proc), which moves far less with the machine's load than throughput does. S2T_BENCH_CPU_PROF=DIR
 * profiles the service.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { serviceLogin } from '../test/helpers/service';
import { cpuMicros, percentile, row, type BenchModule, type BenchRow } from './harness';

const ROOT = resolve(import.meta.dirname, '..');
const CONCURRENCY = 16;
const WARMUP_MS = 1500;
const MEASURE_MS = 5000;
const SLICES = 10;
const PATH = '/api/v3/speech-to-text/session?limit=25';

/** Starts a child that prints `listening http://127.0.0.1:PORT` first. */
function startChild(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((res, rej) => {
    child.once('exit', (code) => rej(new Error(`child exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      const m = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) res({ child, url: m[1] });
      else rej(new Error(`unexpected first line: ${line}`));
    });
  });
}

/** A bare Fastify server answering PATH with fixed bytes: the floor a Fastify service can reach. */
const PEER = `
import Fastify from 'fastify';
const body = process.env.BENCH_BODY;
const app = Fastify({ logger: false });
app.get('/api/v3/speech-to-text/session', async (req, reply) => { reply.header('content-type', 'application/json; charset=utf-8'); return body; });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write('listening ' + address.replace('localhost', '127.0.0.1') + '\\n');
`;

function get(agent: Agent, url: URL, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((res, rej) => {
    const req = request({ agent, host: url.hostname, port: url.port, path: url.pathname + url.search, headers }, (r) => {
      let body = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (body += c));
      r.on('end', () => res({ status: r.statusCode ?? 0, body }));
    });
    req.on('error', rej);
    req.end();
  });
}


/** One side of the comparison: a server, the headers its requests carry, and what it measured. */
interface Side {
  pid: number;
  cpuMicros: number;
  agent: Agent;
  url: URL;
  headers: Record<string, string>;
  latencies: number[];
  seconds: number;
}

/** Closed-loop load for `ms`: CONCURRENCY clients each sending the next request when the last one is answered. */
async function load(side: Side, ms: number, record: boolean): Promise<void> {
  const t0 = performance.now();
  const end = t0 + ms;
  const cpu0 = cpuMicros(side.pid);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const r = await get(side.agent, side.url, side.headers);
        if (r.status !== 200) throw new Error(`bench request answered ${r.status}: ${r.body.slice(0, 200)}`);
        if (record) side.latencies.push(performance.now() - t);
      }
    }),
  );
  if (record) {
    side.seconds += (performance.now() - t0) / 1000;
    side.cpuMicros += cpuMicros(side.pid) - cpu0;
  }
}

/**
 * Ours and the peer in alternating slices rather than one after the other, so that whatever else
 * the machine is doing (it is shared) falls on both alike.
 */
async function compare(ours: Side, peer: Side): Promise<void> {
  await load(ours, WARMUP_MS, false);
  await load(peer, WARMUP_MS, false);
  for (let i = 0; i < SLICES; i++) {
    await load(ours, MEASURE_MS / SLICES, true);
    await load(peer, MEASURE_MS / SLICES, true);
  }
}

const figures = (s: Side) => ({ cpuPerRequest: s.cpuMicros / s.latencies.length, rps: s.latencies.length / s.seconds, p50: percentile(s.latencies, 50), p99: percentile(s.latencies, 99) });

export const serviceAuthBench: BenchModule = {
  name: 'service-auth',
  async run(): Promise<BenchRow[]> {
    const dataDir = mkdtempSync(join(tmpdir(), 's2t-bench-auth-'));
    const children: ChildProcess[] = [];
    try {
      // S2T_BENCH_CPU_PROF=DIR: the service writes a V8 CPU profile there when it stops (where a request's time goes).
      const prof = process.env.S2T_BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.S2T_BENCH_CPU_PROF)}`] : [];
      const svc = await startChild(
        [...prof, '--import', 'tsx', join(ROOT, 'service/cli.ts'), '--port', '0', '--data', dataDir, '--quiet', '--demo-user', 'bench@example.com', '--demo-password', 'bench-password', '--rate-limit', '1000000000'],
      );
      children.push(svc.child);
      const token = await serviceLogin(svc.url, { email: 'bench@example.com', password: 'bench-password' });
      // A full page: 25 sessions of the bench user's organization.
      const db = new Database(join(dataDir, 'service.db'));
      db.pragma('busy_timeout = 5000');
      const user = db.prepare('SELECT id, org_id FROM users WHERE email = ?').get('bench@example.com') as { id: number; org_id: number };
      const insert = db.prepare(
        "INSERT INTO sessions (session_id, org_id, user_id, filename, duration, media_type, language, status, created_at, last_modified) VALUES (?, ?, ?, ?, ?, 'audio/wav', 'en-US', 'completed', ?, ?)",
      );
      for (let i = 0; i < 40; i++) {
        const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
        insert.run(`bench-${i}`, user.org_id, user.id, `interview-${i}.wav`, 60 + i, at, at);
      }
      db.close();
      const auth = { authorization: `Bearer ${token}` };
      const sample = await get(new Agent(), new URL(PATH, svc.url), auth);
      if (sample.status !== 200) throw new Error(`session list answered ${sample.status}`);

      const peer = await startChild(['--input-type=module', '-e', PEER], { BENCH_BODY: sample.body });
      children.push(peer.child);
      const check = await get(new Agent(), new URL(PATH, peer.url), {});
      if (check.body !== sample.body) throw new Error('peer answers different bytes');

      const side = (child: ChildProcess, base: string, headers: Record<string, string>): Side => ({
        pid: child.pid!, cpuMicros: 0, agent: new Agent({ keepAlive: true, maxSockets: CONCURRENCY }), url: new URL(PATH, base), headers, latencies: [], seconds: 0,
      });
      const oursSide = side(svc.child, svc.url, auth);
      const peerSide = side(peer.child, peer.url, {});
      await compare(oursSide, peerSide);
      oursSide.agent.destroy();
      peerSide.agent.destroy();
      const ours = figures(oursSide);
      const bare = figures(peerSide);
      return [
        row({ name: 'session list (JWT, 25 rows): throughput', unit: 'req/s', ours: ours.rps, peer: bare.rps, target: 'ratio >= 0.2 of bare Fastify', met: ours.rps / bare.rps >= 0.2 }),
        row({ name: 'session list (JWT, 25 rows): p50 latency', unit: 'ms', ours: ours.p50, peer: bare.p50, target: `ratio <= 5 at ${CONCURRENCY} concurrent`, met: ours.p50 <= 5 * bare.p50 }),
        row({ name: 'session list (JWT, 25 rows): p99 latency', unit: 'ms', ours: ours.p99, peer: bare.p99, target: `ratio <= 5 at ${CONCURRENCY} concurrent`, met: ours.p99 <= 5 * bare.p99 }),
        row({ name: 'session list (JWT, 25 rows): server CPU per request', unit: 'µs', ours: ours.cpuPerRequest, peer: bare.cpuPerRequest, target: 'report (less load-bound than req/s)', met: null }),
      ];
    } finally {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
