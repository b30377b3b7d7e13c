/**
 * Crash safety: children are killed with SIGKILL at a random moment from their spawn, at least
 * 200 times in all: while Node starts, while the cache opens (integrity checks, migrations), and
 * while they save, copy, rename, delete, merge and sync. After every kill the cache passes
 * PRAGMA integrity_check. The "work" lanes then show every acknowledged change on the service or
 * still in the outbox, and after one clean sync every one of them applied exactly once. The
 * "open" lane starts from a populated cache of schema 1 and shows that a kill mid-migration
 * leaves a whole schema step or none.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { plainText } from '../../../common/transcript/model';
import { cacheMigrations, migrate, segmentRows } from '../../../main/cache';
import { CACHE_FILE } from '../../../main/core';
import { DEMO, cleanup, serviceLogin, ROOT, startService, tempDir, type RunningService } from '../../helpers/service';
import type { Step } from './crash-child';
import { lostChanges, wrongOutcomes, type LoggedStep, type OutboxView, type ServiceView } from './crash-check';
import { body, user } from '../helpers/fixtures';
import { otherDevice, signedInCore } from '../helpers/harness';
import { seedService } from '../helpers/seed';

const WORK_LANES = 4;
const KILLS_PER_WORK_LANE = Number(process.env.S2T_CRASH_KILLS ?? 42);
const OPEN_LANE_KILLS = Number(process.env.S2T_CRASH_OPEN_KILLS ?? 36);
/**
 * When kills land, however long a loaded machine takes to start Node. The work lanes: a third
 * anywhere in the first 600 ms from spawn (mostly Node starting and the cache opening), the rest
 * in the first 500 ms of work. The open lane: at first in the first 600 ms after the child starts
 * opening the cache (its checks and migrations take a few hundred ms on 160,000 words), so some
 * kills interrupt a migration and some let it finish; on a machine slow enough that a migration
 * outlasts the window, each interrupted one widens it by a third, so some still finish.
 */
let openWindowMs = 600;
type KillPlan = 'open' | 'work';
const killPlans: Record<KillPlan, { fromSpawn: () => number | null; after: 'OPENING' | 'READY'; ms: number }> = {
  work: { fromSpawn: () => (Math.random() < 0.3 ? Math.random() * 600 : null), after: 'READY', ms: 500 },
  open: { fromSpawn: () => null, after: 'OPENING', get ms() { return openWindowMs; } },
};
const LATEST = cacheMigrations.at(-1)!.version;

let svc: RunningService;
let work: string;
let childJs: string;
const laneDirs: string[] = [];

beforeAll(async () => {
  svc = await startService();
  work = tempDir('s2t-crash-');
  childJs = join(work, 'crash-child.cjs');
  // Bundled once so each short-lived child starts in tens of milliseconds.
  await build({ entryPoints: [join(ROOT, 'test/main/cache/crash-child.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', outfile: childJs, logLevel: 'silent' });
});

afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
  if (work) cleanup(work);
  laneDirs.forEach(cleanup);
});

type Phase = 'starting' | 'opening' | 'working';

/** Runs one child until the kill; feeds its WILL/ACK lines to `log`; tells in which phase it died. */
function runChild(plan: KillPlan, args: string[], token: string, log: LoggedStep[]): Promise<Phase> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childJs, plan, ...args], { env: { ...process.env, S2T_TEST_TOKEN: token, NODE_PATH: join(ROOT, 'node_modules') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let phase: Phase = 'starting';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const lines = createInterface({ input: child.stdout });
    const closed = new Promise<void>((r) => lines.once('close', () => r()));
    const kill = killPlans[plan];
    const early = kill.fromSpawn();
    // A child that never gets going is killed too, so no run can hang the test.
    let killer = setTimeout(() => child.kill('SIGKILL'), early ?? 15_000);
    lines.on('line', (line) => {
      if (line === 'OPENING') phase = 'opening';
      if (line === 'READY') phase = 'working';
      // An open child only waits once its migrations are done: the kill need not wait with it.
      if (plan === 'open' && line === 'READY') {
        clearTimeout(killer);
        child.kill('SIGKILL');
      }
      if (early === null && line === kill.after) {
        clearTimeout(killer);
        killer = setTimeout(() => child.kill('SIGKILL'), Math.random() * kill.ms);
      }
      if (line.startsWith('WILL ')) log.push({ step: JSON.parse(line.slice(5)) as Step, acked: false });
      else if (line.startsWith('ACK ')) log[log.length - 1].acked = true;
    });
    child.once('exit', (code, signal) => {
      clearTimeout(killer);
      if (signal !== 'SIGKILL') reject(new Error(`child exited with ${code}: ${err}`));
      else void closed.then(() => resolve(phase));
    });
  });
}

