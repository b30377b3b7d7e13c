/**
 * The watch daemon's embedded service is supervised as the app's is: killed under the running
 * daemon, it comes back on the same address and a file dropped afterwards is still delivered.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { processesFor } from './helpers/processes';


it('restarts the daemon\'s service after a SIGKILL and still delivers', async () => {
  const watched = tempDir('s2t-sup-daemon-watched-');
  const data = tempDir('s2t-sup-daemon-data-');
  const child = spawn(process.execPath, [join(ROOT, 'dist/main/headless.js'), 'watch', watched, '--data', data, '--formats', 'srt', '--language', 'en', '--stability-ms', '300'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
  const line = (re: RegExp) => lines.find((l) => re.test(l));
  try {
    await expect.poll(() => line(/^watching /) ?? (child.exitCode !== null ? `exited: ${err}` : undefined), { timeout: 60_000 }).toMatch(/^watching /);
    const serviceDir = join(data, 'local-service');
    const [pid] = processesFor(serviceDir).filter((p) => p !== child.pid);
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => line(/^local service running again$/), { timeout: 60_000 }).toBeDefined();
    expect(line(/^local service restarting: The local service stopped unexpectedly/)).toBeDefined();
    copyFileSync(await speechWav('the daemon keeps going after its service died'), join(watched, 'after.wav'));
    await expect.poll(() => line(/delivered .*after\.wav$/) ?? (child.exitCode !== null ? `exited: ${err}` : undefined), { timeout: 120_000, interval: 500 }).toMatch(/delivered/);
    expect(readFileSync(join(watched, 'after.srt'), 'utf8')).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> /);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
  expect(processesFor(join(data, 'local-service'))).toEqual([]);
}, 240_000);
