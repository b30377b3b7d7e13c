/**
 * Review tools in real Chromium against the app and its local service: low-confidence words marked
 * with the threshold from settings (live as Preferences changes it), N / Shift+N going to the
 * next or previous one (scrolled to through the virtualized list when its row is not rendered,
 * media seeked, word selected), and two speakers merged and renamed in one undoable edit.
 * A real session (espeak-ng speech transcribed by pocketsphinx, whose word confidences the service
 * stores) and the 3-hour transcript with a few words given low confidence.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { threeHourTranscript } from '../../bench/formats.bench';
import type { DocumentBody, TranscriptContent, Word } from '../../common/transcript';
import { LOCAL_DEMO } from '../helpers/app';
import { serviceLogin } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { appAndBrowserPerFile, batchKey, shootLooks, submitSignIn, uploadWav } from '../helpers/ui';
import { openCompletedSession, uploadDocument } from './look-fixture';
import { clickWord, drawnWords, hoveredText, pointAtWord } from '../helpers/words';

const SHOTS = '/tmp/shots/review';
const SPOKEN = 'review-speech.wav';
const BIG = 'review-three-hours.json';
const STT = '/api/v3/speech-to-text';

const run = appAndBrowserPerFile();
let page: Page;
let jwt: string;
let spokenSession: string;
const pageErrors: string[] = [];

// The 3-hour transcript, every word sure but three, far apart and far from the top.
const big: TranscriptContent = threeHourTranscript();
const N = big.segments.length;
const UNSURE = [
  { segment: 600, word: 1, confidence: 0.2 },
  { segment: N - 40, word: 0, confidence: 0.3 },
  { segment: N - 5, word: 2, confidence: 0.1 },
];
for (const s of big.segments) for (const w of s.words) w.confidence = 0.9;
for (const u of UNSURE) big.segments[u.segment].words[u.word].confidence = u.confidence;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  jwt = await serviceLogin(run.app.serviceUrl, LOCAL_DEMO);
  const wav = readFileSync(await speechWav('the weather is nice today and the sun is shining over the quiet harbour'));
  spokenSession = await uploadWav(run.app.serviceUrl, await batchKey(run.app.serviceUrl, 'e2e-review'), SPOKEN, wav);
  await uploadDocument(run.app.serviceUrl, jwt, BIG, { document_type: 'transcript', metadata: {}, content: big });
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
}, 120_000);

const transcript = () => page.getByRole('list', { name: 'Transcript' });
const row = (i: number) => transcript().locator(`:scope > li[data-index="${i}"]`);
const speakerNames = () => page.getByRole('group', { name: 'Speakers' }).locator('input.speaker-name');

const openSession = (name: string) => openCompletedSession(page, name);

/** Sets the threshold the way a person does: Preferences, as a percentage. */
async function setThreshold(percent: number): Promise<void> {
  await page.keyboard.press('Control+,');
  const prefs = page.getByRole('dialog', { name: 'Preferences' });
  await prefs.waitFor({ timeout: 10_000 });
  const field = prefs.getByLabel(/Mark words recognised/);
  await field.fill(String(percent));
  await field.press('Enter');
  await expect.poll(() => (JSON.parse(readFileSync(join(run.app.dataDir, 'settings.json'), 'utf8')) as { lowConfidenceThreshold?: number }).lowConfidenceThreshold).toBe(percent / 100);
  await page.keyboard.press('Escape');
  await prefs.waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Each rendered word of the (short) transcript in reading order: whether it is marked, and whether it is selected. */
const renderedWords = () => drawnWords(page);

/** The words the service stored for the spoken session (pocketsphinx's confidences). */
async function storedWords(): Promise<Word[]> {
  const res = await fetch(`${run.app.serviceUrl}${STT}/session/${spokenSession}/document?include_content=true`, { headers: { authorization: `Bearer ${jwt}` } });
  expect(res.ok).toBe(true);
  const docs = ((await res.json()) as { result: { document?: DocumentBody }[] }).result;
  const t = docs.map((d) => d.document?.content).find((c): c is TranscriptContent => c?.kind === 'transcript');
  expect(t).toBeDefined();
  return t!.segments.flatMap((s) => s.words);
}

describe('review tools', () => {
  let words: Word[] = [];
  /** A percentage between the spoken words' confidences, set in the first test. */
  let threshold = 50;

  it('marks the words under the threshold from settings, and follows the setting live', async () => {
    await page.goto(await run.app.newUrl());
    await submitSignIn(page);
    await openSession(SPOKEN);
    words = await storedWords();
    expect(words.length).toBeGreaterThan(4);
    const confidences = words.map((w) => w.confidence);
    // Pocketsphinx's posteriors differ from word to word: a threshold between them splits the words.
    const sorted = [...new Set(confidences.map((c) => Math.floor(c * 100)))].sort((a, b) => a - b);
    expect(sorted.length).toBeGreaterThan(1);
    const middle = sorted[Math.floor(sorted.length / 2)];
    for (const percent of [0, middle, 100]) {
      await setThreshold(percent);
      const expected = confidences.map((c) => c < percent / 100);
      await expect.poll(async () => (await renderedWords()).map((w) => w.unsure), { timeout: 10_000 }).toEqual(expected);
    }
    // The middle one marks some words and not others.
    await setThreshold(middle);
    threshold = middle;
    expect(confidences.some((c) => c < middle / 100) && confidences.some((c) => c >= middle / 100)).toBe(true);
  }, 240_000);

  it('tints the word under the pointer, and an unsure one says its confidence', async () => {
    const drawn = await renderedWords();
    const rows = transcript().locator(':scope > li');
    const sure = drawn.find((w) => !w.unsure)!;
    const doubtful = drawn.find((w) => w.unsure)!;
    await pointAtWord(rows.nth(sure.row), sure.word);
    await expect.poll(() => hoveredText(page)).toEqual([sure.text]);
    expect(await rows.nth(sure.row).locator('.seg-text').getAttribute('title')).toMatch(/^Click a word to go there/);
    await pointAtWord(rows.nth(doubtful.row), doubtful.word);
    await expect.poll(() => hoveredText(page)).toEqual([doubtful.text]);
    const index = drawn.indexOf(doubtful);
    await expect.poll(() => rows.nth(doubtful.row).locator('.seg-text').getAttribute('title')).toBe(`Low confidence (${Math.round(words[index].confidence * 100)}%)`);
    await page.mouse.move(2, 2);
    await expect.poll(() => hoveredText(page)).toEqual([]);
  });

  it('N goes to the next low-confidence word: selects it and seeks the media there; Shift+N goes back', async () => {
    await page.waitForFunction(() => (document.querySelector('audio')?.readyState ?? 0) >= 1, undefined, { timeout: 20_000 });
    const unsure = words.flatMap((w, i) => (w.confidence < threshold / 100 ? [i] : []));
    expect(unsure.length).toBeGreaterThan(0);
    // From a word that is not marked (clicked: selected, media there), N goes to the first marked word after it.
    const start = words.findIndex((w) => w.confidence >= threshold / 100);
    expect(start).toBeGreaterThanOrEqual(0);
    const clicked = (await renderedWords())[start];
    await clickWord(transcript().locator(':scope > li').nth(clicked.row), clicked.word);
    const target = unsure.find((i) => i > start) ?? unsure[0];
    const selected = async () => (await renderedWords()).findIndex((w) => w.cursor);
    const mediaMs = () => page.evaluate(() => Math.round(document.querySelector('audio')!.currentTime * 1000));
    await expect.poll(selected).toBe(start);
    await page.keyboard.press('n');
    await expect.poll(selected, { timeout: 10_000 }).toBe(target);
    await expect.poll(async () => Math.abs((await mediaMs()) - words[target].start_ms), { timeout: 10_000 }).toBeLessThan(30);
    // Shift+N from there: the marked word before it, or round to the last one.
    const before = unsure.filter((i) => i < target);
    const back = before.at(-1) ?? unsure.at(-1)!;
    await page.keyboard.press('Shift+N');
    await expect.poll(selected, { timeout: 10_000 }).toBe(back);
    await expect.poll(async () => Math.abs((await mediaMs()) - words[back].start_ms), { timeout: 10_000 }).toBeLessThan(30);
    await shootLooks(page, SHOTS, 'spoken-unsure');
  }, 60_000);

  it('in the 3-hour transcript, N and Shift+N reach words whose rows are not rendered, select them and go round', async () => {
    await setThreshold(50);
    await openSession(BIG);
    expect(await transcript().locator(':scope > li').first().getAttribute('aria-setsize')).toBe(String(N));
    const [a, b, c] = UNSURE;
    expect(await row(a.segment).count()).toBe(0);
    const selectedAt = async (u: { segment: number; word: number }) =>
      (await drawnWords(page, `[aria-label="Transcript"] > li[data-index="${u.segment}"]`)).some((w) => w.word === u.word && w.cursor && w.unsure);
    const visible = (i: number) =>
      page.evaluate((index) => {
        const el = document.querySelector(`[aria-label="Transcript"] > li[data-index="${index}"]`);
        const box = document.querySelector('.doc-scroll')!.getBoundingClientRect();
        if (!el) return false;
        const r = el.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom;
      }, i);
    for (const [key, to] of [['n', a], ['n', b], ['Shift+N', a], ['Shift+N', c], ['n', a]] as const) {
      await page.keyboard.press(key);
      await expect.poll(() => visible(to.segment), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => selectedAt(to), { timeout: 10_000 }).toBe(true);
      // One word is selected, the one gone to.
      expect(await transcript().locator('.word.cursor').count()).toBe(1);
    }
    expect(await transcript().locator(':scope > li').count()).toBeLessThan(80);
  }, 240_000);

  it('merges two speakers into one, renamed, everywhere in one edit; one undo puts both back', async () => {
    const spk3 = big.segments.findIndex((s, i) => i > UNSURE[0].segment && s.speaker_id === 'spk-3');
    await row(spk3).waitFor({ timeout: 10_000 });
    const speakerOf = (i: number) => row(i).locator('.speaker-select').textContent();
    expect(await speakerOf(spk3)).toBe('Speaker 3');
    await page.getByRole('button', { name: 'Merge speakers…' }).click();
    const form = page.getByRole('form', { name: 'Merge speakers' });
    await form.getByLabel('Speaker to merge away').selectOption({ label: 'Speaker 3' });
    await form.getByLabel('Speaker to keep').selectOption({ label: 'Speaker 1' });
    await form.getByLabel('Name after merging').fill('Ann Smith');
    await shootLooks(page, SHOTS, 'merge-speakers');
    await form.getByRole('button', { name: 'Merge' }).click();
    await expect.poll(() => speakerNames().evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(['Ann Smith', 'Speaker 2', 'Speaker 4']);
    expect(await form.count()).toBe(0);
    expect(await speakerOf(spk3)).toBe('Ann Smith');
    // A row of Speaker 1 and one of Speaker 3 far from here (not rendered before): both are Ann Smith now.
    await page.locator('.doc-scroll').evaluate((el) => el.scrollTo(0, 0));
    await row(2).waitFor({ timeout: 15_000 });
    expect(await speakerOf(0)).toBe('Ann Smith');
    expect(await speakerOf(2)).toBe('Ann Smith');
    expect(await speakerOf(1)).toBe('Speaker 2');
    expect(await page.getByRole('button', { name: 'Undo', exact: true }).getAttribute('title')).toMatch(/merge speakers/i);

    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    await expect.poll(() => speakerNames().evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 3', 'Speaker 4']);
    expect(await speakerOf(0)).toBe('Speaker 1');
    expect(await speakerOf(2)).toBe('Speaker 3');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('a document marked finished is read-only until reopened: no editing controls, no undo or redo; going to words still works', async () => {
    const names = () => speakerNames().evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    const notice = page.getByRole('status').filter({ hasText: 'marked finished' });
    const edits = () => transcript().getByRole('button', { name: /^Edit text of segment/ }).count();
    expect(await edits()).toBeGreaterThan(0);
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Document' }).click();
    await page.getByRole('menuitem', { name: 'Finalize', exact: true }).click();
    await notice.waitFor({ timeout: 20_000 });
    expect(await edits()).toBe(0);
    expect(await page.getByRole('button', { name: 'Merge speakers…' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: '+ Add speaker' }).count()).toBe(0);
    expect(await speakerNames().first().getAttribute('readonly')).not.toBeNull();
    expect(await row(2).locator('.speaker-select').isDisabled()).toBe(true);
    await row(2).locator('.seg-text').dblclick();
    expect(await transcript().getByRole('textbox', { name: 'Segment text' }).count()).toBe(0);
    // The merge undone in the last test could be redone: not while finished.
    expect(await page.getByRole('button', { name: 'Redo', exact: true }).isDisabled()).toBe(true);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+Shift+Z');
    // The selection is still on the first marked word (the jumps above): N goes on to the second.
    await page.keyboard.press('n');
    await expect.poll(() => row(UNSURE[1].segment).locator(`.word[data-word="${UNSURE[1].word}"]`).evaluate((el) => el.classList.contains('cursor')), { timeout: 15_000 }).toBe(true);
    expect(await names()).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 3', 'Speaker 4']);
    await shootLooks(page, SHOTS, 'finished-read-only');

    await notice.getByRole('button', { name: 'Reopen to edit' }).click();
    await notice.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(edits).toBeGreaterThan(0);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(names).toEqual(['Ann Smith', 'Speaker 2', 'Speaker 4']);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('the merge reaches the captions: saved, the caption document following the transcript is rebuilt with one name', async () => {
    const names = () => speakerNames().evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    const tab = (name: RegExp) => page.getByRole('tab', { name });
    const save = async () => {
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('Control+s');
      await expect.poll(() => page.getByText(/^Saved/).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    };
    const srt = async () => {
      await tab(/^Captions/).click();
      await page.getByRole('list', { name: 'Captions' }).locator(':scope > li').first().waitFor({ timeout: 30_000 });
      await page.getByLabel('Export format').selectOption('srt');
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }).catch(async (e: Error) => { await page.screenshot({ path: join(SHOTS, 'export-timed-out.png') }); throw e; }), page.getByRole('button', { name: 'Export', exact: true }).click()]);
      return readFileSync((await download.path())!, 'utf8');
    };
    // Back to four speakers (the redo above merged them), saved: the captions name Speaker 3.
    await page.keyboard.press('Control+z');
    await expect.poll(names).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 3', 'Speaker 4']);
    await save();
    expect(await srt()).toMatch(/^Speaker 3: /m);

    await tab(/^Transcript/).click();
    await page.getByRole('button', { name: 'Merge speakers…' }).click();
    const form = page.getByRole('form', { name: 'Merge speakers' });
    await form.getByLabel('Speaker to merge away').selectOption({ label: 'Speaker 3' });
    await form.getByLabel('Speaker to keep').selectOption({ label: 'Speaker 1' });
    await form.getByLabel('Name after merging').fill('Ann Smith');
    await form.getByRole('button', { name: 'Merge' }).click();
    await expect.poll(names).toEqual(['Ann Smith', 'Speaker 2', 'Speaker 4']);
    await save();
    const after = await srt();
    expect(after).toMatch(/^Ann Smith: /m);
    expect(after).not.toMatch(/^Speaker [13]: /m);
    expect(after).toMatch(/^Speaker 2: /m);
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
