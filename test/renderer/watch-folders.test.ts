/**
 * The watch-folders panel in real Chromium, on the browser-mode app and its embedded service: add
 * a folder by path, drop an espeak-ng WAV into it and see it delivered; a folder in a language the
 * local engine lacks shows the failure in words with a retry; pause and resume a folder.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, LOCAL_DEMO, startApp, type RunningApp } from '../helpers/app';
import { cleanup, ROOT, tempDir } from '../helpers/service';
import { speechWav } from '../helpers/speech';

let app: RunningApp;
let browser: Browser;
const dirs: string[] = [];

beforeAll(async () => {
  app = await startApp();
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  dirs.forEach(cleanup);
});

async function addFolder(page: Page, path: string, language: string, formats: string[]): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a watched folder' });
  await form.getByLabel('Folder path').fill(path);
  await form.getByLabel('Language').fill(language);
  for (const box of await form.getByRole('checkbox').all()) await box.setChecked(formats.includes((await box.evaluate((el) => el.parentElement!.textContent!.trim())).toLowerCase()));
  await form.getByRole('button', { name: 'Add folder' }).click();
  await expect.poll(() => page.getByRole('region', { name: path }).count(), { timeout: 10_000 }).toBe(1);
}

it('adds a folder, delivers a dropped WAV, shows a failure with its reason and a retry, pauses and resumes', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(app.url);
  await page.getByLabel('E-mail').fill(LOCAL_DEMO.email);
  await page.getByLabel('Password').fill(LOCAL_DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Watch folders' }).click();
  await expect.poll(() => page.getByText('No watched folders yet.').count(), { timeout: 20_000 }).toBe(1);

  const inbox = tempDir('s2t-e2e-inbox-');
  const german = tempDir('s2t-e2e-german-');
  dirs.push(inbox, german);
  await addFolder(page, inbox, 'en', ['srt', 'txt']);
  await addFolder(page, german, 'de', ['txt']);

  copyFileSync(await speechWav('good morning everyone and welcome to the meeting'), join(inbox, 'standup.wav'));
  copyFileSync(await speechWav('this recording is in the wrong language'), join(german, 'interview.wav'));

  const inboxItems = page.getByRole('list', { name: `Items in ${inbox}` });
  await expect.poll(() => inboxItems.getByText('Delivered', { exact: true }).count(), { timeout: 120_000, interval: 500 }).toBe(1);
  await expect.poll(() => inboxItems.textContent()).toContain('standup.srt, standup.txt');
  expect(existsSync(join(inbox, 'standup.srt'))).toBe(true);
  expect(readFileSync(join(inbox, 'standup.txt'), 'utf8').toLowerCase()).toMatch(/welcome|everyone|meeting/);

  const germanItems = page.getByRole('list', { name: `Items in ${german}` });
  await expect.poll(() => germanItems.getByText('Failed', { exact: true }).count(), { timeout: 120_000, interval: 500 }).toBe(1);
  expect(await germanItems.textContent()).toMatch(/no model for language "de"/);
  await expect.poll(() => germanItems.getByRole('button', { name: 'Retry' }).count()).toBe(1);

  const germanCard = page.getByRole('region', { name: german });
  await germanCard.getByRole('button', { name: 'Pause' }).click();
  await expect.poll(() => germanCard.getByText('Paused', { exact: true }).count()).toBe(1);
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  await page.screenshot({ path: join(ROOT, 'test-results/e2e-watch-folders.png'), fullPage: true });

  await germanCard.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(() => germanCard.getByText('Watching', { exact: true }).count()).toBe(1);
  // A retry sends it through again (and the service refuses it again, for the same reason).
  await germanItems.getByRole('button', { name: 'Retry' }).click();
  await expect.poll(() => germanItems.getByRole('button', { name: 'Retry' }).count(), { timeout: 2_000, interval: 50 }).toBe(0);
  await expect.poll(() => germanItems.getByText('Failed', { exact: true }).count(), { timeout: 60_000, interval: 500 }).toBe(1);
}, 240_000);
