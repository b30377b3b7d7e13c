/**
 * A caption document marked finished is read-only until reopened, end to end in real Chromium
 * against the app in browser mode and its local service: real speech (two phrases, so two cues)
 * transcribed by the service, which cuts its captions and draws its waveform. Marked finished, the
 * caption editor shows the same notice as the transcript editor; its text and times cannot be typed
 * in, no split, merge or rule fix is offered, a press on a cue's edge on the waveform seeks instead
 * of grabbing it, and a timing key says why it does nothing; find (without replace) and export still work. Reopened,
 * an edit is saved, reaches the service, and is there after a reload.
 */
import { readFileSync } from 'node:fs';
import { fieldValue, fillField, isReadOnly } from '../helpers/fields';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaptionContent, DocumentBody } from '../../common/transcript';
import { appAndBrowserPerFile, shootLooks, signIn, submitSignIn } from '../helpers/ui';
import { openCompletedSession, spokenSessionAndPage, syncUntil } from './look-fixture';

const NAME = 'captions-finished.wav';
const SHOTS = '/tmp/shots/captions-lock';
const STT = '/api/v3/speech-to-text';
/** Too many characters for one line and too fast to read: a rule problem with one-click fixes. */
const LONG = 'this caption line is far too long to read in so short a time on screen';
const REOPENED_EDIT = 'edited after reopening';

const run = appAndBrowserPerFile();
let page: Page;
let sessionId: string;
let jwt: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ jwt, sessionId, page } = await spokenSessionAndPage(run, NAME, pageErrors, { acceptDownloads: true }));
}, 120_000);

const captions = () => page.getByRole('list', { name: 'Captions' });
const text = (n: number) => page.getByLabel(`Text of cue ${n}`, { exact: true });
const startField = (n: number) => page.getByLabel(`Start of cue ${n}`, { exact: true });
const endField = (n: number) => page.getByLabel(`End of cue ${n}`, { exact: true });
/** "0:03.250" in ms. */
const ms = (clock: string) => Math.round(clock.split(':').reduce((acc, part) => acc * 60 + Number(part), 0) * 1000);
const startOf = async (n: number) => ms(await fieldValue(startField(n)));
const endOf = async (n: number) => ms(await fieldValue(endField(n)));
const mediaMs = () => page.evaluate(() => Math.round(document.querySelector('audio')!.currentTime * 1000));
const notice = () => page.getByRole('status').filter({ hasText: 'marked finished, so it is read-only' });
const problems = () => page.getByRole('list', { name: 'Caption problems' });
/** A place outside every field, so keys are the document's and not a field's. */
const away = () => page.getByRole('heading', { level: 2 }).click();

async function save(): Promise<void> {
  await away();
  await page.keyboard.press('Control+s');
  await expect.poll(() => page.getByText(/^Saved/).count(), { timeout: 20_000 }).toBeGreaterThan(0);
}

/** The caption document's cues as the service stores them. */
async function storedCues(): Promise<string[]> {
  const res = await fetch(`${run.app.serviceUrl}${STT}/session/${sessionId}/document?include_content=true`, { headers: { authorization: `Bearer ${jwt}` } });
  expect(res.ok).toBe(true);
  const docs = ((await res.json()) as { result: { document?: DocumentBody }[] }).result;
  const c = docs.map((d) => d.document?.content).find((x): x is CaptionContent => x?.kind === 'caption');
  return c ? c.cues.map((q) => q.lines.join(' ')) : [];
}

/** Opens the session's captions and waits for its cues and its waveform's peaks. */
async function openCaptions(): Promise<void> {
  await openCompletedSession(page, NAME);
  await page.getByRole('tab', { name: /^Captions/ }).click();
  await expect.poll(() => captions().locator(':scope > li').count(), { timeout: 20_000 }).toBe(2);
  await expect.poll(() => page.locator('canvas.wave').getAttribute('data-peaks'), { timeout: 20_000 }).not.toBe('0');
  await page.waitForFunction(() => (document.querySelector('audio')?.readyState ?? 0) >= 1, undefined, { timeout: 30_000 });
}

