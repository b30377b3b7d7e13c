/**
 * Files the system opens with the app, in real Chromium on the browser-mode app: the bridge carries
 * the same app.openFiles event the Electron app sends (browser mode takes `open PATH` on stdin), and
 * New transcription opens with the recording picked, or, for a caption file, in its upload mode
 * with the captions given and the recording left to choose. Then a look at both, light and dark.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { tempDir } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { appAndBrowserPerFile, shootLooks, signIn } from '../helpers/ui';

const SHOTS = '/tmp/shots/remainders';
const run = appAndBrowserPerFile();
let page: Page;
let work: string;

beforeAll(async () => {
  work = tempDir('s2t-opened-ui-');
}, 90_000);

const openWithApp = (path: string) => run.app.child.stdin!.write(`open ${path}\n`);
const dialog = () => page.getByRole('dialog', { name: 'New transcription' });

const shots = (name: string) => shootLooks(page, SHOTS, name);

it('opens New transcription with a recording the system opened with the app', async () => {
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page, await run.app.newUrl());
  openWithApp(await speechWav('we will review the budget on monday morning'));
  await expect.poll(() => dialog().count(), { timeout: 20_000 }).toBe(1);
  await expect.poll(() => dialog().getByRole('listitem').count()).toBe(1);
  expect(await dialog().getByRole('radio', { name: /Transcribe the speech/ }).isChecked()).toBe(true);
  await shots('opened-recording');
  await dialog().getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => dialog().count()).toBe(0);
}, 60_000);

it('opens a caption file in the upload mode, the captions given and the recording left to choose', async () => {
  const srt = join(work, 'interview.srt');
  writeFileSync(srt, '1\n00:00:00,000 --> 00:00:02,000\nHello there.\n');
  openWithApp(srt);
  await expect.poll(() => dialog().count(), { timeout: 20_000 }).toBe(1);
  await expect.poll(() => dialog().getByRole('radio', { name: /Upload finished captions/ }).isChecked(), { timeout: 10_000 }).toBe(true);
  await expect.poll(() => dialog().locator('.companion .name').textContent()).toBe('interview.srt');
  expect(await dialog().getByRole('listitem').count()).toBe(0);
  await shots('opened-captions');
  await dialog().getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => dialog().count()).toBe(0);
}, 60_000);
