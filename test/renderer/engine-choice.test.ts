/**
 * Choosing the speech engine per transcription, in real Chromium against the built app and its
 * embedded service: with only the built-in engine there is nothing to choose and no list; once a
 * model is installed (the generated whisper.cpp model, in the real file format) New transcription
 * and a watch folder's profile offer the engines that can run the language; a transcription started
 * with the non-default engine reaches the service with it, runs on it, and its session says which
 * engine ran. Screenshots go to /tmp/shots/ui-rest/.
 */
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { appAndBrowserPerFile, shootLooks, signIn } from '../helpers/ui';
import { tinyWhisperModelFile } from '../helpers/whisper-model';
import { bridgeClient } from '../security/bridge-wire';
import { waitForCompleted } from './look-fixture';

const SHOTS = '/tmp/shots/ui-rest';
const MODEL = 'whisper:generated-tiny-v2-7';
let page: Page;
let watched: string;
let scratch: string;
const run = appAndBrowserPerFile();
const dialog = () => page.getByRole('dialog', { name: 'New transcription' });

beforeAll(async () => {
  watched = tempDir('s2t-engine-watch-');
  scratch = tempDir('s2t-engine-audio-');
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
}, 90_000);
afterAll(() => {
  cleanup(watched);
  cleanup(scratch);
});

const shots = (name: string, scroll?: () => Promise<void>) => shootLooks(page, SHOTS, name, scroll);

/** Opens New transcription with `file` chosen and English (United States) as the language. */
async function newTranscription(file: string): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'New transcription' }).click();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog().getByRole('button', { name: 'Choose files…' }).click()]);
  await chooser.setFiles(file);
  const language = dialog().getByLabel('Language');
  await expect.poll(() => language.locator('option', { hasText: 'English (United States)' }).count(), { timeout: 20_000 }).toBe(1);
  await language.selectOption({ label: 'English (United States)' });
}

/** The parameters the service's job for the session was queued with (its own database). */
function jobParams(sessionName: string): { speechEngine?: string } {
  const db = new Database(join(run.app.dataDir, 'local-service', 'service.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT j.params FROM jobs j JOIN sessions s ON s.id = j.session_pk WHERE s.filename = ? ORDER BY j.created_at DESC LIMIT 1').get(sessionName) as { params: string } | undefined;
    return row ? (JSON.parse(row.params) as { speechEngine?: string }) : {};
  } finally {
    db.close();
  }
}

describe('the speech engine per transcription', () => {
  it('with only the built-in engine there is no engine list', async () => {
    await signIn(page, await run.app.newUrl());
    await newTranscription(await speechWav('the weather is nice today'));
    await expect.poll(() => dialog().getByText(/Runs on the built-in engine/).count(), { timeout: 20_000 }).toBe(1);
    expect(await dialog().getByLabel('Speech engine').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);
  });

  it('with a model installed, New transcription offers the engines; the one chosen reaches the service, runs, and the session names it', async () => {
    const bridge = await bridgeClient(Number(new URL(run.app.url).port), await run.app.newSession());
    try {
      expect((await bridge.call('speechModels.import', { path: tinyWhisperModelFile().path })).ok).toBe(true);
      await expect
        .poll(async () => ((await bridge.call('models.list', {})) as { value?: { models: { key: string; engines?: string[] }[] } }).value?.models.find((m) => m.key === 'en-US')?.engines, { timeout: 60_000, interval: 500 })
        .toEqual([MODEL, 'pocketsphinx']);
    } finally {
      bridge.ws.close();
    }
    const name = 'engine-choice.wav';
    const wav = join(scratch, name);
    copyFileSync(await speechWav('please call me back in the morning'), wav);
    await newTranscription(wav);
    const engine = dialog().getByLabel('Speech engine');
    await expect.poll(() => engine.locator('option').allTextContents(), { timeout: 20_000 }).toEqual([
      'Automatic: Whisper model generated-tiny-v2-7',
      'Whisper model generated-tiny-v2-7',
      'Built-in engine (pocketsphinx)',
    ]);
    await engine.selectOption({ label: 'Built-in engine (pocketsphinx)' });
    // The line under the language follows the choice, not the service's default.
    await expect.poll(() => dialog().locator('.language-select .small').first().textContent()).toContain('Runs on the built-in engine');
    await shots('engine-choice-new-transcription', () => engine.scrollIntoViewIfNeeded());
    await dialog().getByRole('button', { name: 'Transcribe' }).click();
    await expect.poll(() => dialog().count(), { timeout: 60_000 }).toBe(0);

    await waitForCompleted(page, name);
    expect(jobParams(name).speechEngine).toBe('pocketsphinx');
    await page.locator('#sidebar').getByRole('button', { name: new RegExp(name.replace('.', '\\.')) }).click();
    const field = page.locator('.session-fields div').filter({ hasText: /^Engine/ });
    await expect.poll(() => field.locator('dd').textContent(), { timeout: 60_000, interval: 500 }).toBe('Built-in engine (pocketsphinx)');
    await shots('engine-choice-session');
  }, 300_000);

  it('a watch folder\'s profile offers the engines too, and keeps the one chosen', async () => {
    const bridge = await bridgeClient(Number(new URL(run.app.url).port), await run.app.newSession());
    try {
      expect((await bridge.call('watch.addFolder', { path: watched, profile: { language: 'en-US', formats: [{ format: 'txt', options: {} }] } })).ok).toBe(true);
    } finally {
      bridge.ws.close();
    }
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('button', { name: 'Watch folders' }).click();
    const card = page.getByRole('region', { name: watched });
    await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1);
    await card.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: `Settings of ${watched}` });
    const engine = form.getByLabel('Speech engine');
    await expect.poll(() => engine.locator('option').count(), { timeout: 20_000 }).toBe(3);
    await engine.selectOption(MODEL);
    await shots('engine-choice-watch-profile', () => engine.scrollIntoViewIfNeeded());
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.count(), { timeout: 20_000 }).toBe(0);
    const check = await bridgeClient(Number(new URL(run.app.url).port), await run.app.newSession());
    try {
      const listed = (await check.call('watch.state', {})) as { ok: boolean; value?: { folders: { path: string; profile: { speechEngine: string | null } }[] } };
      expect(listed.value?.folders.find((f) => f.path === watched)?.profile.speechEngine).toBe(MODEL);
    } finally {
      check.ws.close();
    }
  }, 120_000);
});
