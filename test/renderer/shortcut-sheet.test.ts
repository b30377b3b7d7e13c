/**
 * The keyboard-shortcut sheet in real Chromium: ? opens it (but types a "?" in a field), F1 opens it
 * anywhere, Escape closes it, and it lists every entry of renderer/src/ui/shortcuts.ts, the one
 * list the key handlers read.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { SHORTCUTS, type Shortcut } from '../../renderer/src/ui/shortcuts';
import { appAndBrowserPerFile, signIn } from '../helpers/ui';


const run = appAndBrowserPerFile();

const sheet = (page: Page) => page.getByRole('dialog', { name: 'Keyboard shortcuts' });

it('opens with ? and F1, not while typing a ?, closes with Escape, and lists every shortcut from the one module', async () => {
  const page = await (await run.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(page, await run.app.newUrl());
  await page.locator('body').click({ position: { x: 700, y: 400 } });

  await page.keyboard.press('?');
  await expect.poll(() => sheet(page).count()).toBe(1);
  // Every entry, with each of its chords, in its group.
  const entries = Object.values(SHORTCUTS) as Shortcut[];
  const shown = await sheet(page).locator('.shortcut').evaluateAll((rows) =>
    rows.map((r) => ({ group: r.closest('section')!.getAttribute('aria-label'), keys: r.querySelector('dt')!.textContent, does: r.querySelector('dd')!.textContent })),
  );
  expect(shown.map((s) => [s.group, s.does])).toEqual(entries.map((e) => [e.group, e.does]));
  for (const [i, e] of entries.entries()) expect(shown[i].keys?.split(' or ')).toHaveLength(e.chords.length);
  expect(shown.find((s) => s.does === 'Save the document (also while typing)')?.keys).toBe('Ctrl+S');
  expect(shown.find((s) => s.does === 'Preferences')?.keys).toBe('Ctrl+,');
  await page.keyboard.press('Escape');
  await expect.poll(() => sheet(page).count()).toBe(0);

  // In a field "?" is text; F1 still opens the sheet.
  const search = page.getByRole('searchbox', { name: 'Search all transcripts' });
  await search.click();
  await page.keyboard.type('why?');
  expect(await search.inputValue()).toBe('why?');
  expect(await sheet(page).count()).toBe(0);
  await page.keyboard.press('F1');
  await expect.poll(() => sheet(page).count()).toBe(1);
  await sheet(page).getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => sheet(page).count()).toBe(0);

  // The top bar menu's Shortcuts button opens it too.
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('button', { name: 'Shortcuts' }).click();
  await expect.poll(() => sheet(page).count()).toBe(1);
}, 120_000);
