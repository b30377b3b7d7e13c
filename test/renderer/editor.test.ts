/**
 * The transcript and caption editor end to end, in real Chromium against the app in browser mode
 * and its local service: real speech (espeak-ng, two phrases with a pause, so pocketsphinx makes
 * two segments) transcribed by the service, then playback sync, edits with undo and redo, split
 * and merge, find and replace, cue times refused on overlap, a save that survives a reload, and
 * the global search opening a session at the hit's moment.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fieldValue, fillField } from '../helpers/fields';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/service';
import { twoPhraseWav } from '../helpers/speech';
import { appAndBrowserPerFile, batchKey, pickSpeaker, speakerOfSegment, submitSignIn, uploadWav } from '../helpers/ui';
import { openCompletedSession, openSession } from './look-fixture';
import { clickWord, drawnWords, wordTimes as wordTimesOf } from '../helpers/words';

const NAME = 'editor-demo.wav';
const SHOTS = join(ROOT, 'test-results');

const run = appAndBrowserPerFile();
let page: Page;

async function createSession(serviceUrl: string): Promise<void> {
  // Sessions are made with an API key, as a batch client would.
  await uploadWav(serviceUrl, await batchKey(serviceUrl, 'e2e-editor'), NAME, readFileSync(await twoPhraseWav('editor')));
}

const transcript = () => page.getByRole('list', { name: 'Transcript' });
const segments = () => transcript().locator(':scope > li');
const segmentText = async (row: Locator) => ((await row.locator('.seg-text').textContent()) ?? '').replace(/\s+/g, ' ').trim();
const playing = () => page.locator('[aria-current="time"]');

interface WordTime {
  text: string;
  start: number;
  end: number;
  segment: number;
}

const wordTimes = () => wordTimesOf(page);

async function setMediaTime(ms: number): Promise<void> {
  await page.evaluate((t) => {
    const media = document.querySelector('audio')!;
    media.currentTime = t / 1000;
  }, ms);
}

beforeAll(async () => {
  await createSession(run.app.serviceUrl);
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  mkdirSync(SHOTS, { recursive: true });
});

describe('transcript and caption editor', () => {
  it('signs in and opens the transcribed session with its media', async () => {
    await page.goto(await run.app.newUrl());
    await submitSignIn(page);
    await openCompletedSession(page, NAME);
    await page.waitForFunction(() => (document.querySelector('audio')?.readyState ?? 0) >= 1, undefined, { timeout: 20_000 });
    expect(await segments().count()).toBeGreaterThanOrEqual(1);
  }, 150_000);

  it('lights the word being played, moves with the media time, and seeks where a word is clicked', async () => {
    const words = (await wordTimes()).filter((w) => w.end - w.start >= 40);
    expect(words.length).toBeGreaterThanOrEqual(3);
    const early = words[1];
    await setMediaTime((early.start + early.end) / 2);
    await expect.poll(async () => (await playing().textContent())?.trim()).toBe(early.text);
    expect(await playing().count()).toBe(1);
    await expect.poll(() => segments().nth(early.segment).getAttribute('class')).toContain('current');

    const late = words[words.length - 1];
    await setMediaTime((late.start + late.end) / 2);
    await expect.poll(async () => (await playing().getAttribute('data-start'))).toBe(String(late.start));
    await expect.poll(() => segments().nth(late.segment).getAttribute('class')).toContain('current');
    await page.screenshot({ path: join(SHOTS, 'editor-playback.png') });

    // L and J skip 5 s forward and back, but not while typing in a field.
    const mediaMs = () => page.evaluate(() => Math.round(document.querySelector('audio')!.currentTime * 1000));
    await setMediaTime(1000);
    await page.getByRole('heading', { level: 2 }).click();
    await page.keyboard.press('l');
    await expect.poll(mediaMs).toBe(6000);
    await page.keyboard.press('j');
    await expect.poll(mediaMs).toBe(1000);
    await page.getByRole('searchbox', { name: 'Search all transcripts' }).press('l');
    await page.getByRole('searchbox', { name: 'Search all transcripts' }).fill('');
    expect(await mediaMs()).toBe(1000);

    // Clicking a word moves the media there.
    const first = (await wordTimes())[0];
    await setMediaTime(late.end + 10);
    await clickWord(segments().first(), 0);
    await expect.poll(() => page.evaluate(() => Math.round(document.querySelector('audio')!.currentTime * 1000))).toBeGreaterThanOrEqual(first.start - 5);
    expect(await page.evaluate(() => document.querySelector('audio')!.currentTime * 1000)).toBeLessThan(first.start + 50);
  });

  it('edits a segment keeping its timing, then undoes and redoes the edit', async () => {
    const row = segments().first();
    const original = await segmentText(row);
    const firstStart = (await wordTimes())[0].start;
    await row.locator('.seg-text').dblclick();
    await page.getByLabel('Segment text').fill('alpha beta Alpha gamma delta');
    await page.getByLabel('Segment text').press('Enter');
    await expect.poll(() => segmentText(row)).toBe('alpha beta Alpha gamma delta');
    expect((await wordTimes())[0].start).toBe(firstStart);
    await expect.poll(() => page.getByText('Unsaved changes').count()).toBe(1);

    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => segmentText(row)).toBe(original);
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(() => segmentText(row)).toBe('alpha beta Alpha gamma delta');

    // The same from the keyboard, outside any text field.
    await page.getByRole('heading', { level: 2 }).click();
    await page.keyboard.press('Control+z');
    await expect.poll(() => segmentText(row)).toBe(original);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => segmentText(row)).toBe('alpha beta Alpha gamma delta');

    // Escape drops an edit in progress.
    await row.locator('.seg-text').dblclick();
    await page.getByLabel('Segment text').fill('this is thrown away');
    await page.getByLabel('Segment text').press('Escape');
    await expect.poll(() => segmentText(row)).toBe('alpha beta Alpha gamma delta');
  });

  it('splits a segment before a clicked word and merges it back', async () => {
    const before = await segments().count();
    const row = segments().first();
    await clickWord(row, 2);
    await row.getByRole('button', { name: 'Split before “Alpha”' }).click();
    await expect.poll(() => segments().count()).toBe(before + 1);
    expect(await segmentText(segments().nth(0))).toBe('alpha beta');
    expect(await segmentText(segments().nth(1))).toBe('Alpha gamma delta');

    await segments().first().getByRole('button', { name: 'Merge with next' }).click();
    await expect.poll(() => segments().count()).toBe(before);
    expect(await segmentText(segments().first())).toBe('alpha beta Alpha gamma delta');

    // While typing, Shift+Enter splits at the caret.
    await segments().first().locator('.seg-text').dblclick();
    const box = page.getByLabel('Segment text');
    await box.press('Home');
    for (let i = 0; i < 'alpha beta '.length; i++) await box.press('ArrowRight');
    await box.press('Shift+Enter');
    await expect.poll(() => segments().count()).toBe(before + 1);
    expect(await segmentText(segments().nth(1))).toBe('Alpha gamma delta');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => segments().count()).toBe(before);
  });

  it('finds with whole-word and case options, counts the places, and replaces them', async () => {
    await page.getByRole('button', { name: 'Find and replace' }).click();
    const findBox = page.getByRole('searchbox', { name: 'Find', exact: true });
    const count = page.locator('.find-count');
    await findBox.fill('alpha');
    await expect.poll(() => count.textContent()).toBe('2 found · 1 of 2');
    await findBox.fill('alph');
    await expect.poll(() => count.textContent()).toBe('2 found · 1 of 2');
    await page.getByLabel('Whole words').check();
    await expect.poll(() => count.textContent()).toBe('Not found');
    await findBox.fill('alpha');
    await expect.poll(() => count.textContent()).toBe('2 found · 1 of 2');
    await page.getByLabel('Match case').check();
    await expect.poll(() => count.textContent()).toBe('1 found');
    await expect.poll(async () => (await drawnWords(page)).filter((w) => w.found).map((w) => w.text)).toEqual(['alpha']);
    await page.getByLabel('Match case').uncheck();
    await expect.poll(() => count.textContent()).toBe('2 found · 1 of 2');
    await page.screenshot({ path: join(SHOTS, 'editor-find.png') });

    await page.getByLabel('Replace with').fill('omega');
    await page.getByRole('button', { name: 'Replace all' }).click();
    await expect.poll(() => page.getByText('Replaced 2 places.').count()).toBe(1);
    await expect.poll(() => count.textContent()).toBe('Not found');
    expect(await segmentText(segments().first())).toBe('omega beta omega gamma delta');
    await page.getByRole('button', { name: 'Close find' }).click();
  });

  it('adds a speaker, assigns a segment to them, and renames them everywhere', async () => {
    await page.getByRole('button', { name: '+ Add speaker' }).click();
    const name = page.getByLabel('Name of speaker 1');
    await expect.poll(() => name.inputValue()).toBe('Speaker 1');
    await pickSpeaker(page, 1, 'Speaker 1');
    await name.fill('Ada');
    await name.press('Enter');
    await expect.poll(() => speakerOfSegment(page, 1).textContent()).toBe('Ada');
    expect(await speakerOfSegment(page, 2).textContent()).toBe('No speaker');
  });

  it('a speaker button opens the list from the keyboard; Escape, twice, gives the focus back to the button, unchanged', async () => {
    const focused = (l: ReturnType<typeof speakerOfSegment>) => l.evaluate((el) => el === document.activeElement);
    await speakerOfSegment(page, 2).focus();
    await page.keyboard.press('Enter');
    const list = page.getByLabel('Speaker of segment 2', { exact: true });
    await expect.poll(() => list.evaluate((el) => el.tagName === 'SELECT' && el === document.activeElement)).toBe(true);
    expect(await list.locator('option').allTextContents()).toEqual(['No speaker', 'Ada']);
    // The first Escape closes the opened list, as for any select; the second leaves the select.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect.poll(() => speakerOfSegment(page, 2).count()).toBe(1);
    expect(await focused(speakerOfSegment(page, 2))).toBe(true);
    expect(await speakerOfSegment(page, 2).textContent()).toBe('No speaker');
  });

  it('saves with Ctrl+S, and the saved text survives a reload of the page', async () => {
    await page.getByRole('heading', { level: 2 }).click();
    await page.keyboard.press('Control+s');
    // Online, it says only that it saved: no "when online" while the service is reached.
    await expect.poll(() => page.getByText('Saved.', { exact: true }).count()).toBe(1);
    await page.reload();
    await openSession(page, NAME);
    await expect.poll(() => segmentText(segments().first())).toBe('omega beta omega gamma delta');
    expect(await speakerOfSegment(page, 1).textContent()).toBe('Ada');
    await page.waitForFunction(() => (document.querySelector('audio')?.readyState ?? 0) >= 1, undefined, { timeout: 20_000 });
  });

  it('asks before a destructive document action', async () => {
    const actions = page.getByRole('group', { name: 'Document actions' });
    await actions.getByRole('button', { name: 'Document' }).click();
    await page.screenshot({ path: join(SHOTS, 'editor-menu.png') });
    await page.getByRole('menuitem', { name: 'Clear text…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clear the text?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'editor-confirm.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await segmentText(segments().first())).toBe('omega beta omega gamma delta');
  });

  it('renames the document from its menu, and offers the options of the chosen export format', async () => {
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Document' }).click();
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename document' });
    await dialog.getByLabel('Name').fill('editor demo, checked');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => page.getByRole('tab', { name: /^Transcript · editor demo, checked/ }).count()).toBe(1);

    await page.getByRole('button', { name: 'Format options' }).click();
    const options = page.getByRole('group', { name: /^Options for/ });
    await page.getByLabel('Export format').selectOption('vtt');
    expect(await options.getByLabel('Speaker names').locator('option').allTextContents()).toContain('Voice tags');
    expect(await options.getByLabel('Caption rules').count()).toBe(1);
    await page.getByLabel('Export format').selectOption('txt');
    expect(await options.getByLabel('Timestamps').count()).toBe(1);
    expect(await options.getByLabel('Caption rules').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'editor-export-options.png') });
    await page.getByRole('button', { name: 'Format options' }).click();
  });

  it('edits captions: split at the cursor, refuses a cue time that would overlap, shows rule problems', async () => {
    await page.getByRole('tab', { name: /^Captions/ }).click();
    const cues = page.getByRole('list', { name: 'Captions' }).locator(':scope > li');
    await expect.poll(() => cues.count()).toBeGreaterThan(0);
    const before = await cues.count();

    const text = page.getByLabel('Text of cue 1', { exact: true });
    await fillField(text, 'one two three four');
    await text.press('Home');
    for (let i = 0; i < 'one two '.length; i++) await text.press('ArrowRight');
    await cues.first().getByRole('button', { name: 'Split at cursor' }).click();
    await expect.poll(() => cues.count()).toBe(before + 1);
    expect(await fieldValue(page.getByLabel('Text of cue 1', { exact: true }))).toBe('one two');
    expect(await fieldValue(page.getByLabel('Text of cue 2', { exact: true }))).toBe('three four');

    const end1 = page.getByLabel('End of cue 1', { exact: true });
    const start2 = await fieldValue(page.getByLabel('Start of cue 2', { exact: true }));
    const endBefore = await fieldValue(end1);
    const [m, s] = start2.split(':');
    const later = Number(m) * 60 + Number(s) + 0.5;
    await fillField(end1, `${Math.floor(later / 60)}:${(later % 60).toFixed(3).padStart(6, '0')}`);
    await end1.press('Enter');
    const problem = cues.first().getByRole('alert');
    await expect.poll(() => problem.textContent()).toMatch(/overlap the next cue, which starts at/);
    expect(await end1.getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: join(SHOTS, 'editor-captions.png') });
    // Nothing changed in the document: the refused time puts back the stored one on Escape.
    await end1.press('Escape');
    expect(await fieldValue(end1)).toBe(endBefore);
    expect(await problem.count()).toBe(0);

    const start1 = page.getByLabel('Start of cue 1', { exact: true });
    await fillField(start1, '-0:01');
    await start1.press('Enter');
    await expect.poll(() => problem.textContent()).toBe('Times cannot be negative.');
    await start1.press('Escape');
    await fillField(end1, '0:00.000');
    await end1.press('Enter');
    await expect.poll(() => problem.textContent()).toBe('The start must come before the end.');
    await end1.press('Escape');

    // The caption rules are checked on every change; the split cues are short, and say so.
    await page.getByLabel('Caption rules profile').selectOption('bbc-like');
    await expect.poll(() => page.locator('.rules-summary').textContent()).toMatch(/problem|follow the rules/);
    await expect.poll(() => page.getByRole('list', { name: /^Rule problems in cue/ }).count()).toBeGreaterThan(0);

    await cues.first().getByRole('button', { name: 'Merge with next' }).click();
    await expect.poll(() => cues.count()).toBe(before);
    await page.getByRole('button', { name: 'Fix what is fixable' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: /^Fixed/ }).count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'editor-captions-merged.png') });
  });

  it('searches every document and opens the hit at its moment in the media', async () => {
    await page.getByRole('tab', { name: /^Transcript/ }).click();
    await expect.poll(async () => (await drawnWords(page)).map((w) => w.text)).toContain('gamma');
    const gamma = (await wordTimes()).find((w) => w.text === 'gamma')!;
    await setMediaTime(0);
    const search = page.getByRole('searchbox', { name: 'Search all transcripts' });
    await search.fill('gamma');
    const results = page.getByRole('region', { name: 'Search results' });
    await expect.poll(() => results.getByRole('button').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'editor-search.png') });
    await results.getByRole('button').first().click();
    await expect.poll(async () => Math.abs((await page.evaluate(() => document.querySelector('audio')!.currentTime * 1000)) - gamma.start)).toBeLessThan(5);
    await expect.poll(async () => (await playing().textContent())?.trim()).toBe('gamma');
  });

  it('keeps the playing word in view, and stops following once the person scrolls', async () => {
    // A short window, so that the last word is below the document's scrolling area: the tallest
    // height at which it is (the small-window layout gives the document more room).
    const scroller = page.locator('.doc-scroll');
    const words = (await wordTimes()).filter((w) => w.end - w.start >= 40);
    const overflows = () =>
      scroller.evaluate((el) => {
        const texts = el.querySelectorAll('.segment .seg-text');
        if (!texts.length) return false;
        const text = document.createRange();
        text.selectNodeContents(texts[texts.length - 1]);
        return Array.from(text.getClientRects()).at(-1)!.top > el.getBoundingClientRect().bottom;
      });
    for (const height of [430, 400, 380, 360, 340, 320, 300]) {
      await page.setViewportSize({ width: 1280, height });
      if (await expect.poll(overflows, { timeout: 2000 }).toBe(true).then(() => true, () => false)) break;
    }
    expect(await overflows()).toBe(true);
    const top = () => scroller.evaluate((el) => el.scrollTop);
    const mid = (w: WordTime) => (w.start + w.end) / 2;
    await setMediaTime(mid(words[0]));
    await expect.poll(top).toBe(0);
    await setMediaTime(mid(words[words.length - 1]));
    await expect.poll(top).toBeGreaterThan(0);

    // The person scrolls back up: following stops, and playback no longer moves the page.
    await scroller.hover();
    await page.mouse.wheel(0, -1000);
    await expect.poll(top).toBe(0);
    const follow = page.getByRole('button', { name: 'Follow playback' });
    await expect.poll(() => follow.count()).toBe(1);
    await setMediaTime(mid(words[words.length - 2]));
    await expect.poll(async () => (await playing().textContent())?.trim()).toBe(words[words.length - 2].text);
    await page.waitForTimeout(300);
    expect(await top()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'editor-follow.png') });

    await follow.click();
    await expect.poll(top).toBeGreaterThan(0);
    await expect.poll(() => follow.count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
