/**
 * Setup the UI tests share: a batch API key for the demo account, sessions uploaded through the
 * service's batch API (the service transcribes them with pocketsphinx), signing in through the form,
 * and the app and Chromium started once per test file.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { LOCAL_DEMO, admit, launchChromium, startApp, urlsOnRequest, type RunningApp } from './app';
import { ROOT, cleanup, serviceLogin, tempDir, type Account, type RunningService } from './service';

/** A batch API key for an account (the app's local demo unless told), as a batch client would hold. */
export async function batchKey(serviceUrl: string, name: string, account: Account = LOCAL_DEMO): Promise<string> {
  const access = await serviceLogin(serviceUrl, account);
  const res = await fetch(`${serviceUrl}/api/v3/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, type: 'batch', years_valid: 1 }),
  });
  expect(res.ok).toBe(true);
  return ((await res.json()) as { token_value: string }).token_value;
}

/** Creates an English session (source kept) with the key and uploads a WAV into it under `filename`; answers its id. */
export async function uploadWav(serviceUrl: string, key: string, filename: string, wav: Buffer<ArrayBuffer>): Promise<string> {
  const created = await fetch(`${serviceUrl}/api/v3/speech-to-text/session`, {
    method: 'POST',
    headers: { 'x-svc-s2t-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ language: 'en', keep_source: true }),
  });
  expect(created.ok).toBe(true);
  const { result } = (await created.json()) as { result: { session_id: string } };
  const put = await fetch(`${serviceUrl}/api/v3/speech-to-text/session/${result.session_id}`, {
    method: 'PUT',
    headers: { 'x-svc-s2t-key': key, 'x-filename': filename, 'content-type': 'audio/wav' },
    body: wav,
  });
  expect(put.ok).toBe(true);
  return result.session_id;
}

/** Fills the sign-in form with an account (the app's local demo unless told) and submits it; the form must be showing or about to. */
export async function submitSignIn(page: Page, account: Account = LOCAL_DEMO): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('E-mail').fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Signs in through the form when the app asks (a fresh browser context always does in browser
 * mode), then waits for `ready` (the app's shell unless told) to show once.
 */
export async function signIn(page: Page, url: string, ready: Locator = page.locator('.shell')): Promise<void> {
  await page.goto(url);
  const email = page.getByLabel('E-mail');
  await expect.poll(async () => (await email.count()) + (await ready.count()), { timeout: 30_000 }).toBeGreaterThan(0);
  if ((await email.count()) > 0) await submitSignIn(page);
  await expect.poll(() => ready.count(), { timeout: 30_000 }).toBe(1);
}

/**
 * The built browser-mode app (startApp unless `start` says otherwise) and a Chromium, started
 * before this test file's tests and stopped after them; read `app` and `browser` inside the tests.
 */
export function appAndBrowserPerFile(start: () => Promise<RunningApp> = () => startApp()): { app: RunningApp; browser: Browser } {
  const run = {} as { app: RunningApp; browser: Browser };
  beforeAll(async () => {
    [run.browser, run.app] = await Promise.all([launchChromium(), start()]);
  }, 90_000);
  afterAll(async () => {
    await run.browser?.close();
    await run.app?.stop();
  });
  return run;
}

export type CloudApp = Omit<RunningApp, 'serviceUrl' | 'lines'> & { port: number };

/**
 * The built browser-mode app in cloud mode on a service of the test's own (S2T_SERVICE_URL), so
 * the test can stop that service and the app is really offline. No embedded service starts.
 * `dataDir`: an earlier run's folder, to start the app again where it stopped.
 */
export async function startCloudApp(serviceUrl: string, dataDir = tempDir('s2t-cloud-app-')): Promise<CloudApp> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/main/headless.js'), '--data', dataDir], { cwd: ROOT, env: { ...process.env, S2T_SERVICE_URL: serviceUrl }, stdio: ['pipe', 'pipe', 'pipe'] });
  const urls = urlsOnRequest(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`app exited with ${code}:\n${err}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^S2T Desktop \(browser mode\): (\S+)$/.exec(line);
      if (m) {
        urls.printed(m[1]);
        resolve(m[1]);
      }
    });
  });
  return {
    url,
    dataDir,
    child,
    port: Number(new URL(url).port),
    newUrl: urls.next,
    newSession: async () => admit(await urls.next()),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Screenshots of the page as it stands, light and dark, at 1280x800 and 800x600, saved as
 * DIR/NAME-WxH-THEME.png (`prepare` runs at each size first, e.g. to scroll a part into view);
 * the page is left light at 1280x800.
 */
export async function shootLooks(page: Page, dir: string, name: string, prepare?: () => Promise<void>): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const [w, h] of [[1280, 800], [800, 600]] as const) {
      await page.setViewportSize({ width: w, height: h });
      await prepare?.();
      await page.screenshot({ path: join(dir, `${name}-${w}x${h}-${theme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Ends a test file's cloud-mode run: Chromium, the app, the service, and their folders. */
export async function closeCloudRun(run: { browser?: Browser; app?: CloudApp; svc?: RunningService; serviceDir?: string }): Promise<void> {
  await run.browser?.close();
  await run.app?.stop();
  await run.svc?.stop();
  if (run.serviceDir) cleanup(run.serviceDir);
  if (run.app) cleanup(run.app.dataDir);
}

/** The speaker shown for transcript segment `n` (1-based) in `scope`: the name on its button. */
export function speakerOfSegment(scope: Page | Locator, n: number): Locator {
  return scope.getByRole('button', { name: new RegExp(`^Speaker of segment ${n}: `) });
}

/** Picks `name` as segment `n`'s speaker, as a person does: the button, then the list it opens. */
export async function pickSpeaker(page: Page, n: number, name: string): Promise<void> {
  await speakerOfSegment(page, n).click();
  await page.getByLabel(`Speaker of segment ${n}`, { exact: true }).selectOption({ label: name });
  await speakerOfSegment(page, n).waitFor();
}
