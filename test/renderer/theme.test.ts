/**
 * Themes in real Chromium on the browser-mode app: "system" follows the system's colour scheme
 * live; an explicit choice overrides it, is kept in settings (settings.json in the data folder) so
 * it survives a reload and a fresh browser profile, and is applied before the app's script runs
 * (no flash of the other theme). The system-dark values are the explicit-dark values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appAndBrowserPerFile, signIn } from '../helpers/ui';

const run = appAndBrowserPerFile();

const LIGHT_BG = 'rgb(246, 247, 249)';
const DARK_BG = 'rgb(20, 24, 31)';
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
/** Every colour variable as the page resolves it now. */
const palette = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.documentElement);
    const names = Array.from(document.styleSheets).flatMap((s) => Array.from(s.cssRules)).flatMap((r) => (r instanceof CSSStyleRule && r.selectorText.startsWith(':root') ? Array.from(r.style).filter((p) => p.startsWith('--')) : []));
    return Object.fromEntries([...new Set(names)].sort().map((n) => [n, style.getPropertyValue(n).trim()]));
  });
const LABELS = { system: 'Same as the system', light: 'Light', dark: 'Dark' } as const;
type Choice = keyof typeof LABELS;

/** Preferences (Ctrl+,) holds the Appearance choice; each helper opens it and closes it again. */
async function inPreferences<T>(page: Page, act: (dialog: Locator) => Promise<T>): Promise<T> {
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: 'Preferences' });
  await expect.poll(() => dialog.getByRole('radiogroup', { name: 'Theme' }).count(), { timeout: 10_000 }).toBe(1);
  const result = await act(dialog);
  await page.keyboard.press('Escape');
  await expect.poll(() => dialog.count()).toBe(0);
  return result;
}
const chooseTheme = (page: Page, choice: Choice) =>
  inPreferences(page, async (d) => {
    // The radio shows the stored choice, so it turns checked once settings.set has answered.
    const radio = d.getByRole('radio', { name: LABELS[choice] });
    await radio.click();
    await expect.poll(() => radio.isChecked(), { timeout: 10_000 }).toBe(true);
  });
const chosenTheme = (page: Page) => inPreferences(page, (d) => d.locator('input[name=theme]:checked').inputValue());

describe('themes', () => {
  it('follows the system scheme live while the choice is "system"', async () => {
    const context = await run.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await signIn(page, await run.app.newUrl());
    expect(await chosenTheme(page)).toBe('system');
    expect(await background(page)).toBe(DARK_BG);
    const systemDark = await palette(page);

    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => background(page)).toBe(LIGHT_BG);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => background(page)).toBe(DARK_BG);

    // The explicit dark theme and the system's dark resolve to the same colours.
    await page.emulateMedia({ colorScheme: 'light' });
    await chooseTheme(page, 'dark');
    await expect.poll(() => background(page)).toBe(DARK_BG);
    expect(await palette(page)).toEqual(systemDark);
    await chooseTheme(page, 'system');
    await expect.poll(() => background(page)).toBe(LIGHT_BG);
    await context.close();
  }, 120_000);

  it('an explicit choice overrides the system, is stored in settings, and survives a reload and a new profile', async () => {
    const context = await run.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await signIn(page, await run.app.newUrl());
    expect(await background(page)).toBe(DARK_BG);
    await chooseTheme(page, 'light');
    await expect.poll(() => background(page)).toBe(LIGHT_BG);
    await expect.poll(() => JSON.parse(readFileSync(join(run.app.dataDir, 'settings.json'), 'utf8')).theme, { timeout: 10_000 }).toBe('light');

    await page.reload();
    await expect.poll(() => page.locator('.shell').count(), { timeout: 30_000 }).toBe(1);
    expect(await background(page)).toBe(LIGHT_BG);
    expect(await chosenTheme(page)).toBe('light');

    // A fresh profile has no local copy: the choice comes from settings once the app is up.
    const other = await run.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const second = await other.newPage();
    await signIn(second, await run.app.newUrl());
    await expect.poll(() => background(second)).toBe(LIGHT_BG);
    expect(await chosenTheme(second)).toBe('light');
    await other.close();

    // Back to following the system, so the other tests see the default.
    await chooseTheme(page, 'system');
    await expect.poll(() => JSON.parse(readFileSync(join(run.app.dataDir, 'settings.json'), 'utf8')).theme, { timeout: 10_000 }).toBe('system');
    await context.close();
  }, 120_000);

  it('applies a chosen theme before the app script runs (no flash of the system theme)', async () => {
    const context = await run.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    const page = await context.newPage();
    await signIn(page, await run.app.newUrl());
    await chooseTheme(page, 'dark');
    await expect.poll(() => background(page)).toBe(DARK_BG);

    // With the app's bundle held back, only the blocking boot script can have set the theme.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    expect(await page.locator('#root').innerHTML()).toBe('');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await background(page)).toBe(DARK_BG);
    await page.unroute('**/assets/*.js');
    await page.reload();
    await expect.poll(() => page.locator('.shell').count(), { timeout: 30_000 }).toBe(1);
    await chooseTheme(page, 'system');
    await expect.poll(() => background(page)).toBe(LIGHT_BG);
    await context.close();
  }, 120_000);
});
