/**
 * What a key typed into a cue costs the page, in real Chromium against the app and its local
 * service, on the 3-hour captions (the bench's document): the key changes nothing in the DOM and
 * recalculates the style of a few elements, not the session view's ~500 (a controlled textarea had
 * React write its default value after every input, which the view's `:has()` rules answered with a
 * recalculation of everything); and no row fades while the mouse crosses rows and clicks into a cue
 * (a running fade made the first keys wait for the next vsync). Read from a Chromium trace
 * (UpdateLayoutTree's element count) and from DOM events, not from times. The cue's draft still
 * behaves: Escape puts the text back, leaving keeps it, undo brings back the text before.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { threeHourTranscript } from '../../bench/formats.bench';
import { LOCAL_DEMO } from '../helpers/app';
import { serviceLogin } from '../helpers/service';
import { fieldValue } from '../helpers/fields';
import { appAndBrowserPerFile, submitSignIn } from '../helpers/ui';
import { openCompletedSession, uploadDocument } from './look-fixture';

const NAME = 'caption-keys-3h.json';
const run = appAndBrowserPerFile();
let page: Page;
let cues = 0;
const pageErrors: string[] = [];

const cue = (posinset: number) => page.locator(`.cue[aria-posinset="${posinset}"]`);
/** A cue's text: drawn as text, its textarea only while focused (lib/useFieldAsText). */
const text = (posinset: number) => cue(posinset).getByRole('textbox', { name: /^Text of cue/ });
const startTime = (posinset: number) => cue(posinset).getByRole('textbox', { name: /^Start of cue/ });
const tagOf = (field: Locator) => field.evaluate((el) => el.tagName);
/** "1:02:03.250" or "0:03.250" in ms, and ms as "h:mm:ss.mmm". */
const msOf = (clock: string) => Math.round(clock.split(':').reduce((acc, part) => acc * 60 + Number(part), 0) * 1000);
const clockOf = (ms: number) => `${Math.floor(ms / 3_600_000)}:${String(Math.floor(ms / 60_000) % 60).padStart(2, '0')}:${((ms % 60_000) / 1000).toFixed(3).padStart(6, '0')}`;
/** A place outside every field, so keys are the document's and not a field's. */
const away = () => page.getByRole('heading', { level: 2 }).click();
/** Lets a key's input, re-render and frame run before the next key. */
const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30))));

interface TraceEvent {
  name: string;
  pid: number;
  tid: number;
  ts: number;
  args?: { elementCount?: number; data?: { type?: string } };
}

