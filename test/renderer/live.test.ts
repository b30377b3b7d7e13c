/**
 * Live transcription end to end in Chromium with a fake microphone (Chromium plays a WAV of known
 * speech as the input, in a loop): Live, Start, a partial shows, final words show, Stop, and the
 * session opens in the editor and plays. Then the same with the service killed mid-recording and
 * started again by the app's supervisor: recording goes on, the app resumes the stream, and the
 * one session has the whole recording and a transcript with no word heard twice. And once more
 * with the service's port taken meanwhile, so it comes back on another: the stream follows it.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromiumWithMicrophone, startApp, type RunningApp } from '../helpers/app';
import { heldPorts, portOf } from '../helpers/held-ports';
import { playPast } from '../helpers/player';
import { LIVE_SPEECH, placedSpeech } from '../helpers/speech';
import { shootLooks, signIn } from '../helpers/ui';
import { drawnWords, wordTimes } from '../helpers/words';
import { openServiceDb } from '../main/helpers/seed';

const SHOTS = '/tmp/shots/live-rest';
let app: RunningApp;

/** The Live view in light and dark, at 1280×800 and 800×600. */
const shoot = (page: Page, name: string) => shootLooks(page, SHOTS, name);
let browser: Browser;
const ports = heldPorts();

beforeAll(async () => {
  const speech = await placedSpeech(LIVE_SPEECH);
  [app, browser] = await Promise.all([startApp(), launchChromiumWithMicrophone(speech.path)]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await ports.release();
});

async function openLive(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page, await app.newUrl());
  await page.getByRole('button', { name: 'Live', exact: true }).click();
  await expect.poll(() => page.locator('.live-view select').nth(1).inputValue(), { timeout: 30_000 }).not.toBe('');
  return page;
}

/** The one live session's transcript words, read from the editor as drawn. */
const drawn = (page: Page) => wordTimes(page);

/** The embedded service's live sessions, read from its database. */
function liveSessions(): { session_id: string; status: string; duration: number | null }[] {
  const db = openServiceDb(join(app.dataDir, 'local-service'));
  try {
    return db.prepare("SELECT session_id, status, duration FROM sessions WHERE filename LIKE 'Live %'").all() as { session_id: string; status: string; duration: number | null }[];
  } finally {
    db.close();
  }
}

/** Where Stop was pressed (ms of recording), as the Live view said. */
let stoppedAtMs = 0;

async function stopAndOpen(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect.poll(() => page.locator('.live-view').getAttribute('data-status'), { timeout: 30_000 }).toMatch(/finishing|finished/);
  const m = /(?:Stopped at|Finished:) (\d+):(\d\d)/.exec((await page.locator('.live-notice').textContent()) ?? '');
  expect(m).not.toBeNull();
  stoppedAtMs = (Number(m![1]) * 60 + Number(m![2])) * 1000;
  // Generous: after a restart the service hears the missed audio again before the last words, on 2 shared cores.
  await expect.poll(() => drawnWords(page).then((w) => w.length), { timeout: 300_000 }).toBeGreaterThan(3);
}

describe('live transcription in the app', () => {
  it('Live, Start: a partial, then final words; Stop: the session opens and plays', async () => {
    const page = await openLive();
    await page.locator('.live-view').getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => page.locator('.live-partial').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.live-final').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(page.locator('.live-notice').textContent()).resolves.toMatch(/Recording \d+:\d\d/);
    await shoot(page, 'recording');
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.locator('.live-notice').textContent()).toMatch(/^Paused at/);
    await shoot(page, 'paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => page.locator('.live-notice').textContent()).toMatch(/^Recording/);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => page.locator('.live-view').getAttribute('data-status'), { timeout: 120_000 }).toMatch(/finishing|finished/);
    await shoot(page, 'finishing');
    await expect.poll(() => drawnWords(page).then((w) => w.length), { timeout: 120_000 }).toBeGreaterThan(3);
    await shoot(page, 'finished-session');
    expect((await drawn(page)).map((w) => w.text).join(' ')).toMatch(/weather|today|report|office/);
    await playPast(page, 500);
    await page.close();
  }, 240_000);

  it('the service stops mid-recording and comes back: one session, the whole recording, no word twice', async () => {
    const before = liveSessions();
    const page = await openLive();
    await page.locator('.live-view').getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => page.locator('.live-final').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    // The embedded service is this app's child: kill it; the supervisor starts it again.
    const servicePid = Number(execFileSync('pgrep', ['-P', String(app.child.pid), '-f', 'service/cli.js']).toString().trim().split('\n')[0]);
    process.kill(servicePid, 'SIGKILL');
    await expect.poll(() => page.locator('.live-view').getAttribute('data-connection'), { timeout: 30_000 }).toBe('reconnecting');
    await expect.poll(() => page.locator('.live-notice').textContent(), { timeout: 5_000 }).toMatch(/Reconnecting/);
    await shoot(page, 'reconnecting');
    await expect.poll(() => page.locator('.live-view').getAttribute('data-connection'), { timeout: 90_000 }).toBe('connected');
    const finalsBefore = await page.locator('.live-final').count();
    await expect.poll(() => page.locator('.live-final').count(), { timeout: 60_000 }).toBeGreaterThan(finalsBefore);
    await stopAndOpen(page);
    const recorded = await page.evaluate(() => document.querySelector('.live-view .live-notice')?.textContent ?? '');
    const words = await drawn(page);
    // Each word once: none starts before the one before it ends (a word heard twice would overlap it in time).
    for (let i = 1; i < words.length; i++) expect(words[i].start, JSON.stringify(words.slice(Math.max(0, i - 3), i + 1))).toBeGreaterThan(words[i - 1].start);
    // One live session more on the service, and it has the whole recording (duration in seconds).
    const after = liveSessions();
    expect(after.length).toBe(before.length + 1);
    const made = after.find((s) => !before.some((b) => b.session_id === s.session_id))!;
    expect(made.status).toBe('completed');
    expect(made.duration! * 1000, recorded).toBeGreaterThanOrEqual(stoppedAtMs - 1000);
    await playPast(page, 500);
    await page.close();
  }, 600_000);

  it('the service comes back on another port (its own was taken) mid-recording: the recording goes on there, in the same session', async () => {
    const before = liveSessions();
    const page = await openLive();
    await page.locator('.live-view').getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => page.locator('.live-final').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const port = portOf(app.serviceUrl);
    const servicePid = Number(execFileSync('pgrep', ['-P', String(app.child.pid), '-f', 'service/cli.js']).toString().trim().split('\n')[0]);
    process.kill(servicePid, 'SIGKILL');
    await ports.hold(port);
    await expect.poll(() => page.locator('.live-view').getAttribute('data-connection'), { timeout: 30_000 }).toBe('reconnecting');
    // The app follows the service to its new port; the stream carries on there instead of ending.
    await expect.poll(() => page.locator('.live-view').getAttribute('data-connection'), { timeout: 90_000 }).toBe('connected');
    expect(await page.locator('.live-view').getAttribute('data-status')).toBe('recording');
    const finalsBefore = await page.locator('.live-final').count();
    await expect.poll(() => page.locator('.live-final').count(), { timeout: 60_000 }).toBeGreaterThan(finalsBefore);
    await stopAndOpen(page);
    const after = liveSessions();
    expect(after.length).toBe(before.length + 1);
    const made = after.find((s) => !before.some((b) => b.session_id === s.session_id))!;
    expect(made.status).toBe('completed');
    expect(made.duration! * 1000).toBeGreaterThanOrEqual(stoppedAtMs - 1000);
    await page.close();
  }, 600_000);
});
