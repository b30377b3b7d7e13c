/**
 * An offline wait in the uploads view, in real Chromium: the app is signed in to a second local
 * service given by its address (as a cloud account is, test/renderer/account-switch.test.ts), so
 * the app's supervisor does not start it again when it stops. A recording queued while that
 * service is down shows "Waiting for the service (…)" with why; the service started again on the same port and
 * data, the same item uploads, transcribes and is done, with nothing clicked.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO, startService, stopAndRemove, type RunningService } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { appAndBrowserPerFile, submitSignIn } from '../helpers/ui';

const SHOTS = '/tmp/shots/imports-finish';
let cloud: RunningService;

const run = appAndBrowserPerFile();
beforeAll(async () => {
  cloud = await startService();
  mkdirSync(SHOTS, { recursive: true });
}, 90_000);

afterAll(async () => {
  await stopAndRemove(cloud);
});

it('shows an upload waiting while the service is down, and completes it once the service is back', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(await run.app.newUrl());
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.waitFor({ timeout: 30_000 });
  await form.getByRole('radio', { name: 'Another service…' }).click();
  await form.getByLabel('Service address').fill(`${cloud.url}/`);
  await form.getByRole('button', { name: 'Check and continue' }).click();
  await expect.poll(() => form.textContent(), { timeout: 30_000 }).toContain(`Sign in to ${cloud.url}`);
  await submitSignIn(page, DEMO);
  const newButton = page.getByRole('banner').getByRole('button', { name: 'New transcription' });
  await expect.poll(() => newButton.count(), { timeout: 30_000 }).toBe(1);

  // The dialog reads the languages while the service answers (main keeps them for offline use).
  await newButton.click();
  const dialog = page.getByRole('dialog', { name: 'New transcription' });
  await expect.poll(() => dialog.getByLabel('Language').locator('option', { hasText: 'English (United States)' }).count(), { timeout: 20_000 }).toBe(1);
  await dialog.getByLabel('Language').selectOption({ label: 'English (United States)' });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose files…' }).click()]);
  const wav = join(run.app.dataDir, 'while-offline.wav');
  copyFileSync(await speechWav('this recording waited for the service to come back'), wav);
  await chooser.setFiles(wav);

  // The service goes away (a graceful stop: nothing in the app starts it again).
  const port = Number(new URL(cloud.url).port);
  await cloud.stop();
  await dialog.getByRole('button', { name: 'Transcribe' }).click();
  // Queued offline: the dialog closes (a refusal would stay in it, in words, and show in the failure here).
  await expect.poll(async () => ((await dialog.count()) ? await dialog.textContent() : 'closed'), { timeout: 60_000 }).toBe('closed');

  const item = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem', { name: 'while-offline.wav' });
  const text = async () => (await item.allTextContents()).join(' ');
  await expect.poll(text, { timeout: 60_000, interval: 500 }).toMatch(/Waiting for the service \(the service is unreachable/);
  expect(await text()).not.toMatch(/Uploading/);
  expect(await text()).not.toMatch(/Done|Failed/);
  await page.screenshot({ path: join(SHOTS, 'uploads-waiting-1280x800.png') });
  await page.setViewportSize({ width: 800, height: 600 });
  await page.screenshot({ path: join(SHOTS, 'uploads-waiting-800x600.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back on the same port with the same data: the waiting item goes on by itself.
  cloud = await startService({ dataDir: cloud.dataDir, port });
  await expect.poll(text, { timeout: 240_000, interval: 500 }).toMatch(/Done|Failed/);
  expect(await text()).toContain('Done');
  expect(await text()).not.toMatch(/Waiting/);
  await page.screenshot({ path: join(SHOTS, 'uploads-done-after-offline-1280x800.png') });
  await page.close();
}, 360_000);
