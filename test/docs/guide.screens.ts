/**
 * The user guide's pictures (docs/guide/images/), made by `npm run docs:screenshots` from the same
 * fixtures the UI tests use: the built browser-mode app on its embedded service, a session of real
 * speech transcribed by pocketsphinx, Debian's Chromium. Each view is shot light and dark at
 * 1280×800 as `<view>-light.png` and `<view>-dark.png`. Not part of `npm test`: the pictures are
 * committed, and test/docs/links.test.ts checks that every one a page links exists.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, cleanup, tempDir } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { appAndBrowserPerFile, signIn } from '../helpers/ui';
import { openSession, waitForCompleted } from '../renderer/look-fixture';

export const GUIDE_IMAGES = join(ROOT, 'docs/guide/images');
const AUDIO = 'weather-report.wav';

let watched: string;
let scratch: string;
const run = appAndBrowserPerFile();
beforeAll(() => {
  watched = tempDir('s2t-guide-watch-');
  scratch = tempDir('s2t-guide-audio-');
  mkdirSync(GUIDE_IMAGES, { recursive: true });
});
afterAll(() => {
  cleanup(watched);
  cleanup(scratch);
});

/** The page as it is now, light and dark. */
async function shoot(page: Page, view: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(GUIDE_IMAGES, `${view}-${scheme}.png`) });
  }
}

/** A top bar action behind "Menu". */
async function topBarAction(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('button', { name }).click();
}

async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
}

it('shoots every view the guide shows', async () => {
  // Two sentences a second apart: two segments, two cues, and a waveform with a pause in it.
  const [first, second] = [await speechWav('the weather is nice today and the sun is shining'), await speechWav('please call me back in the morning')];
  const padded = join(scratch, 'first-padded.wav');
  const audio = join(scratch, AUDIO);
  execFileSync('sox', [first, padded, 'pad', '0', '1']);
  execFileSync('sox', [padded, second, audio]);
  const page = await (await run.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })).newPage();
  await signIn(page, await run.app.newUrl());

  // A new transcription as a person starts one: the dialog, a chosen file, the language by name.
  await page.getByRole('button', { name: 'New transcription' }).click();
  const dialog = page.getByRole('dialog', { name: 'New transcription' });
  await expect.poll(() => dialog.count()).toBe(1);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose files…' }).click()]);
  await chooser.setFiles(audio);
  const language = dialog.getByLabel('Language');
  await expect.poll(() => language.locator('option', { hasText: 'English (United States)' }).count(), { timeout: 20_000 }).toBe(1);
  await language.selectOption({ label: 'English (United States)' });
  await shoot(page, 'new-transcription');
  await dialog.getByRole('button', { name: 'Transcribe' }).click();
  await expect.poll(() => dialog.count(), { timeout: 60_000 }).toBe(0);

  const uploads = page.getByRole('region', { name: 'Uploads' });
  await expect.poll(() => uploads.count()).toBe(1);
  await expect.poll(() => uploads.getByText('Done').count(), { timeout: 180_000, interval: 1000 }).toBeGreaterThan(0);
  await shoot(page, 'uploads');
  await page.getByRole('button', { name: 'Uploads' }).click();
  await waitForCompleted(page, AUDIO);

  await openSession(page, AUDIO);
  // The player shows the media's length once it has read it; a picture of 0:00 / 0:00 would puzzle.
  await expect.poll(() => page.locator('audio').evaluate((a: HTMLAudioElement) => a.duration > 0), { timeout: 20_000 }).toBe(true);
  await shoot(page, 'transcript');

  await page.keyboard.press('Control+f');
  await page.getByRole('search', { name: 'Find and replace' }).getByLabel('Find', { exact: true }).fill('the');
  await shoot(page, 'find');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Format options' }).click();
  await shoot(page, 'export');
  await page.getByRole('button', { name: 'Format options' }).click();

  await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Share…', exact: true }).click();
  await expect.poll(() => page.getByRole('dialog', { name: 'Share' }).count()).toBe(1);
  await shoot(page, 'share');
  await closeDialog(page);

  await page.getByRole('tab', { name: /Captions/ }).click();
  await expect.poll(() => page.locator('.cue').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect.poll(() => page.getByText('Reading the waveform…').count(), { timeout: 20_000 }).toBe(0);
  await shoot(page, 'captions');
  await page.getByRole('tab', { name: /Transcript/ }).click();

  await page.getByRole('searchbox', { name: 'Search all transcripts' }).fill('sun');
  await expect.poll(() => page.getByRole('region', { name: 'Search results' }).locator('.hit').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  await shoot(page, 'search');
  await page.getByRole('searchbox', { name: 'Search all transcripts' }).fill('');
  await page.keyboard.press('Escape');

  await topBarAction(page, 'Watch folders');
  const form = page.getByRole('form', { name: 'Add a watched folder' });
  await expect.poll(() => form.count(), { timeout: 20_000 }).toBe(1);
  await form.getByLabel('Folder path').fill(watched);
  await form.getByRole('button', { name: 'Add folder' }).click();
  await expect.poll(() => page.getByRole('region', { name: watched }).count(), { timeout: 20_000 }).toBe(1);
  await shoot(page, 'watch-folders');
  await topBarAction(page, 'Watch folders');

  await page.keyboard.press('Control+,');
  await expect.poll(() => page.getByRole('dialog', { name: 'Preferences' }).count()).toBe(1);
  await shoot(page, 'preferences');
  await closeDialog(page);

  await topBarAction(page, 'demo@s2t.local');
  await expect.poll(() => page.getByRole('heading', { name: 'Account' }).count(), { timeout: 20_000 }).toBe(1);
  await shoot(page, 'account');
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  await expect.poll(() => page.locator('img[alt*="QR" i], canvas').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  await shoot(page, 'two-factor');
}, 360_000);
