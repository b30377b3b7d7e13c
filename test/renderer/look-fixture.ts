/**
 * What the look tests share (theme, layout, accessibility): sessions made from real speech through
 * the local service (signing in is in test/helpers/ui.ts), and an axe-core run inside the page.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { PromisifyAssertion } from '@vitest/expect';
import { expect } from 'vitest';
import type { DocumentBody } from '../../common/transcript';
import { LOCAL_DEMO, type RunningApp } from '../helpers/app';
import { serviceLogin } from '../helpers/service';
import { bridgeClient } from '../security/bridge-wire';
import { speechWav, twoPhraseWav } from '../helpers/speech';
import { batchKey, uploadWav } from '../helpers/ui';

export const SPEECH = 'the weather is nice today and the sun is shining';

/**
 * A test file's session of two spoken phrases (espeak-ng), uploaded as `name` for transcription,
 * and a 1280×800 page whose errors go into `pageErrors`; with the service's token for the demo user.
 */
export async function spokenSessionAndPage(run: { app: RunningApp; browser: Browser }, name: string, pageErrors: string[], pageOptions: BrowserContextOptions = {}): Promise<{ jwt: string; sessionId: string; page: Page }> {
  const stem = name.replace(/\.wav$/, '');
  const jwt = await serviceLogin(run.app.serviceUrl, LOCAL_DEMO);
  const sessionId = await uploadWav(run.app.serviceUrl, await batchKey(run.app.serviceUrl, `e2e-${stem}`), name, readFileSync(await twoPhraseWav(stem)));
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 }, ...pageOptions });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  return { jwt, sessionId, page };
}

/** Uploads speech for transcription the way the batch API does; the service transcribes it with pocketsphinx. */
export async function seedSessions(serviceUrl: string, which: { audio: string }): Promise<void> {
  await uploadWav(serviceUrl, await batchKey(serviceUrl, 'look'), which.audio, readFileSync(await speechWav(SPEECH)));
}

/**
 * Puts a document into a new session in upload mode, as the batch API does: the document is
 * uploaded as a file, then a transcribe job reads it. Answers the session's id.
 */
export async function uploadDocument(serviceUrl: string, jwt: string, filename: string, body: DocumentBody): Promise<string> {
  const auth = { authorization: `Bearer ${jwt}` };
  const form = new FormData();
  form.append('file', new Blob([JSON.stringify(body)], { type: 'application/json' }), filename);
  const up = await fetch(`${serviceUrl}/api/v3/batch/upload`, { method: 'POST', headers: auth, body: form });
  expect(up.ok).toBe(true);
  const { file_id } = (await up.json()) as { file_id: string };
  const job = await fetch(`${serviceUrl}/api/v3/batch/transcribe`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ file_id, language: 'en', session_mode: 'upload' }) });
  expect(job.ok).toBe(true);
  return ((await job.json()) as { metadata: { session_id: string } }).metadata.session_id;
}

/**
 * A video of the spoken sentence (a test picture over the speech) dropped into a folder the app
 * watches: the session plays that local file, picture and all (the service keeps only the sound).
 * The app must be signed in.
 */
export async function seedWatchedVideo(app: RunningApp, folder: string, name: string): Promise<void> {
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=480x270:rate=15', '-i', await speechWav(SPEECH), '-shortest', '-c:v', 'libvpx', '-b:v', '300k', '-c:a', 'libopus', join(folder, name)]);
  const bridge = await bridgeClient(Number(new URL(app.url).port), await app.newSession());
  try {
    const added = await bridge.call('watch.addFolder', { path: folder, profile: { language: 'en', formats: [{ format: 'txt', options: {} }] } });
    expect(added.ok).toBe(true);
  } finally {
    bridge.ws.close();
  }
}

/** Polls `probe`, asking for a sync (the header's Sync now) before each try, for what only a sync brings. */
export function syncUntil<T>(page: Page, probe: () => Promise<T>, opts: { timeout?: number; interval?: number } = {}): PromisifyAssertion<T> {
  return expect.poll(
    async () => {
      await page.getByTitle('Sync now').click();
      return probe();
    },
    { timeout: opts.timeout ?? 30_000, interval: opts.interval ?? 1000 },
  );
}

/** Waits until a session's row shows it completed, asking for a sync meanwhile. */
export async function waitForCompleted(page: Page, name: string): Promise<void> {
  const row = page.locator('#sidebar').getByRole('button', { name: new RegExp(`${name.replace(/\./g, '\\.')}.*completed`, 'i') });
  await syncUntil(page, () => row.count(), { timeout: 180_000, interval: 1500 }).toBe(1);
}

/** Waits until a session is completed, then opens it from the sidebar. */
export async function openCompletedSession(page: Page, name: string): Promise<void> {
  await waitForCompleted(page, name);
  await openSession(page, name);
}

/** Opens a session from the sidebar (showing the sidebar first in a narrow window). */
export async function openSession(page: Page, name: string): Promise<void> {
  const toggle = page.locator('.sidebar-toggle');
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await page.locator('#sidebar').getByRole('button', { name: new RegExp(name.replace(/\./g, '\\.')) }).click();
  await expect.poll(() => page.getByRole('list', { name: 'Transcript' }).locator(':scope > li').count(), { timeout: 30_000 }).toBeGreaterThan(0);
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core in the page and answers its serious and critical violations. The script is
 * evaluated over the DevTools protocol, which the page's CSP (script-src 'self') does not govern,
 * so the production CSP stays as it is.
 */
export async function axeProblems(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line per violation and node, for a failure message a person can act on. */
export function describeProblems(where: string, problems: AxeViolation[]): string[] {
  return problems.flatMap((v) => v.nodes.map((n) => `${where}: ${v.impact} ${v.id} (${v.help}) at ${n.target.join(' ')}`));
}
