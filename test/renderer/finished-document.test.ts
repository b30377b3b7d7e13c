/**
 * A document marked finished is read-only until reopened: the changes that do not go
 * through the editor's locked history. End to end in real Chromium against the app in browser mode
 * and its local service, on real speech (two phrases) the service transcribed and cut captions
 * from. Finished, the Document menu shows Reset, Clear text, Timecode offset, Shift all times and
 * Rebuild captions greyed with the reason, and trying them changes nothing on the service; find
 * finds but offers no replace; Space and K play and pause from inside a read-only cue. Reopened,
 * the same items work and reach the service.
 */
import { fieldValue, isReadOnly } from '../helpers/fields';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { FINISHED_REFUSAL } from '../../common/ipc/finished';
import type { DocumentBody } from '../../common/transcript';
import { appAndBrowserPerFile, shootLooks, submitSignIn } from '../helpers/ui';
import { drawnWords } from '../helpers/words';
import { openCompletedSession, spokenSessionAndPage, syncUntil } from './look-fixture';

const NAME = 'finished-document.wav';
const SHOTS = '/tmp/shots/finished-rest';
const STT = '/api/v3/speech-to-text';
/** Typed and not saved before Finalize: marking finished keeps it (a finished document takes no save after). */
const LAST_EDIT = 'the last edit before finishing';

const run = appAndBrowserPerFile();
let page: Page;
let sessionId: string;
let jwt: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ jwt, sessionId, page } = await spokenSessionAndPage(run, NAME, pageErrors));
}, 120_000);

interface StoredDocument {
  finished: boolean;
  timecode_offset: string;
  document?: DocumentBody;
}

/** The session's document of a kind as the service stores it. */
async function stored(kind: 'transcript' | 'caption'): Promise<StoredDocument> {
  const res = await fetch(`${run.app.serviceUrl}${STT}/session/${sessionId}/document?include_content=true`, { headers: { authorization: `Bearer ${jwt}` } });
  expect(res.ok).toBe(true);
  const docs = ((await res.json()) as { result: StoredDocument[] }).result;
  const doc = docs.find((d) => d.document?.content.kind === kind);
  expect(doc).toBeDefined();
  return doc!;
}

const actions = () => page.getByRole('group', { name: 'Document actions' });
const button = (name: string) => actions().getByRole('button', { name, exact: true });
const notice = () => page.getByRole('status').filter({ hasText: 'marked finished, so it is read-only' });
const menuItem = (name: string) => page.getByRole('menuitem', { name, exact: true });
const mediaPaused = () => page.evaluate(() => document.querySelector('audio')!.paused);

/** Opens the Document menu (every action but Share, which is also in it when the window is narrow). */
async function openMenu(): Promise<void> {
  await actions().getByRole('button', { name: 'Document' }).click();
  await page.getByRole('menu', { name: 'Document' }).waitFor({ timeout: 10_000 });
}

/** Chooses an action from the Document menu. */
async function chooseAction(name: string): Promise<void> {
  await openMenu();
  await menuItem(name).click();
}

/** Clicks even when disabled (as a person can), which must do nothing. */
const tryClick = (l: Locator) => l.click({ force: true });

/** Asks for a sync and waits until nothing is left to send. */
async function synced(): Promise<void> {
  await syncUntil(page, () => page.locator('.sync .pending').count()).toBe(0);
}

async function finalize(): Promise<void> {
  await chooseAction('Finalize');
  await notice().waitFor({ timeout: 20_000 });
}

