/**
 * The editors at full size, in real Chromium against the app and its local service: a 3-hour
 * transcript (27,000 words in 958 segments, the exporters' fixture) put into a session in
 * upload mode. The lists are virtualized, so the DOM holds a screenful of rows; editing a row near
 * the end, undo, saving to the service, find jumping to a row that was not rendered, replace-all
 * across every row, and the captions cut from it. Playback-follow is checked on a session with real
 * media whose transcript is replaced by a long one timed within the media.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fieldValue } from '../helpers/fields';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { threeHourTranscript } from '../../bench/formats.bench';
import { findText, replaceSegmentText, type DocumentBody, type TranscriptContent } from '../../common/transcript';
import { LOCAL_DEMO } from '../helpers/app';
import { serviceLogin } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { appAndBrowserPerFile, batchKey, submitSignIn } from '../helpers/ui';
import { openCompletedSession, uploadDocument } from './look-fixture';
import { clickWord, drawnWords } from '../helpers/words';

const BIG = 'three-hours.json';
const LONG = 'follow-long.wav';
const STT = '/api/v3/speech-to-text';

const run = appAndBrowserPerFile();
let page: Page;
let jwt: string;
let apiKey: Record<string, string>;
const pageErrors: string[] = [];
const content = threeHourTranscript();
const N = content.segments.length;

async function newSession(mode: 'decode', filename: string, type: string, body: Buffer | string): Promise<string> {
  const created = await fetch(`${run.app.serviceUrl}${STT}/session`, {
    method: 'POST',
    headers: { ...apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ language: 'en', keep_source: true, session_mode: mode }),
  });
  expect(created.ok).toBe(true);
  const { result } = (await created.json()) as { result: { session_id: string } };
  const put = await fetch(`${run.app.serviceUrl}${STT}/session/${result.session_id}`, { method: 'PUT', headers: { ...apiKey, 'x-filename': filename, 'content-type': type }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  expect(put.ok).toBe(true);
  return result.session_id;
}

interface ServiceDoc {
  id: string;
  type: string;
  document?: DocumentBody;
}

async function serviceDocs(sessionId: string): Promise<ServiceDoc[]> {
  const res = await fetch(`${run.app.serviceUrl}${STT}/session/${sessionId}/document?include_content=true`, { headers: { authorization: `Bearer ${jwt}` } });
  if (!res.ok) return [];
  return ((await res.json()) as { result: ServiceDoc[] }).result;
}

const transcript = () => page.getByRole('list', { name: 'Transcript' });
const rows = () => transcript().locator(':scope > li');
const row = (id: string) => transcript().locator(`:scope > li[data-item="${id}"]`);
const textOf = async (id: string) => ((await row(id).locator('.seg-text').textContent()) ?? '').replace(/\s+/g, ' ').trim();
const scroller = () => page.locator('.doc-scroll');

/** Whether the row is drawn inside the scrolling area's visible box. */
async function inView(id: string): Promise<boolean> {
  return page.evaluate((item) => {
    const el = document.querySelector(`[data-item="${item}"]`);
    const box = document.querySelector('.doc-scroll')!.getBoundingClientRect();
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.bottom > box.top && r.top < box.bottom;
  }, id);
}

const openSession = (name: string) => openCompletedSession(page, name);

const EDITED = 'zebraquux near the end of three hours';
const near = content.segments[N - 3];
let bigSession: string;
let longSession: string;

beforeAll(async () => {
  jwt = await serviceLogin(run.app.serviceUrl, LOCAL_DEMO);
  apiKey = { 'x-svc-s2t-key': await batchKey(run.app.serviceUrl, 'e2e-editor-scale') };
  bigSession = await uploadDocument(run.app.serviceUrl, jwt, BIG, { document_type: 'transcript', metadata: {}, content });
  // A minute of media: a phrase, then silence, for a long transcript timed inside it.
  const phrase = await speechWav('following playback through a long transcript');
  const wav = join(tmpdir(), 's2t-speech', 'editor-scale-long.wav');
  execFileSync('sox', [phrase, wav, 'pad', '0', '55']);
  longSession = await newSession('decode', LONG, 'audio/wav', readFileSync(wav));
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
}, 120_000);

