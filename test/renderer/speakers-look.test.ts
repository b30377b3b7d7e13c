/**
 * Speakers told apart, as a person sees them: an espeak-ng meeting of two voices is transcribed
 * by the local service with "Tell speakers apart"; the transcript editor shows each segment's
 * speaker and the speaker list, the caption editor shows the cues' speakers. Screenshots of both,
 * light and dark, at 1280×800 and 800×600, go to /tmp/shots/speech-truth/.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_DEMO } from '../helpers/app';
import { serviceLogin } from '../helpers/service';
import { placedSpeech } from '../helpers/speech';
import { appAndBrowserPerFile, shootLooks, speakerOfSegment, submitSignIn } from '../helpers/ui';
import { openCompletedSession } from './look-fixture';

const NAME = 'two-voices.wav';
const SHOTS = '/tmp/shots/speech-truth';
const LINES = ['Good morning everyone, thanks for joining the planning meeting today.', 'Thanks. I would like to start with the budget for the next quarter.', 'Sure, the launch is planned for the second week of March.', 'That works for marketing, as long as the designs are ready.'];

const run = appAndBrowserPerFile();
let page: Page;

beforeAll(async () => {
  const audio = await placedSpeech({ sentences: LINES, voices: LINES.map((_, i) => (i % 2 ? 'en-us+f2' : 'en-us+m3')), gapsMs: LINES.map((_, i) => (i === 0 ? 300 : 500)), tailMs: 300, sampleRate: 16000, container: 'wav' });
  const auth = { authorization: `Bearer ${await serviceLogin(run.app.serviceUrl, LOCAL_DEMO)}` };
  const form = new FormData();
  form.append('file', new Blob([readFileSync(audio.path)], { type: 'audio/wav' }), NAME);
  const up = await fetch(`${run.app.serviceUrl}/api/v3/batch/upload`, { method: 'POST', headers: auth, body: form });
  const { file_id } = (await up.json()) as { file_id: string };
  const job = await fetch(`${run.app.serviceUrl}/api/v3/batch/transcribe`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ file_id, language: 'en', enable_diarization: true, keep_source: true }) });
  expect(job.status).toBe(200);
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
}, 120_000);

const shoot = (name: string) => shootLooks(page, SHOTS, name);

describe('speakers in the editors', () => {
  it('the transcript editor shows the speakers found, segment by segment', async () => {
    await page.goto(await run.app.newUrl());
    await submitSignIn(page);
    await openCompletedSession(page, NAME);
    const pickers = page.locator('button.speaker-select');
    await expect.poll(() => pickers.count()).toBeGreaterThanOrEqual(4);
    const chosen = await pickers.allTextContents();
    expect(new Set(chosen)).toEqual(new Set(['Speaker 1', 'Speaker 2']));
    expect(chosen[0]).toBe('Speaker 1');
    await shoot('transcript-speakers');
    // Pressed, a speaker's button is the list of speakers (the open list itself is drawn outside the page).
    await shootLooks(page, SHOTS, 'transcript-speaker-pick', async () => {
      if ((await page.locator('select.speaker-select').count()) === 0) await speakerOfSegment(page, 1).click();
    });
    await expect.poll(() => page.getByLabel('Speaker of segment 1', { exact: true }).evaluate((el) => el.tagName)).toBe('SELECT');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect.poll(() => speakerOfSegment(page, 1).textContent()).toBe('Speaker 1');
  }, 240_000);

  it('the caption editor shows the cues\' speakers', async () => {
    await page.getByRole('tab', { name: /^Captions/ }).click();
    const cues = page.getByRole('list', { name: 'Captions' }).locator(':scope > li');
    await expect.poll(() => cues.count()).toBeGreaterThan(0);
    await expect.poll(async () => (await page.getByRole('list', { name: 'Captions' }).textContent()) ?? '').toMatch(/Speaker 2/);
    await shoot('caption-speakers');
  }, 60_000);
});
