/**
 * axe-core on every view of the app, in real Chromium, light and dark, at 1280x800 and 800x600:
 * no serious or critical violation anywhere. The views are the real ones: the sign-in form, the
 * empty session list, the list with a session of real speech transcribed by the local service, its
 * transcript and captions, the find bar, the document's dialogs, watch folders, the new-transcription
 * dialog, uploads, preferences, the account page, the top bar's menu, the narrow window's sidebar,
 * and the shortcut sheet.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, cleanup } from '../helpers/service';
import { appAndBrowserPerFile, signIn } from '../helpers/ui';
import { axeProblems, describeProblems, openSession, seedSessions, waitForCompleted } from './look-fixture';

const AUDIO = 'a11y-audio.wav';
const SHOTS = '/tmp/shots/look';
const SIZES = [
  [1280, 800],
  [800, 600],
] as const;
const SCHEMES = ['light', 'dark'] as const;

let watched: string;

const run = appAndBrowserPerFile();
beforeAll(async () => {
  watched = tempDir('s2t-a11y-watch-');
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  cleanup(watched);
});

/** Runs axe on the page as it is now, in both schemes, and adds what it finds to `found`; a picture of each for a person to look at. */
async function check(page: Page, view: string, found: string[]): Promise<void> {
  const size = page.viewportSize()!;
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...describeProblems(`${view} (${scheme}, ${size.width}x${size.height})`, await axeProblems(page)));
    await page.screenshot({ path: join(SHOTS, `${view.replace(/\W+/g, '-')}-${scheme}-${size.width}.png`) });
  }
}

const isNarrow = (page: Page) => page.viewportSize()!.width < 1100;

/** The top bar's less used actions sit behind "Menu". */
async function topBarAction(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('button', { name }).click();
}

/** The document's actions: buttons in a roomy window, items of one "Document" menu in a small one (800x600). */
async function documentAction(page: Page, name: string): Promise<void> {
  const actions = page.getByRole('group', { name: 'Document actions' });
  const button = actions.getByRole('button', { name, exact: true });
  if ((await button.count()) > 0) return button.click();
  await actions.getByRole('button', { name: 'Document' }).click();
  await page.getByRole('menuitem', { name }).click();
}

async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
}

describe('accessibility (axe-core)', () => {
  it('the sign-in form and the empty session list', async () => {
    const found: string[] = [];
    const page = await (await run.browser.newContext()).newPage();
    await page.goto(await run.app.newUrl());
    await expect.poll(() => page.getByLabel('E-mail').count(), { timeout: 30_000 }).toBe(1);
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await check(page, 'sign-in', found);
    }
    await signIn(page, await run.app.newUrl());
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await expect.poll(() => page.getByText('0 sessions').count(), { timeout: 20_000 }).toBe(1);
      await check(page, 'empty session list', found);
      await page.keyboard.press('F1');
      await expect.poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(1);
      await check(page, 'shortcut sheet', found);
      await closeDialog(page);
    }
    expect(found).toEqual([]);
  }, 240_000);

  it('a session with its transcript, captions, find bar and dialogs; watch folders, new transcription, uploads, preferences, account; the top bar menu; the narrow sidebar', async () => {
    await seedSessions(run.app.serviceUrl, { audio: AUDIO });
    const found: string[] = [];
    // Reduced motion: a row's actions fade in under the pointer, and axe must not measure them halfway.
    const page = await (await run.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })).newPage();
    await signIn(page, await run.app.newUrl());
    await waitForCompleted(page, AUDIO);
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      if (isNarrow(page)) {
        await page.getByRole('button', { name: 'Show sessions' }).click();
        await check(page, 'session list (sidebar over the content)', found);
      } else await check(page, 'session list', found);

      await openSession(page, AUDIO);
      await check(page, 'transcript', found);
      await page.keyboard.press('Control+f');
      await page.getByRole('search', { name: 'Find and replace' }).getByLabel('Find', { exact: true }).fill('the');
      await check(page, 'transcript with the find bar', found);
      await page.keyboard.press('Escape');

      await page.getByRole('tab', { name: /Captions/ }).click();
      await expect.poll(() => page.locator('.cue').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await check(page, 'captions', found);

      await documentAction(page, 'Share…');
      await expect.poll(() => page.getByRole('dialog', { name: 'Share' }).count()).toBe(1);
      await check(page, 'share dialog', found);
      await closeDialog(page);

      await documentAction(page, 'Delete…');
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(1);
      await check(page, 'confirm dialog', found);
      await closeDialog(page);
      await page.getByRole('tab', { name: /Transcript/ }).click();

      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await check(page, 'top bar menu', found);
      await page.getByRole('button', { name: 'Menu', exact: true }).click();

      await topBarAction(page, 'Watch folders');
      await expect.poll(() => page.getByRole('form', { name: 'Add a watched folder' }).count(), { timeout: 20_000 }).toBe(1);
      await check(page, 'watch folders', found);
      if (width === SIZES[0][0]) {
        const form = page.getByRole('form', { name: 'Add a watched folder' });
        await form.getByLabel('Folder path').fill(watched);
        await form.getByRole('button', { name: 'Add folder' }).click();
        await expect.poll(() => page.getByRole('region', { name: watched }).count(), { timeout: 20_000 }).toBe(1);
      }
      await check(page, 'watch folders with a folder', found);
      await topBarAction(page, 'Watch folders');

      await page.getByRole('button', { name: 'New transcription' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'New transcription' }).count()).toBe(1);
      await check(page, 'new transcription dialog', found);
      await closeDialog(page);

      await page.getByRole('button', { name: 'Uploads' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Uploads' }).count(), { timeout: 20_000 }).toBe(1);
      await check(page, 'uploads', found);
      await page.getByRole('button', { name: 'Uploads' }).click();

      await page.keyboard.press('Control+,');
      await expect.poll(() => page.getByRole('dialog', { name: 'Preferences' }).count()).toBe(1);
      await check(page, 'preferences dialog', found);
      await closeDialog(page);

      await topBarAction(page, 'demo@s2t.local');
      await expect.poll(() => page.getByRole('heading', { name: 'Account' }).count(), { timeout: 20_000 }).toBe(1);
      await check(page, 'account page', found);
      await topBarAction(page, 'demo@s2t.local');
    }
    expect(found).toEqual([]);
  }, 360_000);
});
