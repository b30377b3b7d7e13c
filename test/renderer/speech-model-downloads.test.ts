/**
 * Downloads in the model manager, in real Chromium: the app (cloud mode) on a service whose model
 * catalogue points at a local server (no weights can be downloaded here). Each state a person sees
 * follows the service: downloading with progress, paused (and resumed to installed), carried on
 * where it stopped after the app and its service were killed, and a file with the wrong checksum
 * refused. Screenshots light and dark, 1280x800 and 800x600.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/app';
import { DEMO, startService, stopAndRemove, tempDir, type RunningService } from '../helpers/service';
import { shootLooks, startCloudApp, submitSignIn, type CloudApp } from '../helpers/ui';
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
let serviceEnv: NodeJS.ProcessEnv;

const prefs = () => page.getByRole('dialog', { name: 'Preferences' });
const row = (label: string) => prefs().locator('.speech-model').filter({ hasText: label });
const state = (label: string) => row(label).locator('.speech-model-state').textContent();

async function shots(name: string): Promise<void> {
  await shootLooks(page, SHOTS, name, () => prefs().locator('.speech-models').scrollIntoViewIfNeeded());
  expect(describeProblems(`model manager, ${name}`, await axeProblems(page))).toEqual([]);
}

beforeAll(async () => {
  dir = tempDir('s2t-model-ui-');
  const good = readFileSync(tinyWhisperModelFile().path);
  const bad = randomBytes(400_000);
  files = await startModelServer({ 'good.bin': good, 'bad.bin': bad });
  const catalog = [
    { name: 'good', label: 'Test model (good)', url: files.url('good.bin'), sha1: sha1(good), bytes: good.length, languages: 'multilingual' },
    { name: 'again', label: 'Test model (again)', url: files.url('good.bin'), sha1: sha1(good), bytes: good.length, languages: 'multilingual' },
    { name: 'bad', label: 'Test model (bad checksum)', url: files.url('bad.bin'), sha1: sha1(good), bytes: bad.length, languages: ['en'] },
  ];
  serviceEnv = { S2T_TEST_MODEL_CATALOG: JSON.stringify(catalog) };
  [svc, browser] = await Promise.all([startModelService(), launchChromium()]);
  app = await startCloudApp(svc.url);
  await openModelManager();
}, 120_000);

const startModelService = () => startService({ dataDir: join(dir, 'svc'), entry: 'test/service/speech-models/fixtures/serve-with-model-catalog.ts', env: serviceEnv });

/** A fresh page on the app, signed in when it asks, with Preferences open at the model manager. */
async function openModelManager(): Promise<void> {
  await page?.close();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(await app.newUrl());
  await page.locator('.shell').or(page.getByRole('form', { name: 'Sign in' })).first().waitFor({ timeout: 30_000 });
  if ((await page.locator('.shell').count()) === 0) await submitSignIn(page, DEMO);
  await page.locator('.shell').waitFor({ timeout: 30_000 });
  await page.keyboard.press('Control+,');
  await prefs().waitFor({ timeout: 10_000 });
}

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

  it('carries on where it stopped after the app and its service are killed mid-download', async () => {
    files.setRate(8 * 1024);
    await row('Test model (again)').getByRole('button', { name: /^Download \(3\.9 MB\)$/ }).click();
    await expect.poll(() => state('Test model (again)'), { timeout: 20_000 }).toMatch(/^Downloading… [1-9]\d?% of 3\.9 MB$/);
    // The app dies, and the service it runs dies with it (as the embedded one does, through its parent channel).
    app.child.kill('SIGKILL');
    await svc.kill();
    const kept = statSync(join(dir, 'svc', 'models', 'again.part')).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(readFileSync(tinyWhisperModelFile().path).length);

    files.setRate(0);
    svc = await startModelService();
    app = await startCloudApp(svc.url, app.dataDir);
    await openModelManager();
    await expect.poll(() => state('Test model (again)'), { timeout: 60_000 }).toMatch(/^Installed/);
    expect(files.ranges).toContain(`bytes=${kept}-`);
  });

  it('refuses a download whose checksum is wrong, and says so', async () => {
    await row('Test model (bad checksum)').getByRole('button', { name: /^Download/ }).click();
    await expect.poll(() => state('Test model (bad checksum)'), { timeout: 30_000 }).toMatch(/^Download failed: The downloaded file does not match the published checksum/);
    expect(await row('Test model (bad checksum)').getByRole('button').allTextContents()).toEqual(['Try again']);
    await shots('wrong-checksum');
  });
});
