/**
 * Timing captions as Subtitle Edit users do, end to end in real Chromium against the app in
 * browser mode and its local service: a video with two sentences placed at known offsets (sox,
 * espeak-ng, ffmpeg) transcribed by the service; then a cue's start set from the playhead, nudged
 * by 100 ms and a frame, snapped after the previous cue with the profile's gap, all undone; rule
 * problems fixed with one click and undone; the waveform drawn from real peaks (silence low,
 * speech high where it was placed), a click that seeks, a drag that retimes; the caption over the video.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { fieldValue, fillField } from '../helpers/fields';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeClient } from '../security/bridge-wire';
import { placedSpeech, type PlacedSpeech } from '../helpers/speech';
import { appAndBrowserPerFile, submitSignIn } from '../helpers/ui';

const NAME = 'caption-timing.webm';
const AUDIO = 'caption-timing-audio.wav';
const SHOTS = '/tmp/shots/caption-timing';
/** Netflix-like, the default profile: 83 ms gap, two frames at 24 fps. */
const GAP = 83;
const FRAME = GAP / 2;

const run = appAndBrowserPerFile();
let page: Page;
let speech: PlacedSpeech;
const folder = mkdtempSync(join(tmpdir(), 'caption-timing-'));

/** The video in a watched folder: its session plays the file on this computer, as a video. */
async function videoWithSpeech(): Promise<string> {
  speech = await placedSpeech({ sentences: ['hello from the caption timing test', 'the weather is nice today and the sun is shining'], gapsMs: [2000, 2500], tailMs: 1500, sampleRate: 16000, container: 'wav' });
  const out = join(folder, NAME);
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=320x180:r=10', '-i', speech.path, '-shortest', '-c:v', 'libvpx', '-b:v', '100k', '-c:a', 'libopus', out]);
  // The same speech as audio alone: its captions show in a small preview by the player.
  execFileSync('cp', [speech.path, join(folder, AUDIO)]);
  return out;
}

const cues = () => page.getByRole('list', { name: 'Captions' }).locator(':scope > li');
/** "0:03.250" or "1:02:03.250" in ms. */
const ms = (clock: string) => Math.round(clock.split(':').reduce((acc, part) => acc * 60 + Number(part), 0) * 1000);
const startOf = async (n: number) => ms(await fieldValue(page.getByLabel(`Start of cue ${n}`, { exact: true })));
const endOf = async (n: number) => ms(await fieldValue(page.getByLabel(`End of cue ${n}`, { exact: true })));
const mediaMs = () => page.evaluate(() => Math.round(document.querySelector('video')!.currentTime * 1000));

/** Moves the playhead and waits until the editor has it (the waveform says where it is). */
async function playheadTo(t: number): Promise<void> {
  await page.evaluate((x) => void (document.querySelector('video')!.currentTime = x / 1000), t);
  const clock = `${Math.floor(t / 60000)}:${String(Math.floor((t % 60000) / 1000)).padStart(2, '0')}.${String(t % 1000).padStart(3, '0')}`;
  await expect.poll(() => page.getByRole('img', { name: /^Waveform with the cues/ }).getAttribute('aria-label'), { timeout: 10_000 }).toContain(`${clock} at the playhead`);
}

/** A place outside every field, so Ctrl+Z is the document's undo and not a field's. */
const away = () => page.getByRole('heading', { level: 2 }).click();
const undo = async () => {
  await away();
  await page.keyboard.press('Control+z');
};

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
}, 120_000);
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
});

