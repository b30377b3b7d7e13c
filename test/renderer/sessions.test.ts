/**
 * The walking skeleton end to end: sessions created through the local service over HTTP appear in
 * the app's session list in real Chromium after signing in with the demo account.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncState } from '../../common/ipc';
import { launchChromium, LOCAL_DEMO, startApp, type RunningApp } from '../helpers/app';
import { speechWav } from '../helpers/speech';
import { ROOT, serviceLogin } from '../helpers/service';
import { batchKey, shootLooks, submitSignIn, uploadWav } from '../helpers/ui';
import { bridgeClient } from '../security/bridge-wire';
import { waitForCompleted } from './look-fixture';

let app: RunningApp;
let browser: Browser;
const names = ['board-meeting.wav', 'customer-interview.wav', 'podcast-episode-12.wav'];

async function createSessions(serviceUrl: string): Promise<void> {
  const key = await batchKey(serviceUrl, 'e2e');
  const wav = readFileSync(await speechWav('hello from the end to end test'));
  for (const name of names) await uploadWav(serviceUrl, key, name, wav);
}

beforeAll(async () => {
  app = await startApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The words of a session's transcript as the service stored them, lowercased. */
async function serviceWords(serviceUrl: string, q: string): Promise<string[]> {
  const auth = { authorization: `Bearer ${await serviceLogin(serviceUrl, LOCAL_DEMO)}` };
  const sessions = (await (await fetch(`${serviceUrl}/api/v3/speech-to-text/session?q=${q}`, { headers: auth })).json()) as { result: { session_id: string }[] };
  const url = `${serviceUrl}/api/v3/speech-to-text/session/${sessions.result[0].session_id}/document?include_content=true`;
  const docs = (await (await fetch(url, { headers: auth })).json()) as { result: { document: { content: { kind: string; segments?: { words: { text: string }[] }[] } } }[] };
  const transcript = docs.result.find((d) => d.document.content.kind === 'transcript')!;
  return transcript.document.content.segments!.flatMap((s) => s.words.map((w) => w.text.toLowerCase()));
}

/** A second bridge client beside the page: calls, and every sync state main publishes from now on (the bridge sends events to every client). */
async function syncWatcher() {
  const bridge = await bridgeClient(Number(new URL(app.url).port), await app.newSession());
  const states: SyncState[] = [];
  bridge.ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { event?: string; payload?: SyncState };
    if (frame.event === 'sync.state' && frame.payload) states.push(frame.payload);
  });
  return { states, call: bridge.call, close: () => bridge.ws.close() };
}