describe('a finished document: the Document menu, find, and playback keys', () => {
  it('Finalize saves an unsaved edit first, then marks the document finished', async () => {
    await page.goto(await run.app.newUrl());
    await submitSignIn(page);
    await openCompletedSession(page, NAME);
    await page.locator('.segment .seg-text').first().dblclick();
    await page.getByLabel('Segment text').fill(LAST_EDIT);
    await page.getByLabel('Segment text').press('Enter');
    await expect.poll(() => page.getByText('Unsaved changes').count()).toBe(1);
    await finalize();
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    await syncUntil(page, async () => (await stored('transcript')).finished).toBe(true);
    const t = (await stored('transcript')).document!.content;
    expect(t.kind === 'transcript' && t.segments[0].words.map((w) => w.text.trim()).join(' ')).toBe(LAST_EDIT);
    expect(pageErrors).toEqual([]);
  }, 300_000);

  it('finished, Reset, Clear text, Timecode offset and Shift all times are shown greyed with the reason, and trying them changes nothing', async () => {
    const before = await stored('transcript');

    await openMenu();
    for (const name of ['Reset…', 'Clear text…']) {
      expect(await menuItem(name).getAttribute('aria-disabled')).toBe('true');
      expect(await menuItem(name).getAttribute('title')).toBe(FINISHED_REFUSAL);
      await tryClick(menuItem(name));
    }
    // What does not change the document stays open.
    for (const name of ['Reopen', 'Copy…', 'Delete…']) expect(await menuItem(name).getAttribute('aria-disabled')).toBeNull();
    expect(await button('Share…').isDisabled()).toBe(false);
    for (const name of ['Timecode offset…', 'Shift all times…']) {
      expect(await menuItem(name).getAttribute('aria-disabled')).toBe('true');
      expect(await menuItem(name).getAttribute('title')).toBe(FINISHED_REFUSAL);
      await tryClick(menuItem(name));
    }
    expect(await menuItem('Rename…').getAttribute('aria-disabled')).toBeNull();
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByText('Unsaved changes').count()).toBe(0);

    await synced();
    const after = await stored('transcript');
    expect(after.finished).toBe(true);
    expect(after.timecode_offset).toBe(before.timecode_offset);
    expect(after.document).toEqual(before.document);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('finished, find finds and offers no replace', async () => {
    const word = (await drawnWords(page))[0].text;
    await page.getByRole('heading', { level: 2 }).click();
    await page.keyboard.press('Control+f');
    const find = page.getByRole('search', { name: 'Find' });
    await find.getByRole('searchbox', { name: 'Find' }).fill(word);
    await expect.poll(() => find.getByRole('status').textContent()).toMatch(/found/);
    expect(await find.getByRole('textbox', { name: 'Replace with' }).count()).toBe(0);
    expect(await find.getByRole('button', { name: 'Replace all' }).count()).toBe(0);
    await shootLooks(page, SHOTS, 'finished-find');
    await find.getByRole('button', { name: 'Close find' }).click();
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('the menu open on the finished document, light and dark, wide and narrow', async () => {
    const menu = page.getByRole('menu', { name: 'Document' });
    const closeMenu = async () => {
      if ((await menu.count()) === 0) return;
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached', timeout: 10_000 });
    };
    // At each size the menu is opened afresh, checked, and shot with an item hovered.
    await shootLooks(page, SHOTS, 'finished-menu', async () => {
      await closeMenu();
      await openMenu();
      await menuItem('Shift all times…').hover();
      for (const name of ['Reset…', 'Clear text…', 'Timecode offset…', 'Shift all times…']) expect(await menuItem(name).getAttribute('aria-disabled')).toBe('true');
      expect(await menuItem('Reopen').getAttribute('aria-disabled')).toBeNull();
    });
    await closeMenu();
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('finished captions: Rebuild is greyed, and Space and K play and pause from inside a read-only cue', async () => {
    await page.getByRole('tab', { name: /^Captions/ }).click();
    const cue = page.getByLabel('Text of cue 1', { exact: true });
    await cue.waitFor({ timeout: 20_000 });
    await finalize();
    await openMenu();
    expect(await menuItem('Rebuild captions from transcript').getAttribute('aria-disabled')).toBe('true');
    expect(await menuItem('Rebuild captions from transcript').getAttribute('title')).toBe(FINISHED_REFUSAL);
    await page.keyboard.press('Escape');

    await page.waitForFunction(() => (document.querySelector('audio')?.readyState ?? 0) >= 1, undefined, { timeout: 30_000 });
    expect(await isReadOnly(cue)).toBe(true);
    const text = await fieldValue(cue);
    await cue.click();
    expect(await mediaPaused()).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(mediaPaused, { timeout: 10_000 }).toBe(false);
    await page.keyboard.press('k');
    await expect.poll(mediaPaused, { timeout: 10_000 }).toBe(true);
    expect(await fieldValue(cue)).toBe(text);
    expect(await cue.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('reopened, the timecode offset and Clear text work and reach the service; replace is back', async () => {
    await page.getByRole('tab', { name: /^Transcript/ }).click();
    await page.locator('.segment .seg-text').first().waitFor({ timeout: 20_000 });
    await notice().getByRole('button', { name: 'Reopen to edit' }).click();
    await notice().waitFor({ state: 'detached', timeout: 20_000 });
    await openMenu();
    await expect.poll(() => menuItem('Clear text…').getAttribute('aria-disabled')).toBeNull();
    expect(await menuItem('Clear text…').getAttribute('title')).toBe('Remove every word, keep the times');
    expect(await menuItem('Timecode offset…').getAttribute('aria-disabled')).toBeNull();
    await menuItem('Timecode offset…').click();
    const offset = page.getByRole('dialog', { name: 'Timecode offset' });
    await offset.getByRole('textbox').fill('01:00:00:00');
    await offset.getByRole('button', { name: 'Set offset' }).click();
    await syncUntil(page, async () => (await stored('transcript')).timecode_offset).toBe('01:00:00:00');

    await chooseAction('Clear text…');
    await page.getByRole('dialog', { name: 'Clear the text?' }).getByRole('button', { name: 'Clear text' }).click();
    const words = async () => {
      const c = (await stored('transcript')).document!.content;
      return c.kind === 'transcript' ? c.segments.flatMap((s) => s.words).filter((w) => w.text.trim() !== '').length : -1;
    };
    await syncUntil(page, words).toBe(0);
    expect((await stored('transcript')).finished).toBe(false);

    await page.getByRole('heading', { level: 2 }).click();
    await page.keyboard.press('Control+f');
    expect(await page.getByRole('search', { name: 'Find and replace' }).getByRole('textbox', { name: 'Replace with' }).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