function integrity(dataDir: string): string {
  // Not read-only: a kill while the file turned from rollback journal to WAL can leave a hot
  // journal, which SQLite rolls back on the next read-write open (as the app's own open does) and
  // a read-only connection refuses to read past ("attempt to write a readonly database").
  const db = new Database(join(dataDir, CACHE_FILE));
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

/** A cache of schema 1, as an old version left it: an account, 80 documents of 2,000 words, one unsent edit. */
function oldCacheTemplate(file: string): number {
  const db = new Database(file);
  migrate(db, file, cacheMigrations, 1);
  db.prepare("INSERT INTO accounts (id, service_url, email, user_json, is_current, updated_at) VALUES (7, ?, ?, ?, 1, 'then')").run(svc.url, DEMO.email, JSON.stringify(user));
  db.prepare("INSERT INTO sessions (session_id, account_id, filename, language, data) VALUES ('old', 7, 'old.wav', 'en', '{}')").run();
  const words = Array.from({ length: 100 }, (_, i) => `word${i} `.repeat(20).trim());
  let rows = 0;
  db.transaction(() => {
    for (let d = 0; d < 80; d++) {
      const b = body(words);
      rows += segmentRows(b).length;
      db.prepare("INSERT INTO documents (id, session_id, filename, type, language, last_modified, timecode_offset, meta, body) VALUES (?, 'old', ?, 'document', 'en', 'then', '00:00:00:00', '{}', ?)").run(`d${d}`, `d${d}.json`, JSON.stringify(b));
    }
    db.prepare("INSERT INTO outbox (document_id, session_id, op, payload, created_at) VALUES ('d1', 'old', 'rename', '{\"op\":\"rename\",\"filename\":\"x.json\"}', 'then')").run();
  })();
  db.close();
  return rows;
}

/** After a kill during open: a whole number of schema steps, each complete. */
function checkSchema(dataDir: string, expectedRows: number): number {
  const db = new Database(join(dataDir, CACHE_FILE), { readonly: true });
  try {
    const v = db.pragma('user_version', { simple: true }) as number;
    const has = (name: string) => !!db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').get(name);
    expect([v, has('uploads'), has('text_segments'), has('share_links')]).toEqual([v, v >= 2, v >= 3, v >= 5]);
    if (v >= 3) expect((db.prepare('SELECT count(*) AS n FROM text_segments').get() as { n: number }).n).toBe(expectedRows);
    expect((db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n).toBe(1);
    return v;
  } finally {
    db.close();
  }
}

async function serviceView(sessionId: string, mainId: string, originalFilename: string): Promise<ServiceView> {
  const device = await otherDevice(svc.url);
  const main = await device.call('documents.get', { params: { sessionId, documentId: mainId } });
  const docs: { id: string; filename: string }[] = [];
  for await (const d of device.items('documents.list', { params: { sessionId } })) docs.push({ id: d.id, filename: d.filename });
  return { mainText: plainText(main.document!.content), mainFilename: main.filename, originalFilename, docs };
}

function outboxView(dataDir: string): OutboxView {
  const db = new Database(join(dataDir, CACHE_FILE), { readonly: true });
  try {
    const entries = db.prepare('SELECT document_id, op, payload FROM outbox ORDER BY seq').all() as OutboxView['entries'];
    const aliases = new Map((db.prepare('SELECT local_id, server_id FROM id_aliases').all() as { local_id: string; server_id: string }[]).map((a) => [a.local_id, a.server_id]));
    return { entries, aliases };
  } finally {
    db.close();
  }
}

it(`survives ${WORK_LANES * KILLS_PER_WORK_LANE + OPEN_LANE_KILLS} SIGKILLs at random moments without losing or repeating an acknowledged change`, async () => {
  const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: WORK_LANES });
  const token = await serviceLogin(svc.url, DEMO);
  const lanes = await Promise.all(
    seeded.sessions.map(async (s) => {
      // Sign in once (the cache remembers the account; the token travels by env to each child).
      const c = await signedInCore(svc.url);
      laneDirs.push(c.dataDir);
      await c.h['sync.now']({});
      const filename = (await c.h['documents.get']({ documentId: s.documentIds[0] }))!.filename;
      await c.core.close();
      return { dataDir: c.dataDir, sessionId: s.sessionId, documentId: s.documentIds[0], filename, log: [] as LoggedStep[] };
    }),
  );
  const template = join(work, 'old-cache.db');
  const expectedRows = oldCacheTemplate(template);
  const openDir = tempDir('s2t-crash-open-');
  laneDirs.push(openDir);

  const phases: Record<Phase, number> = { starting: 0, opening: 0, working: 0 };
  const migrations = { interrupted: 0, completed: 0 };
  const workLane = async (lane: (typeof lanes)[number]) => {
    for (let k = 0; k < KILLS_PER_WORK_LANE; k++) {
      phases[await runChild('work', [svc.url, lane.dataDir, lane.sessionId, lane.documentId], token, lane.log)]++;
      expect(integrity(lane.dataDir)).toBe('ok');
    }
  };
  const openLane = async () => {
    let version = LATEST;
    for (let k = 0; k < OPEN_LANE_KILLS; k++) {
      if (version === LATEST) {
        for (const suffix of ['', '-wal', '-shm']) rmSync(join(openDir, CACHE_FILE + suffix), { force: true });
        copyFileSync(template, join(openDir, CACHE_FILE));
      }
      const phase = await runChild('open', [svc.url, openDir, 'old', 'd1'], token, []);
      phases[phase]++;
      expect(integrity(openDir)).toBe('ok');
      version = checkSchema(openDir, expectedRows);
      if (version === LATEST) migrations.completed++;
      else if (phase === 'opening') {
        migrations.interrupted++;
        openWindowMs = Math.min(openWindowMs * 1.33, 20_000);
      }
    }
  };
  await Promise.all([...lanes.map(workLane), openLane()]);

  const kills = phases.starting + phases.opening + phases.working;
  expect(kills).toBeGreaterThanOrEqual(200);
  // The random moments covered each phase, including opening and migrating the cache.
  expect(phases.starting).toBeGreaterThanOrEqual(10);
  expect(phases.opening).toBeGreaterThanOrEqual(5);
  expect(phases.working).toBeGreaterThanOrEqual(100);
  expect(migrations.interrupted).toBeGreaterThanOrEqual(3);
  expect(migrations.completed).toBeGreaterThanOrEqual(2);
  // A kill never damages the cache: no run had to move it aside.
  for (const dir of [...lanes.map((l) => l.dataDir), openDir]) expect(readdirSync(dir).filter((f) => f.includes('.corrupt-') || f.includes('.rebuilt'))).toEqual([]);

  let acked = 0;
  const kinds = new Set<string>();
  for (const lane of lanes) {
    acked += lane.log.filter((l) => l.acked).length;
    lane.log.filter((l) => l.acked).forEach((l) => kinds.add(l.step.op));
    expect(lostChanges(lane.log, await serviceView(lane.sessionId, lane.documentId, lane.filename), outboxView(lane.dataDir))).toEqual([]);
    // One clean sync delivers whatever was still queued, each change exactly once.
    const c = await signedInCore(svc.url, lane.dataDir);
    const state = await c.h['sync.now']({});
    await c.core.close();
    expect(state).toMatchObject({ pending: 0, blocked: 0, lastError: null });
    expect(wrongOutcomes(lane.log, await serviceView(lane.sessionId, lane.documentId, lane.filename), outboxView(lane.dataDir).aliases)).toEqual([]);
  }
  expect(acked).toBeGreaterThan(WORK_LANES * 10);
  expect([...kinds].sort()).toEqual(['copy', 'delete', 'merge', 'rename', 'save']);
  expect(existsSync(join(openDir, CACHE_FILE))).toBe(true);
}, 180_000);
