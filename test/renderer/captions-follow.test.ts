/**
 * Captions follow the transcript, end to end in Chromium against the app in browser mode and its
 * local service: real speech (two phrases, so two segments) transcribed by the service, which
 * also cuts the captions. A cue of the second phrase is edited by hand in the caption editor; a
 * word and the speaker of the first phrase are corrected in the transcript and saved; the caption
 * editor then says which cues were rebuilt, and its SRT export has the correction, the speaker
 * and the hand edit. The explicit "Rebuild captions from transcript" answers from the document menu.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fieldValue, fillField } from '../helpers/fields';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { twoPhraseWav } from '../helpers/speech';
import { appAndBrowserPerFile, batchKey, pickSpeaker, submitSignIn, uploadWav } from '../helpers/ui';
import { openCompletedSession } from './look-fixture';

const NAME = 'captions-follow.wav';
const SHOTS = '/tmp/shots/captions-follow';
const CORRECTED = 'Kestrel';
const HAND_EDIT = '[laughs]';

const run = appAndBrowserPerFile();
let page: Page;

/** A session made with an API key, as a batch client makes one; the service transcribes it and cuts its captions. */
async function createSession(serviceUrl: string): Promise<void> {
  await uploadWav(serviceUrl, await batchKey(serviceUrl, 'e2e-captions-follow'), NAME, readFileSync(await twoPhraseWav('captions-follow')));
}

const segments = () => page.getByRole('list', { name: 'Transcript' }).locator(':scope > li');
const cues = () => page.getByRole('list', { name: 'Captions' }).locator(':scope > li');
/** Each cue's text, drawn as text or (the focused one) in its textarea. */
const cueTexts = () =>
  page
    .getByRole('list', { name: 'Captions' })
    .getByRole('textbox', { name: /^Text of cue/ })
    .evaluateAll((els) => els.map((e) => (e instanceof HTMLTextAreaElement ? e.value : (e.textContent ?? '')).replace(/\s+/g, ' ').trim()));

async function save(): Promise<void> {
  await page.getByRole('heading', { level: 2 }).click();
  await page.keyboard.press('Control+s');
  await expect.poll(() => page.getByText(/^Saved/).count(), { timeout: 20_000 }).toBeGreaterThan(0);
}

/** Exports the open document as SRT (browser mode: a download) and returns the file's text. */
async function exportSrt(): Promise<string> {
  await page.getByLabel('Export format').selectOption('srt');
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  return readFileSync((await download.path())!, 'utf8');
}

beforeAll(async () => {
  await createSession(run.app.serviceUrl);
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);

describe('captions follow the transcript', () => {
  it('signs in and opens the transcribed session', async () => {
    await page.goto(await run.app.newUrl());
    await submitSignIn(page);
    await openCompletedSession(page, NAME);
    await expect.poll(() => segments().count(), { timeout: 20_000 }).toBe(2);
  }, 150_000);

  it('a word and a speaker corrected in the transcript reach the SRT; a hand edit to another cue is kept', async () => {
    // A hand edit to the last cue (the second phrase, which the correction does not touch).
    await page.getByRole('tab', { name: /^Captions/ }).click();
    await expect.poll(() => cues().count(), { timeout: 20_000 }).toBeGreaterThan(1);
    const last = await cues().count();
    const lastText = page.getByLabel(`Text of cue ${last}`, { exact: true });
    await fillField(lastText, `${await fieldValue(lastText)} ${HAND_EDIT}`);
    await lastText.press('Tab');
    await save();
    const firstCueBefore = (await cueTexts())[0];

    // The correction: the second word of the first segment, and the segment's speaker.
    await page.getByRole('tab', { name: /^Transcript/ }).click();
    await expect.poll(() => segments().count(), { timeout: 20_000 }).toBe(2);
    await segments().first().locator('.seg-text').dblclick();
    const box = page.getByLabel('Segment text');
    const words = (await fieldValue(box)).trim().split(/\s+/);
    expect(words.length).toBeGreaterThanOrEqual(2);
    expect(words).not.toContain(CORRECTED);
    words[1] = CORRECTED;
    await fillField(box, words.join(' '));
    await box.press('Enter');
    await page.getByRole('button', { name: '+ Add speaker' }).click();
    const name = page.getByLabel('Name of speaker 1');
    await pickSpeaker(page, 1, 'Speaker 1');
    await name.fill('Ada');
    await name.press('Enter');
    await save();

    await page.getByRole('tab', { name: /^Captions/ }).click();
    const notice = page.getByRole('status').filter({ hasText: /rebuilt from the transcript/ });
    await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toMatch(/^\d+ cues? rebuilt from the transcript; your own edits kept\./);
    const texts = await cueTexts();
    expect(texts[0]).not.toBe(firstCueBefore);
    expect(texts.join(' | ')).toContain(CORRECTED);
    expect(texts[texts.length - 1]).toContain(HAND_EDIT);
    await page.screenshot({ path: join(SHOTS, 'notice-1280x800.png') });
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: join(SHOTS, 'notice-800x600.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SHOTS, 'notice-800x600-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });

    const srt = await exportSrt();
    expect(srt).toMatch(new RegExp(`Ada: \\S+ ${CORRECTED}\\b`));
    expect(srt).toContain(HAND_EDIT);
  }, 120_000);

  it('"Rebuild captions from transcript" in the document menu answers, and keeps the hand edit', async () => {
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Document' }).click();
    await page.screenshot({ path: join(SHOTS, 'menu-1280x800.png') });
    await page.getByRole('menuitem', { name: 'Rebuild captions from transcript' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'The captions already match the transcript.' }).count(), { timeout: 20_000 }).toBe(1);
    const texts = await cueTexts();
    expect(texts[texts.length - 1]).toContain(HAND_EDIT);
    expect(texts.join(' | ')).toContain(CORRECTED);

    // The transcript tab's menu has no such action.
    await page.getByRole('tab', { name: /^Transcript/ }).click();
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Document' }).click();
    expect(await page.getByRole('menuitem', { name: 'Rebuild captions from transcript' }).count()).toBe(0);
    await page.keyboard.press('Escape');
  }, 60_000);
});
