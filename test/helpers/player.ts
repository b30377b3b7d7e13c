/** The session page's player, read and driven in the page as a person would (K to play, the highlighted word). */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { drawnWords } from './words';

/** The media element of the session page: its kind, time, state and where it plays from (data-origin). */
export const mediaState = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector<HTMLMediaElement>('.media-bar audio, .media-bar video');
    return el ? { tag: el.tagName.toLowerCase(), time: el.currentTime, ready: el.readyState, paused: el.paused, error: el.error?.code ?? null, origin: el.closest<HTMLElement>('.media-bar')!.dataset.origin } : null;
  });

/** Plays from the start with K and waits until the media time moves past `ms`. */
export async function playPast(page: Page, ms: number): Promise<void> {
  await page.waitForFunction(() => (document.querySelector<HTMLMediaElement>('.media-bar audio, .media-bar video')?.readyState ?? 0) >= 1, undefined, { timeout: 30_000 });
  await page.getByRole('heading', { level: 2 }).click();
  await page.keyboard.press('k');
  await expect.poll(async () => (await mediaState(page))?.time ?? 0, { timeout: 30_000 }).toBeGreaterThan(ms / 1000);
}

/** The playing word's start (ms, its data-start), or -1 when no word is playing. */
export const playingStart = (page: Page) =>
  page.locator('[aria-current="time"]').first().getAttribute('data-start', { timeout: 1000 }).then((s) => (s === null ? -1 : Number(s)), () => -1);

/** Plays and waits until `count` different words have been highlighted as the playing one, in turn. */
export async function expectHighlightAdvances(page: Page, count = 3): Promise<void> {
  expect((await drawnWords(page)).length).toBeGreaterThanOrEqual(count);
  const current = () => playingStart(page);
  await playPast(page, 50);
  const seen = new Set<number>();
  await expect
    .poll(async () => {
      seen.add(await current());
      seen.delete(-1);
      return seen.size;
    }, { timeout: 30_000, interval: 100 })
    .toBeGreaterThanOrEqual(count);
}
