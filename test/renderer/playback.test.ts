/**
 * Playback of every session, in real Chromium through the browser-mode app, against a local
 * service the test can stop (the app in cloud mode, so "offline" is real): a session made from a
 * file in a watched folder plays that very file with the service stopped, and the highlighted word
 * advances; a session made through the service plays the service's media on first play, keeps a
 * copy, and plays the copy offline; audio shows an audio player, video a video; a moved file says
 * so, by name.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultOf } from '../../common/ipc';
import { launchChromium } from '../helpers/app';
import { cleanup, DEMO, startService, tempDir, type RunningService } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { expectHighlightAdvances, mediaState, playingStart, playPast } from '../helpers/player';
import { clickWord, drawnWords } from '../helpers/words';
import { batchKey, shootLooks, startCloudApp, uploadWav, type CloudApp } from '../helpers/ui';
import { bridgeClient } from '../security/bridge-wire';

const SHOTS = '/tmp/shots/playback';
let svc: RunningService;
let app: CloudApp;
let browser: Browser;
let bridge: Awaited<ReturnType<typeof bridgeClient>>;
const folder = tempDir('s2t-playback-watch-');
const work = tempDir('s2t-playback-work-');

type Listed = { items: { session_id: string; filename: string; status: string | null }[] };
async function call<T>(channel: string, args: unknown = {}): Promise<T> {
  const r = await bridge.call(channel, args);
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}
/** The session made from `filename`, once the app has it completed (syncing until it does). */
async function completed(filename: string): Promise<string> {
  let id = '';
  await expect
    .poll(async () => {
      await call('sync.now').catch(() => {});
      const s = (await call<Listed>('sessions.list', { offset: 0, limit: 100 })).items.find((i) => i.filename === filename);
      id = s?.session_id ?? '';
      return s?.status;
    }, { timeout: 240_000, interval: 1500 })
    .toBe('completed');
  return id;
}

async function openSession(page: Page, filename: string): Promise<void> {
  await page.locator('[aria-label="Sessions"]').getByText(filename, { exact: true }).first().click({ timeout: 30_000 }).catch(async (err: Error) => {
    await page.screenshot({ path: join(SHOTS, `failed-to-open-${filename}.png`) });
    throw err;
  });
  await expect.poll(() => page.getByRole('heading', { level: 2, name: filename }).count(), { timeout: 20_000 }).toBe(1);
}

