/**
 * The pictures of the guide's Live and model manager pages (docs/guide/images/), made by
 * `npm run docs:screenshots` beside guide.screens.ts: the built browser-mode app on its embedded
 * service, in a Chromium whose microphone is a WAV of known speech (as test/renderer/live.test.ts
 * does), and the generated whisper.cpp model (test/helpers/whisper-model.ts: real format, random
 * weights) installed through "Use a model file I already have". Light and dark at 1280×800.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromiumWithMicrophone, startApp, type RunningApp } from '../helpers/app';
import { ROOT, cleanup, tempDir } from '../helpers/service';
import { LIVE_SPEECH, placedSpeech, speechWav } from '../helpers/speech';
import { signIn } from '../helpers/ui';
import { drawnWords } from '../helpers/words';
import { tinyWhisperModelFile } from '../helpers/whisper-model';

const IMAGES = join(ROOT, 'docs/guide/images');
let app: RunningApp;
let browser: Browser;
const scratch = tempDir('s2t-guide-models-');

beforeAll(async () => {
  const speech = await placedSpeech(LIVE_SPEECH);
  [app, browser] = await Promise.all([startApp(), launchChromiumWithMicrophone(speech.path)]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  cleanup(scratch);
});

async function shoot(page: Page, view: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(IMAGES, `${view}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

it('shoots the Live view and the model manager', async () => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })).newPage();
  await signIn(page, await app.newUrl());

  // Live: recording, with final words and the phrase being spoken.
  await page.getByRole('button', { name: 'Live', exact: true }).click();
  await expect.poll(() => page.locator('.live-view select').nth(1).inputValue(), { timeout: 30_000 }).not.toBe('');
  await page.locator('.live-view').getByRole('button', { name: 'Start' }).click();
  await expect.poll(() => page.locator('.live-final').count(), { timeout: 60_000 }).toBeGreaterThan(1);
  await shoot(page, 'live');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect.poll(() => drawnWords(page).then((w) => w.length), { timeout: 180_000 }).toBeGreaterThan(3);

  // The model manager with a model installed from a file, its speed measured here.
  await page.keyboard.press('Control+,');
  const prefs = page.getByRole('dialog', { name: 'Preferences' });
  await prefs.waitFor({ timeout: 10_000 });
  await prefs.getByLabel('Use a model file I already have').fill(tinyWhisperModelFile().path);
  await prefs.getByRole('button', { name: 'Install' }).click();
  await expect.poll(() => prefs.locator('.speech-model').filter({ hasText: /generated/ }).locator('.speech-model-state').textContent(), { timeout: 120_000 }).toMatch(/^Installed · about .* real time here$/);
  await prefs.locator('.speech-models').scrollIntoViewIfNeeded();
  await shoot(page, 'model-manager');
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);

  // New transcription with a model installed: the engine is a choice.
  await page.getByRole('banner').getByRole('button', { name: 'New transcription' }).click();
  const dialog = page.getByRole('dialog', { name: 'New transcription' });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose files…' }).click()]);
  const interview = join(scratch, 'interview.wav');
  copyFileSync(await speechWav('the weather is nice today and the sun is shining'), interview);
  await chooser.setFiles(interview);
  const language = dialog.getByLabel('Language');
  await expect.poll(() => language.locator('option', { hasText: 'English (United States)' }).count(), { timeout: 20_000 }).toBe(1);
  await language.selectOption({ label: 'English (United States)' });
  await expect.poll(() => dialog.getByLabel('Speech engine').count(), { timeout: 20_000 }).toBe(1);
  await dialog.getByLabel('Speech engine').scrollIntoViewIfNeeded();
  await shoot(page, 'engine-choice');
}, 360_000);