describe('timing captions', () => {
  it('opens the transcribed video on its captions', async () => {
    await page.goto(await run.app.newUrl());
    await submitSignIn(page);
    await expect.poll(() => page.getByTitle('Sync now').count(), { timeout: 20_000 }).toBe(1);
    const bridge = await bridgeClient(Number(new URL(run.app.url).port), await run.app.newSession());
    await videoWithSpeech();
    const added = await bridge.call('watch.addFolder', { path: folder, profile: { language: 'en', formats: [{ format: 'txt', options: {} }] } });
    expect(added.ok).toBe(true);
    bridge.ws.close();
    const list = page.getByRole('list', { name: 'Sessions' });
    await expect
      .poll(async () => {
        await page.getByTitle('Sync now').click();
        return list.getByRole('button', { name: /caption-timing\.webm.*Completed/i }).count();
      }, { timeout: 120_000, interval: 1000 })
      .toBe(1);
    await expect.poll(() => list.getByRole('button', { name: /caption-timing-audio\.wav.*Completed/i }).count(), { timeout: 120_000 }).toBe(1);
    await list.getByRole('button', { name: /caption-timing\.webm/ }).click();
    await page.getByRole('tab', { name: /^Captions/ }).click();
    await expect.poll(() => cues().count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.media-bar video')?.videoWidth ?? 0) > 0, undefined, { timeout: 30_000 });
  }, 180_000);

  it('sets a start from the playhead, nudges by 100 ms and a frame, snaps after the previous cue with the gap, and undoes each', async () => {
    const [s2, e1] = [await startOf(2), await endOf(1)];
    const at = s2 + 200;
    await playheadTo(at);
    await page.getByLabel('Text of cue 2', { exact: true }).click();
    await page.keyboard.press('Alt+i');
    await expect.poll(() => startOf(2)).toBe(at);
    const e2 = await endOf(2);

    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => startOf(2)).toBe(at + 100);
    expect(await endOf(2)).toBe(e2 + 100);
    await page.keyboard.press('Alt+Shift+ArrowLeft');
    await expect.poll(() => startOf(2)).toBe(Math.round(at + 100 - FRAME));
    // The page did not go Back (Alt+Left is the browser's Back): still on the captions.
    expect(await cues().count()).toBeGreaterThanOrEqual(2);

    await page.keyboard.press('Alt+p');
    await expect.poll(() => startOf(2)).toBe(e1 + GAP);
    expect(await endOf(2)).toBe(Math.round(e2 + 100 - FRAME));

    // An end from the playhead before the start is refused, in words, and changes nothing.
    await playheadTo(Math.max(0, e1 - 50));
    await page.getByLabel('Text of cue 2', { exact: true }).click();
    await page.keyboard.press('Alt+o');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'The start must come before the end.' }).count()).toBe(1);
    expect(await startOf(2)).toBe(e1 + GAP);
    await page.screenshot({ path: join(SHOTS, 'timing-1280.png') });

    for (const expected of [Math.round(at + 100 - FRAME), at + 100, at, s2]) {
      await undo();
      await expect.poll(() => startOf(2)).toBe(expected);
    }
    expect(await endOf(2)).toBe(e2);
  });

  it('lists the timing keys on the shortcut sheet', async () => {
    await away();
    await page.keyboard.press('F1');
    const group = page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByRole('region', { name: 'Timing captions' });
    await expect.poll(() => group.textContent()).toContain("Set the cue's start to the playhead");
    expect(await group.textContent()).toContain("leaving the profile's minimum gap");
    await group.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'shortcut-sheet-1280.png') });
    await page.keyboard.press('Escape');
  });

  it('fixes a rule problem with one click (rebalance, extend into the gap) and undoes it', async () => {
    const text = page.getByLabel('Text of cue 1', { exact: true });
    const before = await fieldValue(text);
    const [s1, e1] = [await startOf(1), await endOf(1)];
    const long = 'this caption line is far too long to read in so short a time on screen';
    await fillField(text, long);
    await away();
    const problems = page.getByRole('list', { name: 'Caption problems' });
    await expect.poll(() => problems.textContent()).toMatch(/Cue 1.*characters a second/);
    await page.screenshot({ path: join(SHOTS, 'problems-1280.png') });

    await problems.getByRole('button', { name: 'Rebalance lines: cue 1' }).click();
    await expect.poll(() => fieldValue(text)).toMatch(/\n/);
    expect((await fieldValue(text)).replace(/\n/g, ' ')).toBe(long);
    for (const line of (await fieldValue(text)).split('\n')) expect(line.length).toBeLessThanOrEqual(42);

    await problems.getByRole('button', { name: 'Extend into the gap: cue 1' }).click();
    // 71 characters at 20 a second need 3.55 s on screen.
    await expect.poll(async () => (await endOf(1)) - (await startOf(1))).toBeGreaterThanOrEqual(Math.ceil((long.length * 1000) / 20));
    expect(await startOf(1)).toBeLessThanOrEqual(s1);
    expect((await endOf(1)) + GAP).toBeLessThanOrEqual(await startOf(2));
    await expect.poll(() => problems.getByText(/Cue 1/).count()).toBe(0);

    await undo();
    await expect.poll(() => endOf(1)).toBe(e1);
    await undo();
    await expect.poll(() => fieldValue(text)).toBe(long);
    await undo();
    await expect.poll(() => fieldValue(text)).toBe(before);
  });

  it('draws the waveform from the peaks: low in silence, high where the speech is', async () => {
    const canvas = page.locator('canvas.wave');
    await expect.poll(() => canvas.getAttribute('data-peaks'), { timeout: 20_000 }).not.toBe('0');
    expect(await canvas.getAttribute('data-from')).toBe('service');
    // Zoomed out to 50 px a second, the whole 11 s fits beside the video.
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(() => page.locator('.wave-scroll').getAttribute('data-pps')).toBe('50');
    await playheadTo(0);
    await page.screenshot({ path: join(SHOTS, 'waveform-1280.png') });
    // How many pixels of a column are the wave's colour: twice the peak's height.
    const column = (t: number) =>
      canvas.evaluate((c: HTMLCanvasElement, at: number) => {
        const scroll = c.parentElement!.parentElement!;
        const pps = Number(scroll.dataset.pps);
        const x = Math.round((at / 1000) * pps - scroll.scrollLeft);
        const [r, g, b] = getComputedStyle(c).color.match(/\d+/g)!.map(Number);
        const px = c.getContext('2d')!.getImageData(x, 0, 1, c.height).data;
        let n = 0;
        for (let i = 0; i < px.length; i += 4) if (px[i] === r && px[i + 1] === g && px[i + 2] === b && px[i + 3] === 255) n++;
        return n;
      }, t);
    const [first, second] = speech.sentences;
    const tallest = async (from: number, to: number) => {
      let best = 0;
      for (let t = from; t < to; t += 10) best = Math.max(best, await column(t));
      return best;
    };
    expect(await tallest(200, first.startMs - 200)).toBeLessThanOrEqual(2);
    expect(await tallest(first.endMs + 200, second.startMs - 200)).toBeLessThanOrEqual(2);
    expect(await tallest(first.startMs, first.startMs + 500)).toBeGreaterThan(16);
    expect(await tallest(second.startMs, second.startMs + 500)).toBeGreaterThan(16);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => page.locator('.wave-scroll').getAttribute('data-pps')).toBe('100');
  });

  it('seeks where the waveform is clicked, and retimes a cue by dragging its edge (undoable)', async () => {
    const canvas = page.locator('canvas.wave');
    const box = (await canvas.boundingBox())!;
    const view = await canvas.evaluate((c) => ({ scroll: c.parentElement!.parentElement!.scrollLeft, pps: Number(c.parentElement!.parentElement!.dataset.pps) }));
    const xOf = (t: number) => box.x + (t / 1000) * view.pps - view.scroll;
    await page.mouse.click(xOf(1000), box.y + 80);
    await expect.poll(mediaMs).toBe(1000);

    const e1 = await endOf(1);
    const s2 = await startOf(2);
    const by = Math.min(400, s2 - e1 - 100);
    await page.mouse.move(xOf(e1), box.y + 50);
    await page.mouse.down();
    await page.mouse.move(xOf(e1 + by / 2), box.y + 50, { steps: 3 });
    await page.mouse.move(xOf(e1 + by), box.y + 50, { steps: 3 });
    await page.mouse.up();
    // Within a pixel (10 ms at 100 px a second) of where the edge was let go.
    await expect.poll(async () => Math.abs((await endOf(1)) - (e1 + by)), { timeout: 10_000 }).toBeLessThanOrEqual(1000 / view.pps);
    expect(await mediaMs()).toBe(1000); // a drag is not a seek
    await undo();
    await expect.poll(() => endOf(1)).toBe(e1);

    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => page.locator('.wave-scroll').getAttribute('data-pps')).toBe('200');
    await page.screenshot({ path: join(SHOTS, 'waveform-zoomed-1280.png') });
    await page.getByRole('button', { name: 'Zoom out' }).click();
  });

  it('draws the caption playing over the video', async () => {
    const s2 = await startOf(2);
    const e2 = await endOf(2);
    const over = page.locator('.video-frame [data-testid="caption-now"]');
    await playheadTo(Math.round((s2 + e2) / 2));
    const lines = (await fieldValue(page.getByLabel('Text of cue 2', { exact: true }))).split('\n');
    await expect.poll(async () => over.locator('span').allTextContents()).toEqual(lines);
    await page.screenshot({ path: join(SHOTS, 'overlay-1280.png') });
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: join(SHOTS, 'overlay-800.png') });
    await page.evaluate(() => void (document.documentElement.dataset.theme = 'dark'));
    await page.screenshot({ path: join(SHOTS, 'overlay-800-dark.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    // The canvas is redrawn at the new width.
    await expect.poll(() => page.locator('canvas.wave').evaluate((c: HTMLCanvasElement) => c.width === c.parentElement!.parentElement!.clientWidth)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'overlay-1280-dark.png') });
    await page.evaluate(() => void delete document.documentElement.dataset.theme);
    // Between cues, nothing is drawn.
    await playheadTo(Math.max(0, (await startOf(1)) - 300));
    await expect.poll(() => over.count()).toBe(0);
  });

  it('computes the waveform from the file on this computer when the service has none, and shows the caption beside an audio player', async () => {
    // A service without a waveform for this session (as one that makes none): main decodes the WAV itself.
    const db = new Database(join(run.app.dataDir, 'local-service', 'service.db'));
    expect(db.prepare('UPDATE sessions SET waveform_path = NULL WHERE filename = ?').run(AUDIO).changes).toBe(1);
    db.close();
    await page.getByRole('list', { name: 'Sessions' }).getByRole('button', { name: /caption-timing-audio\.wav/ }).click();
    await page.getByRole('tab', { name: /^Captions/ }).click();
    await expect.poll(() => cues().count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    await page.waitForFunction(() => (document.querySelector<HTMLAudioElement>('.media-bar audio')?.readyState ?? 0) >= 1, undefined, { timeout: 30_000 });
    const canvas = page.locator('canvas.wave');
    await expect.poll(() => canvas.getAttribute('data-from'), { timeout: 30_000 }).toBe('local');
    // One peak per 10 ms of the file.
    expect(Math.abs(Number(await canvas.getAttribute('data-peaks')) - speech.durationMs / 10)).toBeLessThanOrEqual(1);
    await expect.poll(() => page.getByRole('group', { name: 'Waveform' }).getByRole('status').textContent()).toMatch(/^Waveform of the file on this computer/);
    const [s1, e1] = [await startOf(1), await endOf(1)];
    const mid = Math.round((s1 + e1) / 2);
    await page.evaluate((x) => void (document.querySelector('audio')!.currentTime = x / 1000), mid);
    const lines = (await fieldValue(page.getByLabel('Text of cue 1', { exact: true }))).split('\n');
    const preview = page.locator('.media-bar .caption-preview');
    await expect.poll(() => preview.locator('span').allTextContents()).toEqual(lines);
    await page.screenshot({ path: join(SHOTS, 'audio-preview-1280.png') });
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: join(SHOTS, 'audio-preview-800.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
