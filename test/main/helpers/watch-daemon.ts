/**
 * The built watch daemon (`headless.js watch`) on a fresh folder with its embedded service, SRT
 * out, its printed lines kept for the test to look through; for tests that kill its service.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { ROOT, tempDir } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { processesFor } from './processes';

export interface RunningDaemon {
  data: string;
  /** The first printed line that matches; after an exit, what it said on stderr. */
  line(re: RegExp): string | undefined;
  /** The pid of its embedded service's process now. */
  servicePid(): number;
  /** Drops a spoken WAV into the folder and waits until its SRT is delivered beside it. */
  delivers(name: string, words: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startWatchDaemon(prefix: string): Promise<RunningDaemon> {
  const watched = tempDir(`${prefix}watched-`);
  const data = tempDir(`${prefix}data-`);
  const child = spawn(process.execPath, [join(ROOT, 'dist/main/headless.js'), 'watch', watched, '--data', data, '--formats', 'srt', '--language', 'en', '--stability-ms', '300'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
  const line = (re: RegExp) => lines.find((l) => re.test(l)) ?? (child.exitCode !== null ? `exited: ${err}` : undefined);
  const daemon: RunningDaemon = {
    data,
    line,
    servicePid: () => processesFor(join(data, 'local-service')).filter((p) => p !== child.pid)[0],
    async delivers(name, words) {
      copyFileSync(await speechWav(words), join(watched, `${name}.wav`));
      await expect.poll(() => line(new RegExp(`(delivered|failed) .*${name}\\.wav$`)), { timeout: 120_000, interval: 500 }).toMatch(/delivered/);
      expect(readFileSync(join(watched, `${name}.srt`), 'utf8')).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> /);
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    },
  };
  try {
    await expect.poll(() => line(/^watching /), { timeout: 60_000 }).toMatch(/^watching /);
  } catch (e) {
    await daemon.stop();
    throw e;
  }
  return daemon;
}
