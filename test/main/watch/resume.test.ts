/**
 * The headless daemon as a real process: a 2+ GB file goes up by tus; kill -9 in the middle, start
 * again, and the upload resumes from the server's offset (bytes on the wire < 1.2x the file).
 * Also: files present before the daemon starts are picked up, and SIGTERM stops it cleanly.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanup, DEMO, serviceLogin, ROOT, startService, tempDir, type RunningService } from '../../helpers/service';
import { countingProxy, sparseWav, type CountingProxy } from './helpers';

const SIZE = 2 * 1024 ** 3 + 4 * 1024 ** 2;
let svc: RunningService;
let proxy: CountingProxy;
const dirs: string[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  svc = await startService();
  proxy = await countingProxy(svc.url);
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await proxy?.close();
  await svc?.kill();
  dirs.forEach(cleanup);
});

interface Daemon {
  child: ChildProcess;
  /** Resolves with the first stdout line that matches. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

function daemon(watched: string, data: string): Daemon {
  const code = `import(${JSON.stringify(join(ROOT, 'main/watch/daemon.ts'))}).then((m) => m.runWatchDaemon(process.argv.slice(1))).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); })`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code, watched, '--service', proxy.url, '--data', data, '--formats', 'txt', '--stability-ms', '300'], {
    cwd: ROOT,
    env: { ...process.env, S2T_USERNAME: DEMO.email, S2T_PASSWORD: DEMO.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const lines: string[] = [];
  const waiters: { re: RegExp; res: (m: RegExpExecArray) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      const m = w.re.exec(line);
      if (!m) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.res(m);
    }
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  return {
    child,
    exited,
    waitFor: (re, timeoutMs = 60_000) =>
      new Promise((res, rej) => {
        const hit = lines.map((l) => re.exec(l)).find(Boolean);
        if (hit) return res(hit);
        const t = setTimeout(() => rej(new Error(`daemon never printed ${re}:\n${lines.slice(-10).join('\n')}\n${err}`)), timeoutMs);
        waiters.push({ re, res: (m) => (clearTimeout(t), res(m)) });
        void exited.then(() => rej(new Error(`daemon exited before printing ${re}:\n${lines.slice(-10).join('\n')}\n${err}`)));
      }),
  };
}

function queueRow(data: string): { tus_url: string | null; file_id: string | null; state: string } {
  const db = new Database(join(data, 'watch', 'watch.db'), { readonly: true });
  try {
    return db.prepare('SELECT tus_url, file_id, state FROM items WHERE id = 1').get() as { tus_url: string | null; file_id: string | null; state: string };
  } finally {
    db.close();
  }
}

it('resumes a 2 GB tus upload from the server offset after kill -9', async () => {
  const watched = tempDir('s2t-watch-big-');
  const data = tempDir('s2t-watch-big-data-');
  dirs.push(watched, data);
  // Already there when the daemon starts: the initial scan finds it.
  sparseWav(join(watched, 'big.wav'), SIZE);

  const first = daemon(watched, data);
  await first.waitFor(/^watching /);
  await first.waitFor(/^\[1\] uploading (3\d|[4-9]\d)\.\d%/, 120_000);
  first.child.kill('SIGKILL');
  await first.exited;
  const sentFirst = proxy.sent();

  const { tus_url } = queueRow(data);
  expect(tus_url).toMatch(/\/api\/v3\/batch\/upload\/tus\/.+/);
  const token = await serviceLogin(svc.url, DEMO);
  const head = await fetch(tus_url!.replace(proxy.url, svc.url), { method: 'HEAD', headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' } });
  const offset = Number(head.headers.get('upload-offset'));
  expect(offset).toBeGreaterThan(0.25 * SIZE);
  expect(offset).toBeLessThan(SIZE);

  const second = daemon(watched, data);
  await second.waitFor(/^\[1\] transcribing/, 180_000);
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);

  const total = proxy.sent();
  const sentSecond = total - sentFirst;
  console.log(`watch resume: file ${SIZE} B; killed at server offset ${offset} B; sent ${sentFirst} B before, ${sentSecond} B after; total ${(total / SIZE).toFixed(3)}x the file`);
  expect(total).toBeLessThan(1.2 * SIZE);
  // The second run sent only what the server lacked (plus at most the chunk cut off by the kill).
  expect(sentSecond).toBeLessThan(SIZE - offset + 64 * 1024 ** 2);
  const row = queueRow(data);
  expect(row.file_id).toBeTruthy();
  const db = new Database(join(svc.dataDir, 'service.db'), { readonly: true });
  const uploads = db.prepare('SELECT size_bytes, complete FROM uploads').all();
  db.close();
  expect(uploads).toEqual([{ size_bytes: SIZE, complete: 1 }]);
}, 240_000);
