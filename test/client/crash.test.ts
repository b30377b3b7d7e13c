/**
 * Crash safety: children that edit and sync in a loop are killed with SIGKILL at random points,
 * at least 200 times in all. After every kill the cache passes PRAGMA integrity_check; at the end
 * every acknowledged edit is on the service or still in the outbox, and one clean sync puts
 * every one of them on the service.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { plainText } from '../../common/transcript/model';
import { CACHE_FILE } from '../../main/core';
import { DEMO, cleanup, loginDemo, ROOT, startService, tempDir, type RunningService } from '../helpers/service';
import { otherDevice, signedInCore } from './harness';
import { seedService } from './seed';

const LANES = 4;
const KILLS_PER_LANE = Number(process.env.S2T_CRASH_KILLS ?? 52);

let svc: RunningService;
let bundleDir: string;
let childJs: string;
const laneDirs: string[] = [];

beforeAll(async () => {
  svc = await startService();
  bundleDir = tempDir('s2t-crash-bundle-');
  childJs = join(bundleDir, 'crash-child.cjs');
  // Bundled once so each short-lived child starts in tens of milliseconds.
  await build({ entryPoints: [join(ROOT, 'test/client/crash-child.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', outfile: childJs, logLevel: 'silent' });
});

afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
  if (bundleDir) cleanup(bundleDir);
  laneDirs.forEach(cleanup);
});

function runChild(url: string, dataDir: string, documentId: string, token: string, acked: Set<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childJs, url, dataDir, documentId], {
      env: { ...process.env, S2T_TEST_TOKEN: token, NODE_PATH: join(ROOT, 'node_modules') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const lines = createInterface({ input: child.stdout });
    const closed = new Promise<void>((r) => lines.once('close', () => r()));
    // A child that never gets going is killed too, so no run can hang the test.
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 10_000);
    lines.on('line', (line) => {
      if (line === 'READY') setTimeout(() => child.kill('SIGKILL'), Math.random() * 250);
      else if (line.startsWith('ACK ')) acked.add(line.slice(4));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(watchdog);
      if (signal !== 'SIGKILL') reject(new Error(`child exited with ${code}: ${err}`));
      else void closed.then(resolve);
    });
  });
}

it(`survives ${LANES * KILLS_PER_LANE} SIGKILLs at random points without losing an acknowledged edit`, async () => {
  const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: LANES });
  const token = await loginDemo(svc.url);
  const lanes = await Promise.all(
    seeded.sessions.map(async (s) => {
      // Sign in once (the cache remembers the account; the token travels by env to each child).
      const c = await signedInCore(svc.url);
      laneDirs.push(c.dataDir);
      await c.h['sync.now']({});
      await c.core.close();
      return { dataDir: c.dataDir, sessionId: s.sessionId, documentId: s.documentIds[0], acked: new Set<string>() };
    }),
  );
  let kills = 0;
  await Promise.all(
    lanes.map(async (lane) => {
      for (let k = 0; k < KILLS_PER_LANE; k++) {
        await runChild(svc.url, lane.dataDir, lane.documentId, token, lane.acked);
        kills++;
        const db = new Database(join(lane.dataDir, CACHE_FILE), { readonly: true });
        try {
          expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        } finally {
          db.close();
        }
      }
    }),
  );
  expect(kills).toBeGreaterThanOrEqual(200);
  // A kill never damages the cache: no run had to move it aside.
  for (const lane of lanes) expect(readdirSync(lane.dataDir).filter((f) => f.includes('.corrupt-'))).toEqual([]);

  const device = await otherDevice(svc.url);
  let total = 0;
  for (const lane of lanes) {
    total += lane.acked.size;
    const remote = await device.call('documents.get', { params: { sessionId: lane.sessionId, documentId: lane.documentId } });
    const onService = plainText(remote.document!.content);
    const db = new Database(join(lane.dataDir, CACHE_FILE), { readonly: true });
    const outbox = (db.prepare('SELECT payload FROM outbox').all() as { payload: string }[]).map((r) => r.payload).join('\n');
    db.close();
    const missing = [...lane.acked].filter((m) => !onService.includes(`edit ${m}`) && !outbox.includes(`edit ${m}"`) && !outbox.includes(`"${m}"`));
    expect(missing).toEqual([]);
    // One clean sync delivers whatever was still queued.
    const c = await signedInCore(svc.url, lane.dataDir);
    const state = await c.h['sync.now']({});
    await c.core.close();
    expect(state.pending).toBe(0);
    const after = plainText((await device.call('documents.get', { params: { sessionId: lane.sessionId, documentId: lane.documentId } })).document!.content);
    expect([...lane.acked].filter((m) => !after.includes(`edit ${m}`))).toEqual([]);
    // Exactly once: no marker appears twice.
    const markers = after.split('\n').filter((l) => l.startsWith('edit '));
    expect(new Set(markers).size).toBe(markers.length);
  }
  expect(total).toBeGreaterThan(LANES * 10);
}, 180_000);
