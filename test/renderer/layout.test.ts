/**
 * Small windows in real Chromium: at 800x600 and at 200% zoom (a 1280x800 window at device scale 2,
 * so 640x400 CSS pixels) the top bar stays one row (less used actions sit behind "Menu"), the sidebar
 * overlays the content only when asked for, and the transcript keeps at least half the window's
 * height, with a video in the session too, on the transcript and on the captions (the document
 * actions fold into one menu, the video shrinks beside the toolbar, the caption problems fold into
 * their count, the waveform is lower), and export, share, find and the rules stay in reach of the
 * mouse and the keyboard. Sessions are real speech transcribed by the local service.
 */
import { mkdirSync } from 'node:fs';
import { fieldValue, fillField } from '../helpers/fields';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/service';
import { appAndBrowserPerFile, signIn } from '../helpers/ui';
import { axeProblems, describeProblems, openSession, seedSessions, seedWatchedVideo, syncUntil, waitForCompleted } from './look-fixture';

const AUDIO = 'layout-audio.wav';
const VIDEO = 'layout-video.webm';
const SHOTS = '/tmp/shots/look';
/** Both tabs with a video at each size, light and dark, for a person to look at. */
const SMALL_SHOTS = '/tmp/shots/small-window';
const SCHEMES = ['light', 'dark'] as const;

const contexts: BrowserContext[] = [];
const watched = tempDir('s2t-layout-watch-');

const run = appAndBrowserPerFile();
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  mkdirSync(SMALL_SHOTS, { recursive: true });
});
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  cleanup(watched);
});

/** A signed-in window; reduced motion, so axe never sees a row's actions halfway through fading in. */
async function windowOf(width: number, height: number, deviceScaleFactor = 1): Promise<Page> {
  const context = await run.browser.newContext({ viewport: { width, height }, deviceScaleFactor, reducedMotion: 'reduce' });
  contexts.push(context);
  const page = await context.newPage();
  await signIn(page, await run.app.newUrl());
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

/** Waits for the video's picture, so its box has its final size. */
const videoShown = (page: Page) => page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.media-bar video')?.videoWidth ?? 0) > 0, undefined, { timeout: 30_000 });

/** Pictures of the page as it is now, light and dark (the theme follows the system's by default). */
async function shots(page: Page, name: string): Promise<void> {
  const { width, height } = page.viewportSize()!;
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SMALL_SHOTS}/${name}-${width}x${height}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Whether the Transcript tab's "Export from" list shows each of its choices whole (measured with
 * the list's own font against its room inside the padding and the arrow), inside the window; the
 * texts it showed. It appears beside a caption format when the session has captions.
 */
async function exportSourceReadable(page: Page): Promise<{ shown: string[]; cut: string[] }> {
  const from = page.getByLabel('Export from');
  await expect.poll(() => from.count(), { timeout: 20_000 }).toBe(1);
  const shown: string[] = [];
  const cut: string[] = [];
  for (const value of ['transcript', 'captions']) {
    await from.selectOption(value);
    const seen = await from.evaluate((s: HTMLSelectElement) => {
      const cs = getComputedStyle(s);
      const probe = document.createElement('span');
      Object.assign(probe.style, { font: cs.font, letterSpacing: cs.letterSpacing, whiteSpace: 'pre', position: 'absolute', visibility: 'hidden' });
      probe.textContent = s.selectedOptions[0].textContent;
      document.body.append(probe);
      const textWidth = probe.getBoundingClientRect().width;
      probe.remove();
      const ARROW = 18; // Chromium's drop-down arrow and its gap
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - ARROW;
      const r = s.getBoundingClientRect();
      return { text: probe.textContent ?? '', whole: textWidth <= room && r.left >= 0 && r.right <= innerWidth };
    });
    shown.push(seen.text);
    if (!seen.whole) cut.push(seen.text);
  }
  await from.selectOption('transcript');
  return { shown, cut };
}

/** Opens the captions tab and waits for its cues. */
async function openCaptions(page: Page): Promise<void> {
  await page.getByRole('tab', { name: /^Captions/ }).click();
  await expect.poll(() => page.locator('.cue').count(), { timeout: 30_000 }).toBeGreaterThan(0);
}

/**
 * Export, find and the folded document actions (share by mouse, delete by keyboard) each do what
 * they say from a small window: the download comes, the bar and the dialogs open, and Escape closes them.
 */
async function actionsInReach(page: Page): Promise<void> {
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  expect((await download).suggestedFilename()).toMatch(/\.srt$/);

  await page.getByRole('button', { name: 'Find and replace' }).click();
  const bar = page.getByRole('search', { name: 'Find and replace' });
  await expect.poll(() => bar.isVisible()).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => bar.count()).toBe(0);

  // The document actions are one menu here, not a row of buttons.
  const actions = page.getByRole('group', { name: 'Document actions' });
  expect(await actions.getByRole('button').count()).toBe(1);
  const menu = actions.getByRole('button', { name: 'Document' });
  await menu.click();
  await page.getByRole('menuitem', { name: 'Share…' }).click();
  await expect.poll(() => page.getByRole('dialog', { name: 'Share' }).isVisible()).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);

  await menu.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
  const { width } = page.viewportSize()!;
  expect(describeProblems(`the Document menu, ${width}`, await axeProblems(page))).toEqual([]);
  await page.screenshot({ path: `${SMALL_SHOTS}/document-menu-${width}.png` });
  await page.keyboard.press('End');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete…');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByRole('dialog', { name: 'Delete this document?' }).isVisible()).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
}

