/**
 * The model manager in Preferences, in real Chromium against the built app and its embedded
 * service: on first run it says what the built-in engine can do and offers the downloads with
 * their sizes; a partial download left by an earlier run shows as paused with its share; a model
 * file the person already has (the generated one) installs through the form and becomes the
 * engine transcriptions run on, with its speed measured here. Screenshots of each state, light and
 * dark, 1280x800 and 800x600, under /tmp/shots/model-engine/.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appAndBrowserPerFile, shootLooks, signIn } from '../helpers/ui';
import { tinyWhisperModelFile } from '../helpers/whisper-model';
import { axeProblems, describeProblems } from './look-fixture';

const SHOTS = '/tmp/shots/model-engine';
let page: Page;
const run = appAndBrowserPerFile();
const prefs = () => page.getByRole('dialog', { name: 'Preferences' });
const row = (label: RegExp) => prefs().locator('.speech-model').filter({ hasText: label });

/** The model manager's looks, then axe on it, dark at 800x600. */
async function shots(name: string): Promise<void> {
  const models = prefs().locator('.speech-models');
  await shootLooks(page, SHOTS, name, () => models.scrollIntoViewIfNeeded());
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 800, height: 600 });
  await models.scrollIntoViewIfNeeded();
  expect(describeProblems(`model manager, ${name}`, await axeProblems(page))).toEqual([]);
}

async function openPreferences(): Promise<void> {
  await page.keyboard.press('Control+,');
  await prefs().waitFor({ timeout: 10_000 });
}

beforeAll(async () => {
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
});

describe('the model manager', () => {
  it('on first run says what the built-in engine does, offers downloads with sizes, and shows a paused one', async () => {
    // A partial download an earlier run left behind (NAME.part in the service's model store).
    writeFileSync(join(run.app.dataDir, 'local-service', 'models', 'small.part'), Buffer.alloc(200 * 1024 ** 2));
    await signIn(page, await run.app.newUrl());
    await openPreferences();
    await expect.poll(() => prefs().locator('.speech-models').textContent(), { timeout: 20_000 }).toContain('Transcriptions run on the built-in engine (pocketsphinx): English only, no punctuation.');
    await expect.poll(() => row(/Whisper base\b/).getByRole('button').first().textContent()).toBe('Download (142 MB)');
    expect(await row(/Whisper small \(good/).locator('.speech-model-state').textContent()).toBe('Paused at 42% (200 MB of 466 MB)');
    expect(await row(/Whisper small \(good/).getByRole('button').allTextContents()).toEqual(['Resume', 'Cancel']);
    // The language field says which engine a transcription will run on.
    await expect.poll(() => prefs().locator('.language-select .small').textContent(), { timeout: 20_000 }).toContain('Runs on the built-in engine (pocketsphinx: no punctuation)');
    await shots('first-run-paused');
  });

  it('installs a model file the person has; transcriptions then run on it', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await prefs().getByLabel('Use a model file I already have').fill(tinyWhisperModelFile().path);
    await prefs().getByRole('button', { name: 'Install' }).click();
    const installed = row(/Whisper model from ggml-generated/);
    await expect.poll(() => installed.locator('.speech-model-state').textContent(), { timeout: 60_000 }).toMatch(/^Installed · about .* than real time here$/);
    await expect.poll(() => prefs().locator('.speech-models > p.hint').first().textContent()).toMatch(/^Transcriptions run on Whisper generated-tiny-v2-7; the built-in engine stays available\./);
    await shots('installed');

    // Cancel removes the partial download, and the row says so.
    await row(/Whisper small \(good/).getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => row(/Whisper small \(good/).locator('.speech-model-state').textContent()).toBe('Not installed');

    // New transcription now says the model will run.
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'New transcription' }).click();
    const dialog = page.getByRole('dialog', { name: 'New transcription' });
    await expect.poll(() => dialog.locator('.language-select .small').textContent(), { timeout: 20_000 }).toContain('Runs on the Whisper model generated-tiny-v2-7, with punctuation.');
    await shootLooks(page, SHOTS, 'new-transcription');
  });
});
