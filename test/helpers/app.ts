/**
 * Starts the app in browser mode (the built web bridge, dist/main/headless.js) with its embedded
 * local service, and a headless Chromium driven by Playwright.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser } from 'playwright-core';
import { ROOT, tempDir } from './service';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
/**
 * The embedded service's account in tests: startApp hands it to the app (--local-account-stdin),
 * and the tests sign in with it through the UI. The app itself has no fixed account.
 */
export const LOCAL_DEMO = { email: 'demo@s2t.local', password: 's2t-demo' };

export interface RunningApp {
  url: string;
  serviceUrl: string;
  dataDir: string;
  child: ChildProcess;
  /** What the app printed up to its address lines. */
  lines: string[];
  /** A fresh address from the running app (as a person gets by pressing Enter): one per browser context, since each admits one page once. */
  newUrl(): Promise<string>;
  /** A bridge session of a fresh address, for a client of the bridge's own (bridgeClient, rawSocket). */
  newSession(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * `entry`: the script to run, dist/main/headless.js by default (scripts/start.mjs is `npm start`).
 * `localAccount`: the embedded service's account, LOCAL_DEMO by default; null runs the app as
 * users do (a random credential it keeps to itself, and it signs in on its own).
 */
export async function startApp(opts: { dataDir?: string; env?: NodeJS.ProcessEnv; entry?: string; localAccount?: { email: string; password: string } | null } = {}): Promise<RunningApp> {
  const entry = join(ROOT, opts.entry ?? 'dist/main/headless.js');
  if (!existsSync(join(ROOT, 'dist/main/headless.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  const dataDir = opts.dataDir ?? tempDir('s2t-app-');
  const account = opts.localAccount === undefined ? LOCAL_DEMO : opts.localAccount;
  const args = [entry, '--data', dataDir, ...(account ? ['--local-account-stdin'] : [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  if (account) child.stdin!.write(`${JSON.stringify(account)}\n`);
  const urls = urlsOnRequest(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const lines = createInterface({ input: child.stdout! });
  const printed: string[] = [];
  const found = await new Promise<{ url: string; serviceUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not start in 60 s:\n${err}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`app exited with ${code}:\n${err}`)));
    let url = '';
    lines.on('line', (line) => {
      const a = /^S2T Desktop \(browser mode\): (\S+)$/.exec(line);
      if (a && url) return urls.printed(a[1]);
      printed.push(line);
      if (a) url = a[1];
      const b = /^Local service (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (b && url) {
        clearTimeout(timer);
        resolve({ url, serviceUrl: b[1] });
      }
    });
  });
  return {
    ...found,
    lines: printed,
    newUrl: urls.next,
    newSession: async () => admit(await urls.next()),
    dataDir,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Fresh addresses from a running browser-mode app: a line on its stdin prints one. */
export function urlsOnRequest(child: ChildProcess): { next(): Promise<string>; printed(url: string): void } {
  const waiting: ((url: string) => void)[] = [];
  return {
    next: () =>
      new Promise((resolve, reject) => {
        if (child.exitCode !== null) return reject(new Error('the app has stopped'));
        waiting.push(resolve);
        child.stdin!.write('\n');
      }),
    printed: (url) => waiting.shift()?.(url),
  };
}

/** Spends an address's one-time ticket at the bridge's admit route, as the page does; answers the session. */
export async function admit(url: string): Promise<string> {
  const { origin, hash } = new URL(url);
  const ticket = /token=([\w-]+)/.exec(hash)?.[1] ?? '';
  const res = await fetch(`${origin}/admit`, { method: 'POST', headers: { origin, 'x-s2t-ticket': ticket } });
  if (res.status !== 200) throw new Error(`the bridge refused ${url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { session: string }).session;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/** Chromium whose microphone plays `wav` (in a loop), granted without asking; media may play without a click. */
export function launchChromiumWithMicrophone(wav: string): Promise<Browser> {
  const microphone = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`, '--autoplay-policy=no-user-gesture-required'];
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS, ...microphone] });
}
