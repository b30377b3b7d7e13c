/**
 * Downloads in the model manager, in real Chromium: the app (cloud mode) on a service whose model
 * catalogue points at a local server (no weights can be downloaded here). Each state a person sees
 * follows the service: downloading with progress, paused (and resumed to installed), and a file
 * with the wrong checksum refused. Screenshots light and dark, 1280x800 and 800x600.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/app';
import { DEMO, startService, stopAndRemove, tempDir, type RunningService } from '../helpers/service';
import { startCloudApp, submitSignIn, type CloudApp } from '../helpers/ui';
import { tinyWhisperModelFile } from '../helpers/whisper-model';
import { startModelServer, type ModelServer } from '../service/speech-models/model-server';
import { axeProblems, describeProblems } from './look-fixture';

const SHOTS = '/tmp/shots/model-engine';
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');
let files: ModelServer;
let svc: RunningService;
let app: CloudApp;
let browser: Browser;
let page: Page;
let dir: string;

const prefs = () => page.getByRole('dialog', { name: 'Preferences' });
const row = (label: string) => prefs().locator('.speech-model').filter({ hasText: label });
const state = (label: string) => row(label).locator('.speech-model-state').textContent();

async function shots(name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const [w, h] of [[1280, 800], [800, 600]] as const) {
      await page.setViewportSize({ width: w, height: h });
      await prefs().locator('.speech-models').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `${name}-${w}x${h}-${theme}.png`) });
    }
  }
  expect(describeProblems(`model manager, ${name}`, await axeProblems(page))).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dir = tempDir('s2t-model-ui-');
  const good = readFileSync(tinyWhisperModelFile().path);
  const bad = randomBytes(400_000);
  files = await startModelServer({ 'good.bin': good, 'bad.bin': bad });
  const catalog = [
    { name: 'good', label: 'Test model (good)', url: files.url('good.bin'), sha1: sha1(good), bytes: good.length, languages: 'multilingual' },
    { name: 'bad', label: 'Test model (bad checksum)', url: files.url('bad.bin'), sha1: sha1(good), bytes: bad.length, languages: ['en'] },
  ];
  svc = await startService({ dataDir: join(dir, 'svc'), entry: 'test/service/speech-models/fixtures/serve-with-model-catalog.ts', env: { S2T_TEST_MODEL_CATALOG: JSON.stringify(catalog) } });
  [app, browser] = await Promise.all([startCloudApp(svc.url), launchChromium()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(await app.newUrl());
  await submitSignIn(page, DEMO);
  await page.locator('.shell').waitFor({ timeout: 30_000 });
  await page.keyboard.press('Control+,');
  await prefs().waitFor({ timeout: 10_000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await files?.close();
  await stopAndRemove(svc, dir);
});

describe('model downloads in the model manager', () => {
  it('shows a download in progress, pauses it, and resumes it to installed', async () => {
    files.setRate(8 * 1024);
    await row('Test model (good)').getByRole('button', { name: /^Download \(3\.9 MB\)$/ }).click();
    await expect.poll(() => state('Test model (good)'), { timeout: 20_000 }).toMatch(/^Downloading… [1-9]\d?% of 3\.9 MB$/);
    expect(await row('Test model (good)').locator('progress').count()).toBe(1);
    await shots('downloading');

    await row('Test model (good)').getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => state('Test model (good)')).toMatch(/^Paused at \d+% \(.* of 3\.9 MB\)$/);
    await shots('paused');

    files.setRate(0);
    await row('Test model (good)').getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => state('Test model (good)'), { timeout: 60_000 }).toMatch(/^Installed/);
  });

  it('refuses a download whose checksum is wrong, and says so', async () => {
    await row('Test model (bad checksum)').getByRole('button', { name: /^Download/ }).click();
    await expect.poll(() => state('Test model (bad checksum)'), { timeout: 30_000 }).toMatch(/^Download failed: The downloaded file does not match the published checksum/);
    expect(await row('Test model (bad checksum)').getByRole('button').allTextContents()).toEqual(['Try again']);
    await shots('wrong-checksum');
  });
});