/**
 * The caption rules on one line: a cue made too long shows as a count of problems, which opens and
 * closes their list (with its fixes); the list starts closed in a small window and open in a roomy
 * one. No serious axe finding with the list open, light or dark. The edit is undone after.
 */
async function rulesInReach(page: Page, startsOpen: boolean): Promise<void> {
  const { width } = page.viewportSize()!;
  const text = page.getByLabel('Text of cue 1', { exact: true });
  const before = await fieldValue(text);
  await fillField(text, 'this caption line is far too long to read in so short a time on screen');
  await text.blur();
  const count = page.getByRole('group', { name: 'Caption rules' }).getByRole('button', { name: /problems? in 1 cue/ });
  const list = page.getByRole('list', { name: 'Caption problems' });
  await expect.poll(() => count.getAttribute('aria-expanded')).toBe(String(startsOpen));
  if (!startsOpen) {
    expect(await list.count()).toBe(0);
    await count.click();
  }
  await expect.poll(() => list.isVisible()).toBe(true);
  expect(await list.textContent()).toMatch(/Cue 1/);
  expect(await list.getByRole('button', { name: 'Rebalance lines: cue 1' }).isVisible()).toBe(true);
  await shots(page, 'captions-problems');
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(describeProblems(`captions with problems, ${scheme}, ${width}`, await axeProblems(page))).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await count.click();
  await expect.poll(() => list.count()).toBe(0);
  await count.click();
  await expect.poll(() => list.count()).toBe(1);
  await page.getByLabel('Caption rules profile').selectOption('bbc-like');
  await page.getByLabel('Caption rules profile').selectOption('netflix-like');
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => fieldValue(text)).toBe(before);
  // What happened last is said without taking a row from the document, in the window even with the head scrolled into view.
  const said = page.getByRole('status').filter({ hasText: /^Undid / });
  await expect.poll(() => said.isVisible()).toBe(true);
  await page.evaluate(() => void (document.querySelector('main.content')!.scrollTop = 0));
  const at = (await said.boundingBox())!;
  expect(at.y + at.height).toBeLessThanOrEqual(page.viewportSize()!.height);
  await shots(page, 'captions-undone');
}

