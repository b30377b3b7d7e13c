/**
 * `npm run watch` as users run it (the built dist/main/headless.js): with no --service it starts
 * the embedded local service, transcribes a dropped file, stops on SIGINT keeping its queue, and
 * after a restart knows the file (no second upload).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from 'vitest';
import { cleanup, ROOT, tempDir } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';

const HEADLESS = join(ROOT, 'dist/main/headless.js');
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  dirs.forEach(cleanup);
});

function run(args: string[]) {
  const child = spawn(process.execPath, [HEADLESS, 'watch', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const lines: string[] = [];
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
  const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  const waitFor = async (re: RegExp, timeoutMs = 90_000) => {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const hit = lines.find((l) => re.test(l));
      if (hit) return hit;
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no line ${re}:\n${lines.join('\n')}\n${err}`);
  };
  return { child, lines, exited, waitFor };
}

it('runs the daemon on the embedded service, delivers, stops on SIGINT and keeps its queue', async () => {
  expect(existsSync(HEADLESS), 'run npm run build first').toBe(true);
  const watched = tempDir('s2t-daemon-watched-');
  const data = tempDir('s2t-daemon-data-');
  dirs.push(watched, data);
  const first = run([watched, '--data', data, '--formats', 'srt,vtt', '--language', 'en', '--stability-ms', '300']);
  await first.waitFor(/^watching .* -> srt, vtt \(en\) via http:\/\/127\.0\.0\.1:\d+$/, 60_000);
  copyFileSync(await speechWav('the daemon writes captions for this recording'), join(watched, 'daemon.wav'));
  await first.waitFor(/^\[1\] delivered .*daemon\.wav$/);
  expect(readFileSync(join(watched, 'daemon.vtt'), 'utf8')).toMatch(/^WEBVTT/);
  expect(readFileSync(join(watched, 'daemon.srt'), 'utf8')).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> /);
  first.child.kill('SIGINT');
  expect(await first.exited).toBe(0);
  expect(first.lines.some((l) => l.startsWith('SIGINT: stopping'))).toBe(true);

  const second = run([watched, '--data', data, '--formats', 'srt,vtt', '--stability-ms', '300']);
  await second.waitFor(/^already known \[1\] .*daemon\.wav$/, 60_000);
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  expect(second.lines.some((l) => /^\[\d+\] uploading/.test(l))).toBe(false);
}, 150_000);

it('refuses unknown formats with a clear message', async () => {
  const r = run([tempDir('s2t-daemon-x-'), '--formats', 'srt,mp3']);
  expect(await r.exited).toBe(1);
});