describe('browser mode', () => {
  it('signs in with the demo account and lists the sessions made through the service', async () => {
    await createSessions(app.serviceUrl);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(await app.newUrl());
    await submitSignIn(page);
    const list = page.getByRole('list', { name: 'Sessions' });
    for (const name of names) await expect.poll(() => list.getByText(name).count(), { timeout: 30_000 }).toBe(1);
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-results/e2e-sessions.png') });
  });

  it('opens a finished session: transcript words from real speech, playback, an edit saved, an export downloaded', async () => {
    // The app is still signed in from the previous test: a new window goes straight to the list.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    await page.goto(await app.newUrl());
    const list = page.getByRole('list', { name: 'Sessions' });
    // Transcription runs in the service; ask for a sync until the list shows the session completed.
    await waitForCompleted(page, 'board-meeting.wav');
    await list.getByRole('button', { name: /board-meeting\.wav/ }).click();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await expect.poll(() => transcript.textContent(), { timeout: 20_000 }).toMatch(/\w+/);
    // The editor shows every word the service recognised, in order; real speech is only partly heard
    // (pocketsphinx's error rate on espeak is about 60%), so one key word of the phrase is required.
    const recognised = await serviceWords(app.serviceUrl, 'board-meeting');
    const heard = (await transcript.textContent())!.toLowerCase();
    expect(recognised.length).toBeGreaterThan(0);
    expect(heard.replace(/\s+/g, '')).toContain(recognised.join(''));
    expect(['hello', 'end', 'test'].some((w) => recognised.includes(w))).toBe(true);
    expect(await page.locator('audio').count()).toBe(1);

    // Edit the first segment and save: the cache takes it at once (and the outbox sends it).
    await page.locator('.segment .seg-text').first().dblclick();
    await page.getByLabel('Segment text').fill('hello from the edited transcript');
    await page.getByRole('heading', { level: 2 }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText(/^Saved/).count()).toBe(1);
    await expect.poll(() => transcript.textContent()).toContain('edited transcript');

    await page.getByLabel('Export format').selectOption('srt');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    const srt = readFileSync((await download.path())!, 'utf8');
    expect(download.suggestedFilename()).toMatch(/\.srt$/);
    expect(srt).toMatch(/^1\r?\n\d{2}:\d{2}:\d{2},\d{3} --> /);
    expect(srt).toContain('edited transcript');
    await page.screenshot({ path: join(ROOT, 'test-results/e2e-editor.png') });

    // The outbox pushes the edit to the service.
    const token = await serviceLogin(app.serviceUrl, LOCAL_DEMO);
    const sessions = (await (await fetch(`${app.serviceUrl}/api/v3/speech-to-text/session?q=board-meeting`, { headers: { authorization: `Bearer ${token}` } })).json()) as { result: { session_id: string }[] };
    const sid = sessions.result[0].session_id;
    await expect
      .poll(async () => {
        await page.getByTitle('Sync now').click();
        const docs = await fetch(`${app.serviceUrl}/api/v3/speech-to-text/session/${sid}/document?include_content=true`, { headers: { authorization: `Bearer ${token}` } });
        return JSON.stringify(await docs.json());
      }, { timeout: 30_000, interval: 1000 })
      .toContain('"text":"edited"');
  });

  it('shows an edit the service refused as not sent, keeps it, and sends it again on retry', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(await app.newUrl());
    const list = page.getByRole('list', { name: 'Sessions' });
    await waitForCompleted(page, 'customer-interview.wav');
    await list.getByRole('button', { name: /customer-interview\.wav/ }).click();
    await expect.poll(() => page.locator('.segment .seg-text').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    // Another device deletes the transcript on the service; this app has not heard yet. Its captions
    // stay there, so their rebuild after the edit (main/captions/follow.ts) is sent and only the edit is refused.
    const token = await serviceLogin(app.serviceUrl, LOCAL_DEMO);
    const auth = { authorization: `Bearer ${token}` };
    const sessions = (await (await fetch(`${app.serviceUrl}/api/v3/speech-to-text/session?q=customer-interview`, { headers: auth })).json()) as { result: { session_id: string }[] };
    const sid = sessions.result[0].session_id;
    const docs = (await (await fetch(`${app.serviceUrl}/api/v3/speech-to-text/session/${sid}/document`, { headers: auth })).json()) as { result: { id: string; type: string }[] };
    const transcript = docs.result.find((d) => d.type === 'document');
    expect(docs.result.some((d) => d.type === 'caption')).toBe(true);
    expect((await fetch(`${app.serviceUrl}/api/v3/speech-to-text/session/${sid}/document/${transcript!.id}`, { method: 'DELETE', headers: auth })).ok).toBe(true);
    // The edit is saved here, then refused: the badge says so, with the reason, and the text stays.
    await page.locator('.segment .seg-text').first().dblclick();
    await page.getByLabel('Segment text').fill('an edit the service cannot take');
    await page.getByRole('heading', { level: 2 }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTitle('Sync now').click();
    const blocked = page.getByRole('button', { name: /1 not sent — retry/ });
    await expect.poll(() => blocked.count(), { timeout: 20_000 }).toBe(1);
    expect(await blocked.getAttribute('title')).toMatch(/no longer has this document/);
    const notice = page.getByRole('status').filter({ hasText: 'could not be sent' });
    await expect.poll(() => notice.textContent()).toMatch(/Your changes to this document could not be sent: the service no longer has this document .*They are kept here/);
    expect(await page.getByRole('tab', { name: /Transcript/ }).textContent()).toContain('not sent');
    expect(await page.getByRole('tab', { name: /Captions/ }).textContent()).not.toContain('not sent');
    await page.screenshot({ path: join(ROOT, 'test-results/e2e-blocked.png') });
    // A plain sync leaves the blocked edit alone: the run is clean (nothing in lastError), and the
    // badge still says why the edit was not sent, from the reason kept with it; a page opened now too.
    const sync = await syncWatcher();
    try {
      expect((await sync.call('sync.now', {})).value).toMatchObject({ lastError: null, blocked: 1, blockedReasons: [expect.stringMatching(/no longer has this document/)] });
      const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await fresh.goto(await app.newUrl());
      const freshBlocked = fresh.getByRole('button', { name: /1 not sent — retry/ });
      await expect.poll(() => freshBlocked.count(), { timeout: 20_000 }).toBe(1);
      expect(await freshBlocked.getAttribute('title')).toMatch(/^A change to ".*" \(save\) could not be sent: the service no longer has this document/);
      await fresh.close();
      expect(await blocked.getAttribute('title')).toMatch(/no longer has this document/);
      expect(await notice.count()).toBe(1);
      // "Send again" sends it again (a run starts with it queued, not blocked); refused again (the
      // document is still gone), it is kept and the badge says why.
      const resent = () => sync.states.some((s) => s.blocked === 0 && s.pending > 0) && sync.states.at(-1)?.blocked === 1 && sync.states.at(-1)?.running === false;
      sync.states.length = 0;
      await notice.getByRole('button', { name: 'Send again' }).click();
      await expect.poll(resent, { timeout: 20_000 }).toBe(true);
      await expect.poll(() => blocked.getAttribute('title'), { timeout: 20_000 }).toMatch(/no longer has this document/);
      // The badge's retry does the same for every blocked change.
      sync.states.length = 0;
      await blocked.click();
      await expect.poll(resent, { timeout: 20_000 }).toBe(true);
      await expect.poll(() => blocked.getAttribute('title'), { timeout: 20_000 }).toMatch(/no longer has this document/);
      expect(await blocked.count()).toBe(1);
    } finally {
      sync.close();
    }
    await expect.poll(() => page.getByRole('list', { name: 'Transcript' }).textContent()).toContain('an edit the service cannot take');
    // The user gives the edit up, after a confirmation: the service no longer has the document, so it goes here too.
    await notice.getByRole('button', { name: 'Discard my changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard your unsent changes?' });
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => page.getByRole('tab', { name: /Transcript/ }).count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => blocked.count(), { timeout: 20_000 }).toBe(0);
  });

  it('opens an address once: a second browser with it is told what to do, the first keeps working after reloads, and a fresh address opens', async () => {
    const url = await app.newUrl();
    const first = await browser.newContext();
    const page = await first.newPage();
    await page.goto(url);
    const list = page.getByRole('list', { name: 'Sessions' });
    await expect.poll(() => list.count(), { timeout: 30_000 }).toBe(1);
    expect(page.url()).not.toContain('token=');

    const second = await browser.newContext();
    const intruder = await second.newPage();
    await intruder.goto(url);
    await expect.poll(() => intruder.getByRole('alert').textContent(), { timeout: 20_000 }).toMatch(/used already.*Press Enter in the terminal where S2T Desktop runs/);
    expect(await intruder.getByRole('list', { name: 'Sessions' }).count()).toBe(0);
    await shootLooks(intruder, '/tmp/shots/remainders', 'address-used');

    await page.reload();
    await expect.poll(() => list.count(), { timeout: 30_000 }).toBe(1);
    // The same address typed again in the admitted tab (a full load, not a jump within the page): its session stays.
    await page.goto('about:blank');
    await page.goto(url);
    await expect.poll(() => list.count(), { timeout: 30_000 }).toBe(1);

    const admitted = await second.newPage();
    await admitted.goto(await app.newUrl());
    await expect.poll(() => admitted.getByRole('list', { name: 'Sessions' }).count(), { timeout: 30_000 }).toBe(1);
    await first.close();
    await second.close();
  });

  it('refuses a page opened without an address printed by S2T Desktop', async () => {
    const page = await browser.newPage();
    await page.goto(app.url.replace(/#token=.*$/, ''));
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/address printed by S2T Desktop/);
  });
});