describe('a finished caption document', () => {
  it('opens the captions editable, with a rule problem and its one-click fixes', async () => {
    await page.goto(await run.app.newUrl());
    await submitSignIn(page);
    await openCaptions();
    expect(await isReadOnly(text(1))).toBe(false);
    expect(await captions().getByRole('button', { name: 'Split at cursor' }).count()).toBe(2);
    // A problem to fix, saved, so the finished document has one to show.
    await fillField(text(1), LONG);
    await save();
    await expect.poll(() => problems().textContent()).toMatch(/Cue 1.*characters a second/);
    expect(await problems().locator('button.fix').count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Fix what is fixable' }).count()).toBe(1);
  }, 240_000);

  it('marked finished: text and times read-only, typing changes nothing, no split, merge or fixes', async () => {
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Document' }).click();
    await page.getByRole('menuitem', { name: 'Finalize', exact: true }).click();
    await notice().waitFor({ timeout: 20_000 });
    expect(await notice().getByRole('button', { name: 'Reopen to edit' }).count()).toBe(1);

    for (const field of [text(1), text(2), startField(1), endField(1), startField(2), endField(2)]) expect(await isReadOnly(field)).toBe(true);
    const before = await fieldValue(text(2));
    const s1 = await startOf(1);
    await text(2).click();
    await page.keyboard.type(' typed while finished');
    await startField(1).click();
    await page.keyboard.press('End');
    await page.keyboard.type('9');
    await page.keyboard.press('Enter');
    await away();
    expect(await fieldValue(text(2))).toBe(before);
    expect(await startOf(1)).toBe(s1);
    expect(await page.getByText('Unsaved changes').count()).toBe(0);

    expect(await captions().getByRole('button', { name: 'Split at cursor' }).count()).toBe(0);
    expect(await captions().getByRole('button', { name: 'Merge with next' }).count()).toBe(0);
    // The problem is still listed (a reviewer reads it), with no fix to click.
    await expect.poll(() => problems().textContent()).toMatch(/Cue 1.*characters a second/);
    expect(await problems().locator('button.fix').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Fix what is fixable' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('marked finished: a press on a cue edge seeks rather than drags, and a timing key says why it does nothing', async () => {
    const hint = page.getByRole('group', { name: 'Waveform' }).getByRole('status');
    await expect.poll(() => hint.textContent()).toMatch(/click to go there$/);
    expect(await hint.textContent()).not.toMatch(/drag/);
    const canvas = page.locator('canvas.wave');
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(() => page.locator('.wave-scroll').getAttribute('data-pps')).toBe('50');
    const box = (await canvas.boundingBox())!;
    const view = await canvas.evaluate((c) => ({ scroll: c.parentElement!.parentElement!.scrollLeft, pps: Number(c.parentElement!.parentElement!.dataset.pps) }));
    const xOf = (t: number) => box.x + (t / 1000) * view.pps - view.scroll;
    const [e1, s2] = [await endOf(1), await startOf(2)];
    expect(xOf(e1)).toBeGreaterThan(box.x);
    expect(xOf(e1)).toBeLessThan(box.x + box.width);
    await page.mouse.move(xOf(e1), box.y + 40);
    await page.mouse.down();
    // Editable, this grabs the edge (no seek); finished, it is a click on the waveform: the media goes there.
    await expect.poll(async () => Math.abs((await mediaMs()) - e1), { timeout: 10_000 }).toBeLessThanOrEqual(1000 / view.pps + 1);
    await page.mouse.move(xOf(e1 + 300), box.y + 40, { steps: 4 });
    expect(await canvas.evaluate((c) => c.style.cursor)).not.toBe('ew-resize');
    await page.mouse.up();
    expect(await endOf(1)).toBe(e1);
    expect(await startOf(2)).toBe(s2);

    await text(2).click();
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'marked finished: reopen it to retime' }).count()).toBe(1);
    expect(await startOf(2)).toBe(s2);
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('marked finished: find and export still work, replace is not offered; the look in light and dark', async () => {
    const word = (await fieldValue(text(2))).split(/\s+/)[0];
    await away();
    await page.keyboard.press('Control+f');
    const find = page.getByRole('search', { name: 'Find' });
    await find.getByRole('searchbox', { name: 'Find' }).fill(word);
    await expect.poll(() => find.getByRole('status').textContent()).toMatch(/found/);
    await expect.poll(() => captions().locator(':scope > li.found').count()).toBeGreaterThan(0);
    // Find only: replace is not offered on a read-only document (FindBar's readOnly).
    expect(await find.getByRole('textbox', { name: 'Replace with' }).count()).toBe(0);
    expect(await find.getByRole('button', { name: 'Replace all' }).count()).toBe(0);
    await find.getByRole('button', { name: 'Close find' }).click();

    await page.getByLabel('Export format').selectOption('srt');
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: 'Export', exact: true }).click()]);
    const srt = readFileSync((await download.path())!, 'utf8');
    expect(srt).toContain(LONG.split(' ').slice(0, 3).join(' '));

    // At each size: the waveform redrawn to its new width, the captions at their top.
    await shootLooks(page, SHOTS, 'finished-captions', async () => {
      await expect.poll(() => page.locator('canvas.wave').evaluate((c: HTMLCanvasElement) => c.width === c.parentElement!.parentElement!.clientWidth)).toBe(true);
      await page.locator('.doc-scroll').evaluate((el) => el.scrollTo(0, 0));
    });
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('reopened: editable again, an edit is saved, reaches the service and is there after a reload', async () => {
    await notice().getByRole('button', { name: 'Reopen to edit' }).click();
    await notice().waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => isReadOnly(text(2))).toBe(false);
    expect(await isReadOnly(startField(2))).toBe(false);
    expect(await captions().getByRole('button', { name: 'Split at cursor' }).count()).toBe(2);
    expect(await problems().locator('button.fix').count()).toBeGreaterThan(0);

    await fillField(text(2), REOPENED_EDIT);
    await save();
    await syncUntil(page, storedCues).toContain(REOPENED_EDIT);

    await page.reload();
    await signIn(page, await run.app.newUrl());
    await openCaptions();
    await expect.poll(() => fieldValue(text(2))).toBe(REOPENED_EDIT);
    expect(await isReadOnly(text(2))).toBe(false);
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
