/**
 * A conflict resolved side by side, in real Chromium against the app and its local service: the
 * same segment edited in the app and on the service (another device, over HTTP) makes a conflict
 * copy; the copy is compared with its original segment by segment, picked per segment (mouse and
 * keyboard), and applied: the copy is gone, the original holds the picks, here and on the service.
 */
import { describe, expect, it } from 'vitest';
import { plainText, type DocumentBody, type DocumentContent, type TranscriptContent } from '../../common/transcript/model';
import { LOCAL_DEMO } from '../helpers/app';
import { serviceLogin } from '../helpers/service';
import { appAndBrowserPerFile, shootLooks, signIn } from '../helpers/ui';
import { segment, transcript } from '../main/helpers/fixtures';
import { axeProblems, syncUntil, uploadDocument } from './look-fixture';

const SHOTS = '/tmp/shots/conflicts';
const NAME = 'conflict-interview.json';
const STT = '/api/v3/speech-to-text';
const run = appAndBrowserPerFile();

interface ServiceDoc {
  id: string;
  type: 'document' | 'caption';
  filename: string;
  document: DocumentBody | null;
}

/** The demo account's own calls, as another device of the same user. */
async function device(serviceUrl: string) {
  const jwt = await serviceLogin(serviceUrl, LOCAL_DEMO);
  const auth = { authorization: `Bearer ${jwt}` };
  const json = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${serviceUrl}${path}`, { ...init, headers: { ...auth, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
    expect(res.ok, `${init.method ?? 'GET'} ${path}: ${res.status}`).toBe(true);
    return res.json() as Promise<{ result: unknown }>;
  };
  return {
    async upload(texts: string[]): Promise<void> {
      await uploadDocument(serviceUrl, jwt, NAME, { document_type: 'transcript', metadata: {}, content: transcript(texts) });
    },
    async sessionId(): Promise<string> {
      const r = (await json(`${STT}/session?q=${encodeURIComponent(NAME)}`)) as { result: { session_id: string }[] };
      return r.result[0].session_id;
    },
    async documents(sessionId: string): Promise<ServiceDoc[]> {
      return ((await json(`${STT}/session/${sessionId}/document?include_content=true`)) as { result: ServiceDoc[] }).result;
    },
    async update(sessionId: string, documentId: string, content: DocumentContent): Promise<void> {
      await json(`${STT}/session/${sessionId}/document/${documentId}`, { method: 'PUT', body: JSON.stringify({ document: { document_type: 'transcript', metadata: {}, content } }) });
    },
  };
}

const lines = (d: ServiceDoc) => plainText(d.document!.content).split('\n');

describe('conflicts', () => {
  it('resolves a conflict side by side: picks per segment, the copy goes, the original and the service hold the picks', async () => {
    const other = await device(run.app.serviceUrl);
    await other.upload(['alpha one two', 'beta three four', 'gamma five six', 'delta seven eight']);
    const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, await run.app.newUrl());

    const list = page.getByRole('list', { name: 'Sessions' });
    const row = list.getByRole('button', { name: new RegExp(`${NAME.replace('.', '\\.')}.*Completed`, 'i') });
    await syncUntil(page, () => row.count(), { timeout: 120_000, interval: 1000 }).toBe(1);
    await row.click();
    const segments = page.getByRole('list', { name: 'Transcript' }).locator('.segment');
    await expect.poll(() => segments.count(), { timeout: 30_000 }).toBe(4);
    const sessionId = await other.sessionId();
    const transcripts = async () => (await other.documents(sessionId)).filter((d) => d.type === 'document');
    const [original] = await transcripts();

    // Mine: segments 1 and 2, typed here and not saved yet. Theirs: segments 2 and 3, on the
    // service just before the save, so the push finds the service moved on.
    for (const [i, text] of [[0, 'alpha MINE'], [1, 'beta MINE']] as const) {
      await segments.nth(i).locator('.seg-text').dblclick();
      await page.getByLabel('Segment text').fill(text);
      await page.getByLabel('Segment text').press('Enter');
    }
    await other.update(sessionId, original.id, transcript(['alpha one two', 'beta THEIRS', 'gamma THEIRS', 'delta seven eight']));
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    // The push merges, keeps theirs where both changed and makes a conflict copy of mine.
    const notice = page.getByRole('status').filter({ hasText: 'This document was changed elsewhere' });
    await syncUntil(page, () => notice.count()).toBe(1);
    const tabs = page.getByRole('tablist', { name: 'Documents' }).getByRole('tab');
    const copyTab = tabs.filter({ hasText: /Transcript · conflict-interview \(conflict copy [\d-]+ [\d:]+\)/ });
    await expect.poll(() => copyTab.count()).toBe(1);
    expect(await copyTab.locator('.badge').allTextContents()).toContain('conflict copy');

    await shootLooks(page, SHOTS, 'notice');
    // Opened from the notice.
    await notice.getByRole('button', { name: 'Compare side by side and resolve' }).click();
    const view = page.getByRole('region', { name: 'Resolve conflict' });
    await expect.poll(() => view.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('conflict-title');
    // Cancel goes back to the editor; the copy's tab badge opens the view again.
    await view.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => view.count()).toBe(0);
    await expect.poll(() => notice.count()).toBe(1);
    await copyTab.locator('.badge', { hasText: 'conflict copy' }).click();
    await expect.poll(() => view.count(), { timeout: 10_000 }).toBe(1);
    // The tab row scrolled to reach the copy's badge; the selected tab is brought back into sight.
    const selectedInSight = () =>
      page.getByRole('tablist', { name: 'Documents' }).evaluate((list) => {
        const tab = list.querySelector('[aria-selected="true"]')!.getBoundingClientRect();
        const box = list.getBoundingClientRect();
        return tab.left >= box.left - 1 && tab.right <= box.right + 1;
      });
    await expect.poll(selectedInSight).toBe(true);
    const groups = view.getByRole('radiogroup');
    await expect.poll(() => groups.count()).toBe(2);
    const beta = groups.nth(0);
    const gamma = groups.nth(1);
    expect(await beta.getAttribute('aria-labelledby').then((id) => page.locator(`#${id}`).textContent())).toMatch(/Segment at 0:10.*changed on both sides/);
    expect(await gamma.getAttribute('aria-labelledby').then((id) => page.locator(`#${id}`).textContent())).toMatch(/Segment at 0:20.*changed on one side/);
    expect(await beta.getByRole('radio', { name: /Keep theirs/ }).locator('xpath=..').locator('..').textContent()).toContain('beta THEIRS');
    expect(await beta.locator('.conflict-side.ours mark').allTextContents()).toEqual(['MINE']);
    const apply = view.getByRole('button', { name: 'Apply' });
    expect(await apply.isDisabled()).toBe(true);
    await expect.poll(() => view.getByRole('status').textContent()).toBe('2 of 2 undecided');
    // The unchanged segments are there on request.
    await view.getByLabel(/Show 2 unchanged/).check();
    await expect.poll(() => view.locator('.conflict-row.equal').allTextContents()).toEqual([expect.stringContaining('alpha MINE'), expect.stringContaining('delta seven eight')]);
    await shootLooks(page, SHOTS, 'undecided');

    // A pick by mouse, on the version's text.
    await beta.getByText('beta MINE').click();
    await expect.poll(() => view.getByRole('status').textContent()).toBe('1 of 2 undecided');

    // The service changes the original again while the view is open: the sync brings it, the
    // view says its reading is stale, and comparing again shows the new difference too, keeping
    // the pick of the row that did not change.
    const now = (await transcripts())[0].document!.content as TranscriptContent;
    await other.update(sessionId, original.id, { ...now, segments: [...now.segments.slice(0, 3), segment('seg4', 30_000, 'delta LATER')] });
    const stale = view.getByRole('alert').filter({ hasText: 'changed since you opened the comparison' });
    await syncUntil(page, () => stale.count()).toBe(1);
    await stale.getByRole('button', { name: 'Compare again' }).click();
    await expect.poll(() => groups.count(), { timeout: 10_000 }).toBe(3);
    expect(await stale.count()).toBe(0);
    expect(await beta.getByRole('radio', { name: /Keep mine/ }).isChecked()).toBe(true);
    await expect.poll(() => view.getByRole('status').textContent()).toBe('2 of 3 undecided');
    const delta = groups.nth(2);

    // All mine, then by keyboard: the arrow key moves gamma's pick to theirs, space picks delta's theirs.
    await view.getByRole('button', { name: 'Keep all mine' }).click();
    await expect.poll(() => view.getByRole('status').textContent()).toBe('All 3 decided');
    await gamma.getByRole('radio', { name: /Keep mine/ }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => gamma.getByRole('radio', { name: /Keep theirs/ }).isChecked()).toBe(true);
    await delta.getByRole('radio', { name: /Keep theirs/ }).focus();
    await page.keyboard.press('Space');
    await expect.poll(() => delta.getByRole('radio', { name: /Keep theirs/ }).isChecked()).toBe(true);
    expect(await beta.getByRole('radio', { name: /Keep mine/ }).isChecked()).toBe(true);
    expect(await apply.isDisabled()).toBe(false);
    expect(await axeProblems(page)).toEqual([]);
    await shootLooks(page, SHOTS, 'decided');

    await apply.click();
    await expect.poll(() => view.count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => copyTab.count()).toBe(0);
    await expect.poll(() => segments.allTextContents().then((t) => t.map((s) => s.replace(/\s+/g, ' ')).join('|'))).toMatch(/alpha MINE.*\|.*beta MINE.*\|.*gamma THEIRS.*\|.*delta LATER/);
    expect(await notice.count()).toBe(0);

    // The next sync takes the picks and the copy's delete to the service.
    await syncUntil(page, async () => (await transcripts()).map((d) => [d.id, lines(d)]))
      .toEqual([[original.id, ['alpha MINE', 'beta MINE', 'gamma THEIRS', 'delta LATER']]]);
    expect(errors).toEqual([]);
  });
});