/** Types `keys` under a Chromium trace; answers the element count of each style recalculation on the page's main thread, and how many layouts it ran. */
async function styleRecalcsWhileTyping(keys: string[]): Promise<{ restyled: number[]; layouts: number }> {
  await run.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  for (const k of keys) {
    await page.keyboard.press(k);
    await settle();
  }
  const events = (JSON.parse((await run.browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  // The page's main thread is the one that dispatched the keys.
  const key = events.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
  expect(key, 'the trace shows the keys').toBeTruthy();
  const main = events.filter((e) => e.pid === key!.pid && e.tid === key!.tid);
  return { restyled: main.filter((e) => e.name === 'UpdateLayoutTree').map((e) => e.args?.elementCount ?? 0), layouts: main.filter((e) => e.name === 'Layout').length };
}

beforeAll(async () => {
  const jwt = await serviceLogin(run.app.serviceUrl, LOCAL_DEMO);
  await uploadDocument(run.app.serviceUrl, jwt, NAME, { document_type: 'transcript', metadata: {}, content: threeHourTranscript() });
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
}, 120_000);

describe('a key typed into a cue of the 3-hour captions', () => {
  it('opens the captions and a cue near the end', async () => {
    await page.goto(await run.app.newUrl());
    await submitSignIn(page);
    await openCompletedSession(page, NAME);
    await page.getByRole('tab', { name: /^Captions/ }).click();
    await page.locator('.cue').first().waitFor({ timeout: 30_000 });
    cues = Number(await page.locator('.cue').first().getAttribute('aria-setsize'));
    expect(cues).toBeGreaterThan(2000);
    await page.locator('.doc-scroll').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await text(cues - 2).waitFor({ timeout: 20_000 });
  }, 240_000);

  it('changes nothing in the DOM and recalculates the style of a few elements, not the whole view', async () => {
    const box = text(cues - 2);
    const before = await fieldValue(box);
    await box.click();
    await page.keyboard.press('Control+End');
    await settle();
    // Every change to the DOM of the list while typing (the text typed lives in the field's value).
    await page.evaluate(() => {
      const w = window as unknown as { __changes: number };
      w.__changes = 0;
      new MutationObserver((records) => (w.__changes += records.length)).observe(document.querySelector('.cues')!, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    const { restyled, layouts } = await styleRecalcsWhileTyping(['KeyQ', 'KeyU', 'KeyI', 'Space', 'KeyX']);
    expect(await fieldValue(box)).toBe(`${before}qui x`);
    // The trace did see the work of the keys: each one's text laid out.
    expect(layouts).toBeGreaterThanOrEqual(5);
    // A cue row has some 20 elements; the session view around it about 500.
    expect(Math.max(0, ...restyled), `elements restyled per recalculation: ${restyled.join(' ')}`).toBeLessThan(50);
    expect(await page.evaluate(() => (window as unknown as { __changes: number }).__changes), 'changes to the DOM of the cue list while typing').toBe(0);
  });

  it('Escape puts the cue text back; leaving keeps it; undo brings back the text before', async () => {
    const box = text(cues - 2);
    await page.keyboard.press('Escape');
    const original = await fieldValue(box);
    expect(original).not.toMatch(/qui x$/);
    await box.click();
    // The end of the cue's text, whichever of its lines the click put the caret on.
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' zebra');
    await away();
    await expect.poll(() => fieldValue(box)).toBe(`${original} zebra`);
    await page.keyboard.press('Control+z');
    await expect.poll(() => fieldValue(box)).toBe(original);
    await page.keyboard.press('Control+y');
    await expect.poll(() => fieldValue(box)).toBe(`${original} zebra`);
  });

  it('no row fades while the mouse crosses rows and clicks into a cue; the focused and hovered rows show their actions', async () => {
    await page.evaluate(() => {
      const w = window as unknown as { __fades: string[] };
      w.__fades = [];
      document.addEventListener('transitionrun', (e) => {
        if ((e.target as Element).closest('.cues')) w.__fades.push(`${(e.target as Element).className} ${e.propertyName}`);
      }, true);
    });
    await cue(cues - 4).hover();
    await cue(cues - 3).hover();
    await text(cues - 3).click();
    await page.keyboard.press('KeyA');
    await text(cues - 1).click();
    await settle();
    await settle();
    expect(await page.evaluate(() => (window as unknown as { __fades: string[] }).__fades)).toEqual([]);
    // Hidden actions are drawn in a transparent colour (not at zero opacity: a layer each row).
    const shown = (posinset: number) => cue(posinset).locator('.row-actions button').first().evaluate((el) => getComputedStyle(el).color !== 'rgba(0, 0, 0, 0)');
    expect(await shown(cues - 1)).toBe(true);
    await away();
    await cue(cues - 4).hover();
    expect(await shown(cues - 4)).toBe(true);
    expect(await shown(cues - 1)).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});

describe("a cue's time and text, drawn as text until wanted", () => {
  it('become their controls when reached by Tab or clicked, and what is typed in them is kept', async () => {
    await away();
    const k = cues - 3;
    const start = startTime(k);
    expect(await tagOf(start)).toBe('SPAN');
    expect(await tagOf(text(k))).toBe('DIV');
    // Tab from the cue's play button reaches its start time, which is then an input with the focus.
    await cue(k).getByRole('button', { name: /^Play cue/ }).focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.getAttribute('aria-label')}`)).toBe(`INPUT Start of cue ${k}`);
    const later = clockOf(msOf(await fieldValue(start)) + 10);
    await page.keyboard.press('Control+a');
    await page.keyboard.type(later);
    await page.keyboard.press('Enter');
    await expect.poll(() => tagOf(start)).toBe('SPAN');
    expect(msOf(await fieldValue(start))).toBe(msOf(later));
    // A click turns the text into its textarea, focused; leaving it keeps what was typed and draws it as text again.
    const before = await fieldValue(text(k));
    await text(k).click();
    expect(await tagOf(text(k))).toBe('TEXTAREA');
    expect(await text(k).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' kiwi');
    await away();
    await expect.poll(() => tagOf(text(k))).toBe('DIV');
    expect(await fieldValue(text(k))).toBe(`${before} kiwi`);
    // Both are edits of the document: undo takes back the text, then the time.
    await page.keyboard.press('Control+z');
    await expect.poll(() => fieldValue(text(k))).toBe(before);
    expect(pageErrors).toEqual([]);
  });
});