describe('the editors with a 3-hour document', () => {
  it('opens the transcript with a screenful of rows in the DOM', async () => {
    await page.goto(await run.app.newUrl());
    await submitSignIn(page);
    await openSession(BIG);
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(N).toBeGreaterThan(900);
    expect(await rows().first().getAttribute('aria-setsize')).toBe(String(N));
    expect(await rows().count()).toBeLessThan(60);
    expect(await page.evaluate(() => document.querySelectorAll('*').length)).toBeLessThan(2000);
  }, 200_000);

  it('types in a segment near the end, undoes and redoes it, and saves it to the service', async () => {
    await scroller().evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => row(near.id).count(), { timeout: 20_000 }).toBe(1);
    expect(await rows().count()).toBeLessThan(60);
    const original = await textOf(near.id);
    await row(near.id).locator('.seg-text').dblclick();
    const box = page.getByLabel('Segment text');
    await box.fill('');
    await box.pressSequentially(EDITED.slice(0, 8));
    await box.fill(EDITED);
    await box.press('Enter');
    await expect.poll(() => textOf(near.id)).toBe(EDITED);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => textOf(near.id)).toBe(original);
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(() => textOf(near.id)).toBe(EDITED);
    await page.getByRole('heading', { level: 2 }).click();
    await page.keyboard.press('Control+s');
    // The save rebuilds the 2,700 cues that follow this transcript in its transaction: 0.7-1.5 s on
    // this loaded machine, past expect.poll's 1 s default, so it is waited for like the service below.
    await expect.poll(() => page.getByText(/^Saved/).count(), { timeout: 60_000 }).toBe(1);
    await expect
      .poll(async () => {
        const doc = (await serviceDocs(bigSession)).find((d) => d.type === 'transcript' || d.document?.content.kind === 'transcript');
        const seg = doc?.document?.content.kind === 'transcript' ? doc.document.content.segments.find((s) => s.id === near.id) : undefined;
        return seg?.words.map((w) => w.text).join(' ');
      }, { timeout: 60_000, interval: 1000 })
      .toBe(EDITED);
  }, 120_000);

  it('finds a match in a row that was not rendered, moves there, and replaces across the whole document', async () => {
    await scroller().evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => row(content.segments[0].id).count()).toBe(1);
    expect(await row(near.id).count()).toBe(0);

    await page.getByRole('button', { name: 'Find and replace' }).click();
    const findBox = page.getByRole('searchbox', { name: 'Find', exact: true });
    await findBox.fill('zebraquux');
    await expect.poll(() => page.locator('.find-count').textContent()).toBe('1 found');
    await expect.poll(() => row(near.id).getAttribute('class'), { timeout: 20_000 }).toContain('found-here');
    await expect.poll(() => inView(near.id)).toBe(true);
    expect((await drawnWords(page, `[data-item="${near.id}"]`)).filter((w) => w.found).map((w) => w.text)).toEqual(['zebraquux']);
    await page.screenshot({ path: '/tmp/shots/editor/transcript-find-1280x800.png' });

    // Every place in the document, rendered or not: counted here from the same content.
    const edited: TranscriptContent = { ...content, segments: content.segments.map((s) => (s.id === near.id ? replaceSegmentText(s, EDITED) : s)) };
    const expected = findText(edited, 'because', { caseSensitive: false, wholeWord: true }).length;
    expect(expected).toBeGreaterThan(100);
    // A new query starts where the reader is, as a browser's find does: the first match at or
    // after the first row wholly in view (here, mid-document), wrapping to the top past the last.
    await page.getByLabel('Whole words').check();
    await scroller().evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
    const fromRow = await page.waitForFunction(() => {
      const view = document.querySelector('.doc-scroll')!.getBoundingClientRect();
      const first = Array.from(document.querySelectorAll('.segments > li')).find((li) => li.getBoundingClientRect().top >= view.top && li.getBoundingClientRect().top < view.bottom);
      return first ? Number(first.getAttribute('aria-posinset')) - 1 : null;
    });
    const from = (await fromRow.jsonValue())!;
    const all = findText(edited, 'because', { caseSensitive: false, wholeWord: true });
    const order = new Map(edited.segments.map((s, i) => [s.id, i]));
    const here = Math.max(0, all.findIndex((m) => order.get(m.item_id)! >= from)) + 1;
    expect(here).toBeGreaterThan(expected / 4);
    await findBox.fill('because');
    await expect.poll(() => page.locator('.find-count').textContent()).toBe(`${expected} found · ${here} of ${expected}`);
    await expect.poll(() => inView(all[here - 1].item_id)).toBe(true);
    expect(await row(all[here - 1].item_id).getAttribute('class')).toContain('found-here');
    await page.getByLabel('Replace with').fill('since');
    await page.getByRole('button', { name: 'Replace all' }).click();
    await expect.poll(() => page.getByText(`Replaced ${expected} places.`).count()).toBe(1);
    await expect.poll(() => page.locator('.find-count').textContent()).toBe('Not found');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.locator('.find-count').textContent()).toBe(`${expected} found · ${here} of ${expected}`);
    // From the top, the first match is the document's first; stepping back from it goes to the last, far down.
    await scroller().evaluate((el) => el.scrollTo({ top: 0 }));
    await findBox.fill('');
    await findBox.fill('because');
    await expect.poll(() => page.locator('.find-count').textContent()).toBe(`${expected} found · 1 of ${expected}`);
    await page.getByRole('button', { name: 'Previous match' }).click();
    const last = findText(edited, 'because', { caseSensitive: false, wholeWord: true }).at(-1)!;
    await expect.poll(() => inView(last.item_id), { timeout: 20_000 }).toBe(true);
    expect(await row(last.item_id).getAttribute('class')).toContain('found-here');
    expect(await rows().count()).toBeLessThan(60);
    await page.getByRole('button', { name: 'Close find' }).click();
  });

  it('splits and merges a row near the end, and renames a speaker in rows not rendered', async () => {
    const setSize = () => rows().first().getAttribute('aria-setsize');
    const last = content.segments[N - 1];
    await scroller().evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => row(last.id).count(), { timeout: 20_000 }).toBe(1);
    const before = await textOf(last.id);
    await clickWord(row(last.id), 3);
    await row(last.id).getByRole('button', { name: /^Split before/ }).click();
    await expect.poll(setSize).toBe(String(N + 1));
    expect((await textOf(last.id)).split(' ')).toHaveLength(3);
    await row(last.id).getByRole('button', { name: 'Merge with next' }).click();
    await expect.poll(setSize).toBe(String(N));
    expect(await textOf(last.id)).toBe(before);

    // Renamed at the top of the document, shown by a row at the far end that was not rendered then
    // (focus leaves the row first: the focused row stays rendered wherever the view goes).
    await page.getByRole('heading', { level: 2 }).click();
    await scroller().evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => row(last.id).count()).toBe(0);
    const speaker = content.speakers.findIndex((sp) => sp.id === last.speaker_id);
    const name = page.getByLabel(`Name of speaker ${speaker + 1}`);
    await name.fill('Dana');
    await name.press('Enter');
    await scroller().evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => row(last.id).locator('.speaker-select').textContent(), { timeout: 20_000 }).toBe('Dana');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => row(last.id).locator('.speaker-select').textContent()).toBe(`Speaker ${speaker + 1}`);
  });

  it('offers no "Follow playback" on a session with no media, and names its keys from the shortcut list', async () => {
    // A click on a word moves the position there, as playback would; scrolling away then pauses following.
    const first = content.segments[0];
    await scroller().evaluate((el) => el.scrollTo({ top: 0 }));
    await clickWord(row(first.id), 0);
    await expect.poll(() => row(first.id).getAttribute('class')).toContain('current');
    await scroller().hover();
    await page.mouse.wheel(0, 3000);
    await expect.poll(() => scroller().evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.media-missing').textContent(), { timeout: 30_000 }).toMatch(/keeps no media/);
    expect(await page.getByRole('button', { name: 'Follow playback' }).count()).toBe(0);
    const line = ((await page.locator('.shortcuts').textContent()) ?? '').replace(/\s+/g, ' ');
    expect(line).toContain('Space or K play/pause · J L back/forward 5 s');
    expect(line).toContain('N Shift+N next/previous low-confidence word · Ctrl+S save · Ctrl+Z undo');
  });

  it('opens the captions cut from it with a screenful of cues, and finds an off-screen cue', async () => {
    await page.getByRole('tab', { name: /^Captions/ }).click();
    const cues = page.getByRole('list', { name: 'Captions' }).locator(':scope > li');
    await expect.poll(() => cues.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const total = Number(await cues.first().getAttribute('aria-setsize'));
    expect(total).toBeGreaterThan(1000);
    expect(await cues.count()).toBeLessThan(60);
    // The captions were cut from the document as uploaded: step back from the first match to the last, near the end.
    await page.getByRole('button', { name: 'Find and replace' }).click();
    await page.getByRole('searchbox', { name: 'Find', exact: true }).fill('because');
    await expect.poll(() => page.locator('.find-count').textContent()).toMatch(/^\d+ found · 1 of \d+$/);
    const hit = page.locator('.cues > li.found-here');
    await expect.poll(async () => Number(await hit.getAttribute('aria-posinset'))).toBeLessThan(total / 2);
    await page.getByRole('button', { name: 'Previous match' }).click();
    await expect.poll(async () => Number(await hit.getAttribute('aria-posinset')), { timeout: 20_000 }).toBeGreaterThan(total - 30);
    expect((await fieldValue(hit.getByRole('textbox', { name: /^Text of cue/ }))).toLowerCase()).toContain('because');
    expect(await cues.count()).toBeLessThan(60);
    await page.screenshot({ path: '/tmp/shots/editor/captions-find-1280x800.png' });
    await page.getByRole('button', { name: 'Close find' }).click();
    await page.getByRole('tab', { name: /^Transcript/ }).click();
  });

  it('follows playback to a row that was not rendered', async () => {
    // Replace the transcript of the session with media by a long one timed inside its minute.
    await expect.poll(async () => (await serviceDocs(longSession)).some((d) => d.document?.content.kind === 'transcript'), { timeout: 150_000, interval: 1000 }).toBe(true);
    const doc = (await serviceDocs(longSession)).find((d) => d.document?.content.kind === 'transcript')!;
    const long = threeHourTranscript(1400, 58_000);
    const put = await fetch(`${run.app.serviceUrl}${STT}/session/${longSession}/document/${doc.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ document: { ...doc.document!, content: long } }),
    });
    expect(put.ok).toBe(true);
    await openSession(LONG);
    await expect.poll(() => rows().first().getAttribute('aria-setsize'), { timeout: 30_000 }).toBe(String(long.segments.length));
    await page.waitForFunction(() => (document.querySelector('audio')?.readyState ?? 0) >= 1, undefined, { timeout: 20_000 });
    const target = long.segments[long.segments.length - 4];
    expect(await row(target.id).count()).toBe(0);
    const word = target.words[3];
    await page.evaluate((t) => void (document.querySelector('audio')!.currentTime = t / 1000), (word.start_ms + word.end_ms) / 2);
    await expect.poll(() => row(target.id).getAttribute('class'), { timeout: 20_000 }).toContain('current');
    await expect.poll(() => inView(target.id)).toBe(true);
    expect((await page.locator('[aria-current="time"]').textContent())?.trim()).toBe(word.text);
    expect(await rows().count()).toBeLessThan(60);
    expect(pageErrors).toEqual([]);
  });

  it('keeps a screenful of rows at 1280x800 and 800x600, in both editors (screenshots)', async () => {
    await page.getByRole('list', { name: 'Sessions' }).getByRole('button', { name: /three-hours\.json/ }).click();
    await expect.poll(() => rows().first().getAttribute('aria-setsize'), { timeout: 30_000 }).toBe(String(N));
    for (const tab of ['Transcript', 'Captions']) {
      await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
      const list = page.getByRole('list', { name: tab });
      for (const [width, height] of [[1280, 800], [800, 600]]) {
        await page.setViewportSize({ width, height });
        await expect.poll(() => list.locator(':scope > li').count()).toBeGreaterThan(2);
        await page.screenshot({ path: `/tmp/shots/editor/${tab.toLowerCase()}-3h-${width}x${height}.png` });
        expect(await list.locator(':scope > li').count()).toBeLessThan(60);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