describe('small windows', () => {
  it('has an audio and a video session of real speech, transcribed by the local service', async () => {
    await seedSessions(run.app.serviceUrl, { audio: AUDIO });
    const page = await windowOf(1280, 800);
    await seedWatchedVideo(run.app, watched, VIDEO);
    await waitForCompleted(page, AUDIO);
    await waitForCompleted(page, VIDEO);
    // A completed session's documents come with a later pull: wait for them here, so the tests below need not.
    for (const [name, tab, rows] of [[AUDIO, /^Transcript/, '.segment'], [VIDEO, /^Transcript/, '.segment'], [VIDEO, /^Captions/, '.cue']] as const) {
      await page.locator('#sidebar').getByRole('button', { name: new RegExp(name.replace('.', '\\.')) }).click();
      await syncUntil(
        page,
        async () => {
          const tabOf = page.getByRole('tab', { name: tab });
          if ((await tabOf.count()) === 0) return 0;
          await tabOf.click();
          return page.locator(rows).count();
        },
        { timeout: 120_000, interval: 1500 },
      ).toBeGreaterThan(0);
    }
  }, 360_000);

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
      await videoShown(page);
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

  for (const [label, width, height, scale] of [
    ['800x600', 800, 600, 1],
    ['200% zoom (1280x800 at 2x)', 640, 400, 2],
  ] as const) {
    it(`${label}, a session with a video: the transcript and the captions each keep half the height; export, share, find and the rules stay in reach; an audio session's captions keep half too`, async () => {
      const page = await windowOf(width, height, scale);
      await openSession(page, VIDEO);
      await videoShown(page);
      const transcript = await transcriptView(page);
      await shots(page, 'transcript');
      expect(transcript.visible).toBeGreaterThanOrEqual(height / 2);
      if (height >= 500) {
        // The video stays in sight, beside the toolbar, with the document below both.
        const video = await box(page, '.media-bar video');
        expect(video.y + video.height).toBeLessThanOrEqual(height);
        expect(video.width).toBeGreaterThanOrEqual(160);
        expect(video.y + video.height).toBeLessThanOrEqual((await box(page, '.doc-scroll')).y);
      } else {
        // Here it scrolls away with the head, and is there, whole, when the head is scrolled back.
        await page.evaluate(() => void (document.querySelector('main.content')!.scrollTop = 0));
        const video = await box(page, '.media-bar video');
        expect(video.width).toBeGreaterThanOrEqual(160);
        expect(video.height).toBeGreaterThanOrEqual(90);
        await page.screenshot({ path: `${SMALL_SHOTS}/video-${width}x${height}.png` });
      }
      await actionsInReach(page);
      // Beside the video the caption file's source reads whole, not "From th…".
      expect((await exportSourceReadable(page)).cut).toEqual([]);
      await shots(page, 'export-source');

      await openCaptions(page);
      const captions = await transcriptView(page);
      await shots(page, 'captions');
      expect(captions.visible).toBeGreaterThanOrEqual(height / 2);
      await actionsInReach(page);
      await rulesInReach(page, false);
      expect((await transcriptView(page)).visible).toBeGreaterThanOrEqual(height / 2);

      // An audio session's captions too: the player is one row, with the caption showing now under it.
      await openSession(page, AUDIO);
      await openCaptions(page);
      const audio = await transcriptView(page);
      await shots(page, 'captions-audio');
      expect(audio.visible).toBeGreaterThanOrEqual(height / 2);
      // The caption showing now comes without moving anything.
      await page.evaluate(() => void (document.querySelector('audio')!.currentTime = 1.5));
      await expect.poll(() => page.locator('.media-bar .caption-preview span').count()).toBeGreaterThan(0);
      expect((await transcriptView(page)).visible).toBeCloseTo(audio.visible, 0);
      await shots(page, 'captions-audio-playing');
    }, 180_000);
  }

  it('1280x800: the sidebar is a column beside the content, hidden by the same toggle; the video is capped', async () => {
    const page = await windowOf(1280, 800);
    await page.screenshot({ path: `${SHOTS}/layout-list-1280.png` });
    expect(await topBar(page)).toEqual({ height: 48, oneRow: true });
    expect((await box(page, 'main.content')).x).toBe(340);
    await openSession(page, VIDEO);
    await videoShown(page);
    expect(await transcriptView(page)).toEqual({ visible: expect.any(Number), scrolled: false });
    expect((await transcriptView(page)).visible).toBeGreaterThanOrEqual(400);
    await page.screenshot({ path: `${SHOTS}/layout-video-1280.png` });
    await shots(page, 'transcript');
    expect((await exportSourceReadable(page)).cut).toEqual([]);
    await shots(page, 'export-source');
    // The document actions stay a row of buttons here, and the caption problems (none here) open by themselves.
    expect(await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Share…' }).isVisible()).toBe(true);
    await openCaptions(page);
    await shots(page, 'captions');
    await rulesInReach(page, true);
    await page.getByRole('tab', { name: /^Transcript/ }).click();
    await page.getByRole('button', { name: 'Hide sessions' }).click();
    expect(await page.locator('#sidebar').isVisible()).toBe(false);
    expect((await box(page, 'main.content')).x).toBe(0);
    await page.getByRole('button', { name: 'Show sessions' }).click();
    expect((await box(page, 'main.content')).x).toBe(340);
  }, 120_000);
});