const names = { talk: 'local-talk.wav', video: 'local-video.webm', moved: 'moved-away.wav', service: 'service-copy.wav', serviceVideo: 'made-elsewhere.mp4' };
let ids: Record<keyof typeof names, string>;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  svc = await startService();
  app = await startCloudApp(svc.url);
  browser = await launchChromium();
  bridge = await bridgeClient(app.port, await app.newSession());
  const login = await call<{ status: string }>('auth.login', { username: DEMO.email, password: DEMO.password, rememberMe: true });
  expect(login.status).toBe('signed-in');

  // Three files in a watched folder: speech (audio only), a video with speech, and one to move away later.
  copyFileSync(await speechWav('one two three four five six seven eight nine ten', { wordsPerMinute: 110 }), join(work, names.talk));
  copyFileSync(await speechWav('the file that will be moved away'), join(work, names.moved));
  const videoSpeech = await speechWav('a picture with a voice over it');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=480x270:rate=15', '-i', videoSpeech, '-shortest', '-c:v', 'libvpx', '-b:v', '300k', '-c:a', 'libopus', join(work, names.video)]);
  for (const n of [names.talk, names.moved, names.video]) copyFileSync(join(work, n), join(folder, n));
  await call('watch.addFolder', { path: folder, profile: { language: 'en', formats: [{ format: 'txt', options: {} }] } });

  // One session made through the service alone (no file on this computer), its media kept there.
  const key = await batchKey(svc.url, 'playback', DEMO);
  await uploadWav(svc.url, key, names.service, readFileSync(await speechWav('kept on this computer for later')));
  // A video made elsewhere (no file of it on this computer), its picture two seconds longer than its speech.
  const elsewhere = join(work, names.serviceVideo);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=15:duration=5.5', '-i', await speechWav('a video made elsewhere'), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', elsewhere]);
  const created = await fetch(`${svc.url}/api/v3/speech-to-text/session`, { method: 'POST', headers: { 'x-svc-s2t-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ language: 'en', keep_source: true }) });
  const sessionId = ((await created.json()) as { result: { session_id: string } }).result.session_id;
  const put = await fetch(`${svc.url}/api/v3/speech-to-text/session/${sessionId}`, { method: 'PUT', headers: { 'x-svc-s2t-key': key, 'x-filename': names.serviceVideo, 'content-type': 'video/mp4' }, body: readFileSync(elsewhere) });
  expect(put.ok).toBe(true);
}, 120_000);

afterAll(async () => {
  bridge?.ws.close();
  await browser?.close();
  await app?.stop();
  await svc?.stop();
  for (const d of [folder, work, app?.dataDir, svc?.dataDir]) if (d) cleanup(d);
});

describe('playback', () => {
  it('has every session completed, the watched ones known by their files', async () => {
    ids = { talk: await completed(names.talk), video: await completed(names.video), moved: await completed(names.moved), service: await completed(names.service), serviceVideo: await completed(names.serviceVideo) };
    const talk = await call<ResultOf<'media.source'>>('media.source', { sessionId: ids.talk });
    expect(talk).toMatchObject({ kind: 'audio', origin: 'local' });
    expect(await call('media.source', { sessionId: ids.video })).toMatchObject({ kind: 'video', origin: 'local' });
  }, 300_000);

  it("plays the service's media on first play and keeps a copy", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(await app.newUrl());
    await openSession(page, names.service);
    await expect.poll(async () => (await mediaState(page))?.origin, { timeout: 20_000 }).toBe('service');
    await playPast(page, 300);
    // The copy is downloaded in the background; the next look finds it kept.
    await expect.poll(async () => (await call<{ origin?: string }>('media.source', { sessionId: ids.service })).origin, { timeout: 60_000, interval: 500 }).toBe('cache');
    await page.close();
  }, 120_000);

  it('plays a video made elsewhere, kept by the service, as a video with the captions over it; the header and the player agree on its length', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(await app.newUrl());
    await openSession(page, names.serviceVideo);
    await expect.poll(async () => (await mediaState(page))?.tag, { timeout: 20_000 }).toBe('video');
    await page.getByRole('tab', { name: /^Captions/ }).click();
    // Played from the start: the picture shows, and the caption of the speech is drawn over it.
    await playPast(page, 300);
    await expect.poll(() => page.locator('.media-bar .video-frame [data-testid="caption-now"]').count(), { timeout: 10_000 }).toBe(1);
    await page.keyboard.press('k');
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.media-bar video')?.videoWidth ?? 0) > 0);
    const [shownDuration, playerDuration] = await page.evaluate(() => {
      const dd = Array.from(document.querySelectorAll('dt')).find((d) => d.textContent === 'Duration')?.nextElementSibling?.textContent;
      const s = Math.floor(document.querySelector<HTMLVideoElement>('.media-bar video')!.duration);
      return [dd, `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`];
    });
    expect(shownDuration).toBe(playerDuration);
    expect(shownDuration).toBe('0:05');
    await shootLooks(page, '/tmp/shots/truth-media', 'video-kept');
    // The copy kept on this computer is the video too.
    await expect.poll(async () => (await call<{ origin?: string; kind?: string }>('media.source', { sessionId: ids.serviceVideo })).origin, { timeout: 60_000, interval: 500 }).toBe('cache');
    expect(await call('media.source', { sessionId: ids.serviceVideo })).toMatchObject({ kind: 'video' });
    await page.close();
  }, 120_000);

  describe('with the service stopped', () => {
    let page: Page;
    beforeAll(async () => {
      await svc.stop();
      page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(await app.newUrl());
    });
    afterAll(() => page?.close());

    it('plays the file a session was made from, in an audio player, and the highlighted word advances', async () => {
      await openSession(page, names.talk);
      await expect.poll(async () => (await mediaState(page))?.origin, { timeout: 20_000 }).toBe('local');
      expect(await page.locator('.media-bar audio').count()).toBe(1);
      expect(await page.locator('.media-bar video').count()).toBe(0);
      expect(await page.getByText('Playing the file on this computer').count()).toBe(1);

      const words = await drawnWords(page);
      // The highlight moves from word to word as the file plays: at least three different words light up.
      await expectHighlightAdvances(page, 3);
      expect((await mediaState(page))!.error).toBeNull();
      await page.keyboard.press('k');
      await page.screenshot({ path: join(SHOTS, 'audio-local-1280x800.png') });
      await page.setViewportSize({ width: 800, height: 600 });
      await page.screenshot({ path: join(SHOTS, 'audio-local-800x600.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: join(SHOTS, 'audio-local-dark-1280x800.png') });
      await page.emulateMedia({ colorScheme: 'light' });

      // Click-to-seek still works: a word clicked moves the media to it, and it lights as the playing word.
      const last = words[words.length - 1];
      const rows = page.locator('[aria-label="Transcript"] > li');
      await clickWord(rows.nth(last.row), last.word);
      await expect.poll(async () => (await drawnWords(page)).findIndex((w) => w.now), { timeout: 10_000 }).toBe(words.length - 1);
      const lastStart = await playingStart(page);
      expect(Math.abs(Math.round(((await mediaState(page))?.time ?? 0) * 1000) - lastStart)).toBeLessThan(30);

      // J and L skip back and forward 5 s (L stops at the end of the file).
      const at = async () => Math.round(((await mediaState(page))?.time ?? 0) * 1000);
      await clickWord(rows.first(), 0);
      await expect.poll(async () => (await drawnWords(page)).findIndex((w) => w.now), { timeout: 10_000 }).toBe(0);
      await expect.poll(at, { timeout: 10_000 }).toBeLessThan((await playingStart(page)) + 100);
      const from = await at();
      const durationMs = await page.evaluate(() => Math.round(document.querySelector<HTMLMediaElement>('.media-bar audio')!.duration * 1000));
      await page.getByRole('heading', { level: 2 }).click();
      await page.keyboard.press('l');
      await expect.poll(at, { timeout: 10_000 }).toBeGreaterThanOrEqual(Math.min(from + 5000, durationMs) - 20);
      const forward = await at();
      await page.keyboard.press('j');
      await expect.poll(at, { timeout: 10_000 }).toBeLessThanOrEqual(Math.max(0, forward - 5000) + 20);
    }, 120_000);

    it('plays at the speed chosen, 0.5× to 2×, by the keys (< and >) or the list', async () => {
      await openSession(page, names.talk);
      await page.waitForFunction(() => (document.querySelector<HTMLMediaElement>('.media-bar audio')?.readyState ?? 0) >= 1);
      const speed = page.getByRole('combobox', { name: 'Playback speed' });
      const rate = () => page.evaluate(() => document.querySelector<HTMLMediaElement>('.media-bar audio')!.playbackRate);
      expect(await speed.inputValue()).toBe('1');
      expect(await rate()).toBe(1);
      await page.getByRole('heading', { level: 2 }).click();
      await page.keyboard.press('>');
      await page.keyboard.press('>');
      expect(await speed.inputValue()).toBe('1.5');
      expect(await rate()).toBe(1.5);
      for (let i = 0; i < 6; i++) await page.keyboard.press('<');
      expect(await speed.inputValue()).toBe('0.5');
      expect(await rate()).toBe(0.5);
      await speed.selectOption('2');
      expect(await rate()).toBe(2);
      // It stays while playing.
      await page.getByRole('heading', { level: 2 }).click();
      await page.keyboard.press('k');
      await expect.poll(async () => (await mediaState(page))?.paused, { timeout: 20_000 }).toBe(false);
      expect(await rate()).toBe(2);
      await page.keyboard.press('k');
      await shootLooks(page, '/tmp/shots/truth-media', 'speed');
      await speed.selectOption('1');
    }, 60_000);

    it('plays a video file as a video', async () => {
      await openSession(page, names.video);
      await expect.poll(async () => (await mediaState(page))?.tag, { timeout: 20_000 }).toBe('video');
      expect((await mediaState(page))!.origin).toBe('local');
      await playPast(page, 800);
      await page.keyboard.press('k');
      await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.media-bar video')?.videoWidth ?? 0) > 0);
      await page.screenshot({ path: join(SHOTS, 'video-local-1280x800.png') });
      await page.setViewportSize({ width: 800, height: 600 });
      await page.screenshot({ path: join(SHOTS, 'video-local-800x600.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
    }, 60_000);

    it('plays the kept copy of a service session offline', async () => {
      await openSession(page, names.service);
      await expect.poll(async () => (await mediaState(page))?.origin, { timeout: 20_000 }).toBe('cache');
      expect(await page.locator('.media-bar audio').count()).toBe(1);
      await playPast(page, 500);
      await page.keyboard.press('k');
      await page.screenshot({ path: join(SHOTS, 'audio-kept-1280x800.png') });
    }, 60_000);

    it('says a moved file was moved, by its name', async () => {
      renameSync(join(folder, names.moved), join(work, 'somewhere-else.wav'));
      await openSession(page, names.moved);
      const why = page.locator('.media-missing');
      await expect.poll(() => why.textContent(), { timeout: 20_000 }).toContain(join(folder, names.moved));
      expect(await why.textContent()).toMatch(/moved or deleted/);
      expect(await why.textContent()).toMatch(/cannot be reached/);
      expect(await page.locator('.media-bar audio, .media-bar video').count()).toBe(0);
      await page.screenshot({ path: join(SHOTS, 'moved-1280x800.png') });
      await page.setViewportSize({ width: 800, height: 600 });
      await page.screenshot({ path: join(SHOTS, 'moved-800x600.png') });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: join(SHOTS, 'moved-dark-800x600.png') });
    }, 60_000);
  });
});
