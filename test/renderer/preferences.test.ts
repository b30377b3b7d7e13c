/**
 * Preferences in real Chromium against the app in browser mode: opened with Ctrl+, and from the
 * header, every change saved to settings.json as it is made (a refused value says why), the theme
 * applied at once, and everything still there after the app restarts on the same data.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../helpers/app';
import { cleanup, tempDir } from '../helpers/service';
import { appAndBrowserPerFile, signIn as signInAt } from '../helpers/ui';
import { axeProblems, describeProblems } from './look-fixture';

const SHOTS = '/tmp/shots/settings';
let page: Page;

const run = appAndBrowserPerFile();
const signIn = async () => signInAt(page, await run.app.newUrl());

const prefs = () => page.getByRole('dialog', { name: 'Preferences' });
const stored = () => JSON.parse(readFileSync(join(run.app.dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;

beforeAll(async () => {
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  mkdirSync(SHOTS, { recursive: true });
});

describe('Preferences', () => {
  it('opens with Ctrl+, and saves each change to settings as it is made', async () => {
    await signIn();
    await page.keyboard.press('Control+,');
    await prefs().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, 'preferences-1280x800-light.png') });
    expect(describeProblems('Preferences, light, 1280x800', await axeProblems(page))).toEqual([]);

    await prefs().getByRole('radio', { name: 'Dark' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await prefs().getByLabel('Caption profile').selectOption('bbc-like');
    await expect.poll(() => stored().captionProfile).toBe('bbc-like');
    const cache = prefs().getByLabel('Media cache size (GB)');
    await cache.fill('0.5');
    await cache.press('Enter');
    await expect.poll(() => stored().mediaCacheBytes).toBe(512 * 1024 ** 2);
    const folder = prefs().getByLabel('Export folder');
    await folder.fill('/home/me/Exports');
    await folder.press('Tab');
    await expect.poll(() => stored().exportFolder).toBe('/home/me/Exports');
    await prefs().getByLabel('Tell speakers apart').click();
    await expect.poll(() => (stored().transcription as { diarization: boolean }).diarization).toBe(true);
    // The language is chosen by name from the service's list (the New transcription dialog's select).
    const language = prefs().getByLabel('Language');
    await expect.poll(() => language.evaluate((el) => el.tagName), { timeout: 20_000 }).toBe('SELECT');
    await expect.poll(() => language.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent), { timeout: 20_000 }).toBe('English (United States)');
    expect(stored().theme).toBe('dark');
    await expect.poll(() => prefs().getByRole('status').textContent()).toBe('Saved.');
    await page.screenshot({ path: join(SHOTS, 'preferences-1280x800-dark.png') });
    expect(describeProblems('Preferences, dark, 1280x800', await axeProblems(page))).toEqual([]);
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: join(SHOTS, 'preferences-800x600-dark.png') });
    expect(describeProblems('Preferences, dark, 800x600', await axeProblems(page))).toEqual([]);
  });

  it('refuses a value the schema does not allow, says why, and keeps the saved one', async () => {
    const threshold = prefs().getByLabel(/Mark words recognised/);
    await threshold.fill('150');
    await threshold.press('Enter');
    await expect.poll(() => prefs().getByRole('alert').textContent()).toBe('Not saved. The low-confidence mark is a percentage from 0 to 100.');
    expect(stored().lowConfidenceThreshold).toBe(0.5);
    await page.getByRole('button', { name: 'Done' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'preferences-800x600-refused.png') });
    await threshold.fill('40');
    await threshold.press('Enter');
    await expect.poll(() => stored().lowConfidenceThreshold).toBe(0.4);
    await expect.poll(() => prefs().getByRole('alert').count()).toBe(0);
    await prefs().getByRole('radio', { name: 'Light' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.screenshot({ path: join(SHOTS, 'preferences-800x600-light.png') });
    expect(describeProblems('Preferences, light, 800x600', await axeProblems(page))).toEqual([]);
    await prefs().getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => prefs().count()).toBe(0);
  });

  it('opens from the header too, and keeps every value across a restart of the app', async () => {
    const dataDir = run.app.dataDir;
    await run.app.stop();
    run.app = await startApp({ dataDir });
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn();
    // The header keeps its less used actions behind "Menu".
    await page.getByRole('button', { name: /^Menu/ }).click();
    await page.getByRole('button', { name: 'Preferences' }).click();
    await prefs().waitFor({ timeout: 10_000 });
    expect(await prefs().getByLabel('Caption profile').inputValue()).toBe('bbc-like');
    expect(await prefs().getByLabel('Media cache size (GB)').inputValue()).toBe('0.5');
    expect(await prefs().getByLabel('Export folder').inputValue()).toBe('/home/me/Exports');
    expect(await prefs().getByLabel(/Mark words recognised/).inputValue()).toBe('40');
    expect(await prefs().getByLabel('Tell speakers apart').isChecked()).toBe(true);
    expect(await prefs().getByRole('radio', { name: 'Light' }).isChecked()).toBe(true);
    // Browser mode has no native folder dialog: Choose… opens the app's folder browser.
    const exportsDir = tempDir('s2t-prefs-exports-');
    mkdirSync(join(exportsDir, 'Clips'));
    await prefs().getByRole('button', { name: 'Choose…' }).click();
    const browser = page.getByRole('dialog', { name: 'Choose the export folder' });
    await browser.getByLabel('Folder', { exact: true }).fill(exportsDir);
    await browser.getByLabel('Folder', { exact: true }).press('Enter');
    await browser.getByRole('button', { name: 'Clips' }).click();
    await expect.poll(() => browser.getByLabel('Folder', { exact: true }).inputValue()).toBe(join(exportsDir, 'Clips'));
    await browser.getByRole('button', { name: 'Choose this folder' }).click();
    await expect.poll(() => prefs().getByLabel('Export folder').inputValue()).toBe(join(exportsDir, 'Clips'));
    cleanup(exportsDir);
  }, 120_000);
});
