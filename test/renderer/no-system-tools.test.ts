/**
 * The app as an installed copy meets a computer with no media or speech programs: browser mode and
 * its embedded service run with a PATH that holds no ffmpeg, ffprobe or pocketsphinx, and only the
 * copies of ffmpeg and ffprobe the app carries (S2T_TOOLS_DIR; here links to Debian's, in a folder
 * of their own). Before a model is installed the app says no engine can run; with the generated
 * Whisper model installed through Preferences, a video picked in New transcription is converted,
 * plays as video, shows its waveform and is transcribed by the model engine.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_DEMO, startApp } from '../helpers/app';
import { mediaState } from '../helpers/player';
import { cleanup, serviceLogin, tempDir } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { appAndBrowserPerFile, shootLooks, signIn } from '../helpers/ui';
import { tinyWhisperModelFile } from '../helpers/whisper-model';
import { bodyOf, client, docOf } from '../service/work/helpers';

const SHOTS = '/tmp/shots/no-system-tools';
const which = (cmd: string) => execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim();
const dir = tempDir('s2t-no-system-tools-');
const tools = join(dir, 'tools');
const emptyPath = join(dir, 'no-programs');
mkdirSync(tools);
mkdirSync(emptyPath);
for (const t of ['ffmpeg', 'ffprobe']) symlinkSync(which(t), join(tools, t));

const run = appAndBrowserPerFile(() => startApp({ env: { PATH: emptyPath, S2T_TOOLS_DIR: tools } }));
let page: Page;
const prefs = () => page.getByRole('dialog', { name: 'Preferences' });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
});
afterAll(() => cleanup(dir));

const shots = (name: string) => shootLooks(page, SHOTS, name);

describe('with no ffmpeg, ffprobe or pocketsphinx on the PATH', () => {
  it('says no engine can run yet, then installs the generated model and offers it', async () => {
    await signIn(page, await run.app.newUrl());
    // New transcription says why no language can be chosen, and where to get an engine.
    await page.getByRole('banner').getByRole('button', { name: 'New transcription' }).click();
    const dialog = page.getByRole('dialog', { name: 'New transcription' });
    await expect.poll(() => dialog.locator('.language-select .small').textContent(), { timeout: 20_000 }).toBe('No speech engine is installed here yet: add a Whisper model in Preferences, under Speech models.');
    await shots('new-transcription-no-engine');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('Control+,');
    await prefs().waitFor({ timeout: 10_000 });
    const models = prefs().locator('.speech-models');
    // pocketsphinx is not installed here: the manager does not claim the built-in engine runs.
    await expect.poll(() => models.locator('p.hint').first().textContent(), { timeout: 20_000 }).toMatch(/^No speech engine is installed on this computer yet, so nothing can be transcribed: download a Whisper model below/);
    await prefs().locator('.speech-models').scrollIntoViewIfNeeded();
    await shots('model-manager-no-engine');
    await prefs().getByLabel('Use a model file I already have').fill(tinyWhisperModelFile().path);
    await prefs().getByRole('button', { name: 'Install' }).click();
    await expect.poll(() => models.locator('p.hint').first().textContent(), { timeout: 60_000 }).toMatch(/^Transcriptions run on Whisper generated/);
    await prefs().locator('.speech-models').scrollIntoViewIfNeeded();
    await shots('model-installed');
    await page.getByRole('button', { name: 'Done' }).click();
  }, 120_000);

  it('converts a picked video, plays it as video, draws its waveform and transcribes it on the model engine', async () => {
    // An MP4 with a picture and known speech, made here (with the test's own PATH).
    const video = join(dir, 'standup.mp4');
    const wav = await speechWav('Good morning everyone, the release went out on time.');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-i', wav, '-shortest', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-y', video]);

    await page.getByRole('banner').getByRole('button', { name: 'New transcription' }).click();
    const dialog = page.getByRole('dialog', { name: 'New transcription' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose files…' }).click()]);
    await chooser.setFiles(video);
    await expect.poll(() => dialog.locator('.language-select .small').textContent(), { timeout: 20_000 }).toContain('Runs on the Whisper model generated');
    await dialog.getByRole('button', { name: 'Transcribe' }).click();
    await expect.poll(() => dialog.count(), { timeout: 60_000 }).toBe(0);
    const item = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem', { name: 'standup.mp4' });
    await expect.poll(async () => (await item.allTextContents()).join(' '), { timeout: 240_000, interval: 500 }).toMatch(/Done|Failed/);
    expect(await item.textContent()).toContain('Done');
    await item.getByRole('button', { name: 'Open session' }).click();
    await expect.poll(() => page.locator('.sidebar [aria-current="true"]').first().textContent(), { timeout: 60_000 }).toContain('standup');

    // It plays from the service's converted copy, as video with a picture.
    await expect.poll(async () => (await mediaState(page))?.tag, { timeout: 30_000 }).toBe('video');
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.media-bar video')?.videoWidth ?? 0) > 0, undefined, { timeout: 30_000 });
    await page.getByRole('heading', { level: 2 }).click();
    await page.keyboard.press('k');
    await expect.poll(async () => (await mediaState(page))?.time ?? 0, { timeout: 30_000 }).toBeGreaterThan(0.5);
    await page.keyboard.press('k');
    expect((await mediaState(page))?.error).toBeNull();

    // The waveform the service drew with the bundled ffmpeg.
    await page.getByRole('tab', { name: /^Captions/ }).click();
    const canvas = page.locator('canvas.wave');
    await expect.poll(() => canvas.getAttribute('data-peaks'), { timeout: 30_000 }).not.toBe('0');
    expect(await canvas.getAttribute('data-from')).toBe('service');
    await shots('session');

    // The model engine made the transcript (the generated model hears noise; what ran is checked).
    const c = await client(run.app.serviceUrl, await serviceLogin(run.app.serviceUrl, LOCAL_DEMO));
    const sessions = await c.json('sessions.list', '/api/v3/speech-to-text/session');
    const session = sessions.body.result.find((s) => s.filename === 'standup.mp4')!;
    expect(session).toBeDefined();
    expect(session.media_type).toMatch(/^video\//);
    const docs = await c.json('documents.list', `/api/v3/speech-to-text/session/${session.session_id}/document?include_content=true`);
    expect(bodyOf(docOf(docs.body.result, 'document')).metadata.engine).toMatch(/^whisper:generated/);
  }, 300_000);
});
