/**
 * An import survives a killed app: a large file goes up by tus; kill -9 the main process in the
 * middle, start it again on the same data dir, and the upload resumes from the server's offset
 * (bytes on the wire < 1.2x the file) and reaches transcribing without being added again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO, ROOT, startService, tempDirs, type RunningService } from '../../helpers/service';
import { countingProxy, sparseWav, type CountingProxy } from '../watch/helpers';

const SIZE = 96 * 1024 * 1024;
let svc: RunningService;
let proxy: CountingProxy;
const dirs = tempDirs();
const children: ChildProcess[] = [];

beforeAll(async () => {
  svc = await startService();
  // Slow enough that the kill lands mid-upload whatever the machine's load.
  proxy = await countingProxy(svc.url, { bytesPerSecond: 8 * 1024 * 1024 });
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await proxy?.close();
  await svc?.kill();
  dirs.removeAll();
});

function main(dataDir: string, media?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/main/imports/import-child.ts'), proxy.url, dataDir, ...(media ? [media] : [])], { cwd: ROOT, env: { ...process.env, S2T_USERNAME: DEMO.email, S2T_PASSWORD: DEMO.password }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const lines: string[] = [];
  const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  const waiters: { test: (l: string) => boolean; res: () => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (!w.test(line)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.res();
    }
  });
  const waitFor = (what: string, test: (l: string) => boolean, timeoutMs = 120_000) =>
    new Promise<void>((res, rej) => {
      if (lines.some(test)) return res();
      const t = setTimeout(() => rej(new Error(`main never printed ${what}:\n${lines.slice(-5).join('\n')}\n${err}`)), timeoutMs);
      waiters.push({ test, res: () => (clearTimeout(t), res()) });
      void exited.then(() => rej(new Error(`main exited before ${what}:\n${lines.slice(-5).join('\n')}\n${err}`)));
    });
  return { child, exited, waitFor };
}

it('resumes an import from the server offset after the main process is killed', async () => {
  const dataDir = dirs.make('s2t-import-resume-data-');
  const media = join(dirs.make('s2t-import-resume-media-'), 'big.wav');
  sparseWav(media, SIZE, 3);

  const first = main(dataDir, media);
  await first.waitFor('a third uploaded', (l) => / uploading (\d+)$/.test(l) && Number(/ (\d+)$/.exec(l)![1]) > SIZE / 3);
  first.child.kill('SIGKILL');
  await first.exited;
  const sentFirst = proxy.sent();
  expect(sentFirst).toBeLessThan(SIZE);

  const second = main(dataDir);
  await second.waitFor('transcribing', (l) => / transcribing /.test(l), 180_000);
  second.child.kill('SIGTERM');
  await second.exited;
  const total = proxy.sent();
  console.log(`import resume: file ${SIZE} B; sent ${sentFirst} B before the kill, ${total - sentFirst} B after; total ${(total / SIZE).toFixed(3)}x the file`);
  expect(total).toBeLessThan(1.2 * SIZE);
  expect(total - sentFirst).toBeLessThan(SIZE - SIZE / 3 + 8 * 1024 * 1024);
}, 300_000);
