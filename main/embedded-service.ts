/**
 * Runs the local speech-to-text service (service/, bundled as dist/service/cli.js) as a child
 * process on a free loopback port, and stops it with the app. main never imports service code:
 * the two only meet over HTTP, exactly as with the cloud.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const DEMO_ACCOUNT = { email: 'demo@s2t.local', password: 's2t-demo' } as const;

export interface EmbeddedService {
  url: string;
  stop(): Promise<void>;
}

function serviceEntry(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, '..', 'service', 'cli.js');
  if (existsSync(bundled)) return bundled;
  throw new Error(`the local service is not built (${bundled} is missing): run npm run build`);
}

export async function startEmbeddedService(opts: { dataDir: string; execPath?: string; env?: NodeJS.ProcessEnv }): Promise<EmbeddedService> {
  const args = [serviceEntry(), '--port', '0', '--data', opts.dataDir, '--demo-user', DEMO_ACCOUNT.email, '--demo-password', DEMO_ACCOUNT.password, '--quiet'];
  const child: ChildProcess = spawn(opts.execPath ?? process.execPath, args, { env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the local service did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the local service exited (${code}) before it was ready`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      const m = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) resolve(m[1]);
      else reject(new Error(`the local service said "${line}" instead of its address`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
