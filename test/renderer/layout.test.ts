/**
 * Small windows in real Chromium: at 800x600 and at 200% zoom (a 1280x800 window at device scale 2,
 * so 640x400 CSS pixels) the top bar stays one row (less used actions sit behind "Menu"), the sidebar
 * overlays the content only when asked for, and the transcript keeps at least half the window's
 * height, with a video in the session too. Sessions are real speech transcribed by the local service.
 */
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/service';
import { appAndBrowserPerFile, signIn } from '../helpers/ui';
import { openSession, seedSessions, seedWatchedVideo, waitForCompleted } from './look-fixture';

const AUDIO = 'layout-audio.wav';
const VIDEO = 'layout-video.webm';
const SHOTS = '/tmp/shots/look';

const contexts: BrowserContext[] = [];
const watched = tempDir('s2t-layout-watch-');

const run = appAndBrowserPerFile();
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  cleanup(watched);
});

async function windowOf(width: number, height: number, deviceScaleFactor = 1): Promise<Page> {
  const context = await run.browser.newContext({ viewport: { width, height }, deviceScaleFactor });
  contexts.push(context);
  const page = await context.newPage();
  await signIn(page, run.app.url);
  return page;
}

const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

/** The top bar's height, and whether every visible control in it sits on its one row, none cut off at the side. */
async function topBar(page: Page): Promise<{ height: number; oneRow: boolean }> {
  return page.evaluate(() => {
    const bar = document.querySelector('.topbar')!.getBoundingClientRect();
    const items = Array.from(document.querySelectorAll('.topbar > *')).map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    return { height: bar.height, oneRow: items.every((r) => r.top >= bar.top && r.bottom <= bar.bottom && r.left >= bar.left && r.right <= bar.right) };
  });
}

/**
 * How much of the window the transcript shows: its visible height once the content is scrolled to
 * the end (a 200% zoom window scrolls the session's head away), and whether that scroll was needed.
 */
async function transcriptView(page: Page): Promise<{ visible: number; scrolled: boolean }> {
  return page.evaluate(() => {
    const content = document.querySelector('main.content')!;
    const scrolled = content.scrollHeight > content.clientHeight + 1;
    content.scrollTop = content.scrollHeight;
    const r = document.querySelector('.doc-scroll')!.getBoundingClientRect();
    const top = document.querySelector('.topbar')!.getBoundingClientRect().bottom;
    return { visible: Math.min(r.bottom, innerHeight) - Math.max(r.top, top), scrolled };
  });
}

describe('small windows', () => {
  it('has an audio and a video session of real speech, transcribed by the local service', async () => {
    await seedSessions(run.app.serviceUrl, { audio: AUDIO });
    const page = await windowOf(1280, 800);
    await seedWatchedVideo(run.app, watched, VIDEO);
    await waitForCompleted(page, AUDIO);
    await waitForCompleted(page, VIDEO);
  }, 240_000);

  for (const [label, width, height, scale] of [
    ['800x600', 800, 600, 1],
    ['200% zoom (1280x800 at 2x)', 640, 400, 2],
  ] as const) {
    it(`${label}: one-row top bar, sidebar on demand, transcript at least half the height (audio and video)`, async () => {
      const page = await windowOf(width, height, scale);
      expect(await topBar(page)).toEqual({ height: 48, oneRow: true });
      // The sidebar is out of the way until asked for; then it overlays and leaves the content its width.
      const toggle = page.getByRole('button', { name: 'Show sessions' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await page.locator('#sidebar').isVisible()).toBe(false);
      expect((await box(page, 'main.content')).width).toBe(width);

      await openSession(page, AUDIO);
      expect(await page.locator('#sidebar').isVisible()).toBe(false);
      await page.screenshot({ path: `${SHOTS}/layout-audio-${width}.png` });
      const audio = await transcriptView(page);
      expect(audio.visible).toBeGreaterThanOrEqual(height / 2);
      // At 800x600 all of it fits without scrolling; at 200% zoom the head scrolls away above it.
      expect(audio.scrolled).toBe(height < 500);

      await openSession(page, VIDEO);
      await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.media-bar video')?.videoWidth ?? 0) > 0, undefined, { timeout: 30_000 });
      await page.screenshot({ path: `${SHOTS}/layout-video-${width}.png` });
      const video = await transcriptView(page);
      expect(video.visible).toBeGreaterThanOrEqual(height / 2);
      expect(video.scrolled).toBe(height < 500);
      expect(await topBar(page)).toEqual({ height: 48, oneRow: true });

      // The folded actions: "Menu" shows them in a panel; Escape closes it and gives focus back.
      const more = page.getByRole('button', { name: 'Menu', exact: true });
      expect(await page.getByRole('button', { name: 'Watch folders' }).isVisible()).toBe(false);
      await more.click();
      expect(await more.getAttribute('aria-expanded')).toBe('true');
      expect(await page.getByRole('button', { name: 'Watch folders' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
      await page.screenshot({ path: `${SHOTS}/layout-more-${width}.png` });
      await page.getByRole('button', { name: 'Shortcuts' }).focus();
      await page.keyboard.press('Escape');
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      expect(await page.evaluate(() => document.activeElement?.className)).toContain('more-toggle');

      // The sidebar overlays: shown over the content, which keeps its width; a choice closes it.
      await page.getByRole('button', { name: 'Show sessions' }).click();
      expect(await page.locator('#sidebar').isVisible()).toBe(true);
      expect((await box(page, 'main.content')).width).toBe(width);
      await page.screenshot({ path: `${SHOTS}/layout-sidebar-${width}.png` });
      await page.locator('#sidebar').getByRole('button', { name: new RegExp(AUDIO.replace('.', '\\.')) }).click();
      await expect.poll(() => page.locator('#sidebar').isVisible()).toBe(false);
      // Escape puts it away too, and focus goes back to its button.
      await page.getByRole('button', { name: 'Show sessions' }).click();
      await page.locator('#sidebar').getByRole('checkbox').first().focus();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('#sidebar').isVisible()).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-controls'))).toBe('sidebar');
    }, 120_000);
  }

  it('1280x800: the sidebar is a column beside the content, hidden by the same toggle; the video is capped', async () => {
    const page = await windowOf(1280, 800);
    await page.screenshot({ path: `${SHOTS}/layout-list-1280.png` });
    expect(await topBar(page)).toEqual({ height: 48, oneRow: true });
    expect((await box(page, 'main.content')).x).toBe(340);
    await openSession(page, VIDEO);
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.media-bar video')?.videoWidth ?? 0) > 0, undefined, { timeout: 30_000 });
    expect(await transcriptView(page)).toEqual({ visible: expect.any(Number), scrolled: false });
    expect((await transcriptView(page)).visible).toBeGreaterThanOrEqual(400);
    await page.screenshot({ path: `${SHOTS}/layout-video-1280.png` });
    await page.getByRole('button', { name: 'Hide sessions' }).click();
    expect(await page.locator('#sidebar').isVisible()).toBe(false);
    expect((await box(page, 'main.content')).x).toBe(0);
    await page.getByRole('button', { name: 'Show sessions' }).click();
    expect((await box(page, 'main.content')).x).toBe(340);
  }, 120_000);
});
