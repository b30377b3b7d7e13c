/**
 * New transcriptions from the app in real Chromium, on the browser-mode app and its embedded
 * service: a file picked through the file chooser and one dropped on the window (a synthetic drop
 * with a DataTransfer holding a File built in the page) go through the dialog, stream to main,
 * upload and transcribe live in the uploads view, and open as sessions with their transcript; a
 * refusal (not media) is shown in the dialog in words; an upload is cancelled and retried.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { expectHighlightAdvances, mediaState } from '../helpers/player';
import { appAndBrowserPerFile, signIn as signInAt } from '../helpers/ui';

const SHOTS = '/tmp/shots/imports-ui';
const LONG_TEXT = Array.from({ length: 6 }, () => 'the quarterly report shows that revenue grew in every region and the board thanked the team for their work').join('. ');
let work: string;

const run = appAndBrowserPerFile();
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  work = tempDir('s2t-imports-ui-');
}, 90_000);

afterAll(async () => {
  if (work) cleanup(work);
});

/** Signs in through the form, unless the app is still signed in from an earlier page. */
async function signIn(page: Page): Promise<void> {
  await signInAt(page, await run.app.newUrl(), page.getByRole('banner').getByRole('button', { name: 'New transcription' }));
}

/** Records, in the page, each state and bar value an upload row shows, as the view changes (no sampling). */
async function recordRows(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, string[]> = {};
    (window as unknown as { seen: typeof seen }).seen = seen;
    const look = () => {
      for (const li of Array.from(document.querySelectorAll('.upload-item'))) {
        const name = li.querySelector('.name')?.textContent ?? '';
        const bar = li.querySelector('progress');
        const now = `${li.querySelector('.state')?.textContent}${bar ? `:${bar.getAttribute('aria-label')}:${(bar as HTMLProgressElement).value}` : ''}`;
        const list = (seen[name] ??= []);
        if (list[list.length - 1] !== now) list.push(now);
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const seenOf = (page: Page, name: string) => page.evaluate((n) => (window as unknown as { seen: Record<string, string[]> }).seen[n] ?? [], name);
const row = (page: Page, name: string): Locator => page.getByRole('list', { name: 'Uploads' }).getByRole('listitem', { name });

/** Waits for a row to finish, either way, and answers its text: a failure then shows its reason. */
async function finished(item: Locator): Promise<string> {
  await expect.poll(async () => (await item.allTextContents()).join(' '), { timeout: 240_000, interval: 500 }).toMatch(/Done|Failed/);
  return (await item.textContent()) ?? '';
}

/** Drops files built in the page from these bytes on the window, as a file manager would. */
async function dropFiles(page: Page, files: { name: string; type: string; bytes: Buffer }[], opts: { checkOverlay?: boolean } = {}): Promise<void> {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    (window as unknown as { dt: DataTransfer }).dt = dt;
    document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
    document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files.map((f) => ({ name: f.name, type: f.type, b64: f.bytes.toString('base64') })));
  if (opts.checkOverlay) {
    await expect.poll(() => page.getByText('Drop to transcribe').isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'drop-overlay-1280x800.png') });
  }
  await page.evaluate(() => {
    const dt = (window as unknown as { dt: DataTransfer }).dt;
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await expect.poll(() => page.getByText('Drop to transcribe').count()).toBe(0);
}

it('picks a file through the file chooser, chooses options, follows the upload to done, and opens the session with its transcript', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page);
  const header = page.getByRole('banner');
  await header.getByRole('button', { name: 'New transcription' }).click();
  const dialog = page.getByRole('dialog', { name: 'New transcription' });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  // Focus moved into the dialog.
  expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);

  // A recording over the 8 MiB that main sends with tus in streamed pieces (4 channels at 48 kHz), through the page's file chooser.
  const wav = join(work, 'quarterly-report.wav');
  execFileSync('sox', [await speechWav(LONG_TEXT), '-r', '48000', '-c', '4', wav]);
  expect(statSync(wav).size).toBeGreaterThan(8 * 1024 * 1024);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose files…' }).click()]);
  await chooser.setFiles(wav);
  await expect.poll(() => dialog.getByRole('list', { name: '1 file' }).textContent()).toContain('quarterly-report.wav');

  // Languages by name from the service's list; one it cannot transcribe is shown but cannot be chosen.
  const language = dialog.getByLabel('Language');
  await expect.poll(() => language.locator('option', { hasText: 'English (United States)' }).count(), { timeout: 20_000 }).toBe(1);
  const italian = language.locator('option', { hasText: 'Italian' });
  expect(await italian.isDisabled()).toBe(true);
  expect(await italian.textContent()).toContain('not installed on this service');
  await language.selectOption({ label: 'English (United States)' });
  expect(await dialog.getByRole('radio', { name: /Transcribe the speech/ }).isChecked()).toBe(true);
  await dialog.getByRole('checkbox', { name: 'Tell speakers apart' }).check();
  await page.screenshot({ path: join(SHOTS, 'dialog-1280x800.png') });
  await page.setViewportSize({ width: 800, height: 600 });
  await page.screenshot({ path: join(SHOTS, 'dialog-800x600.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SHOTS, 'dialog-dark-1280x800.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  await recordRows(page);
  await dialog.getByRole('button', { name: 'Transcribe' }).click();
  await expect.poll(() => dialog.count(), { timeout: 60_000 }).toBe(0);
  // Queued: the uploads view opens, and the header counts what is under way.
  const uploads = page.getByRole('region', { name: 'Uploads' });
  await expect.poll(() => uploads.count()).toBe(1);
  const item = row(page, 'quarterly-report.wav');
  expect(await finished(item)).toContain('Done');
  await page.screenshot({ path: join(SHOTS, 'uploads-done-1280x800.png') });

  // The row moved through the states live: uploading with its bar, transcribing, done, in that order.
  const seen = await seenOf(page, 'quarterly-report.wav');
  const states = seen.map((s) => s.split(':')[0]).filter((s, i, all) => s !== all[i - 1]);
  expect(states.filter((s) => s !== 'Waiting')).toEqual(['Uploading', 'Transcribing', 'Done']);
  const uploadBars = seen.filter((s) => s.startsWith('Uploading:Upload of quarterly-report.wav:')).map((s) => Number(s.split(':').pop()));
  // The bar showed from the first bytes and filled: it never went back.
  expect(uploadBars.length).toBeGreaterThan(1);
  expect(uploadBars[0]).toBeLessThan(100);
  expect(uploadBars[uploadBars.length - 1]).toBe(100);
  expect(uploadBars).toEqual([...uploadBars].sort((a, b) => a - b));
  // The options chosen are the ones the item carries.
  expect(await item.textContent()).toContain('English (United States) · transcribe');

  await item.getByRole('button', { name: 'Open session' }).click();
  // The session is selected in the list and its transcript shows words from the speech.
  await expect.poll(() => page.locator('.sidebar [aria-current="true"]').first().textContent(), { timeout: 60_000 }).toContain('quarterly-report');
  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect.poll(async () => (await transcript.allTextContents()).join(' ').toLowerCase(), { timeout: 60_000, interval: 500 }).toMatch(/revenue|region|board|quarterly/);
  await page.screenshot({ path: join(SHOTS, 'session-opened-1280x800.png') });
  // It plays, and the highlighted word advances with the speech. In browser mode the file chooser
  // hands over bytes, not a path, and the staged copy goes once uploaded, so it plays from the service.
  await expect.poll(async () => (await mediaState(page))?.origin, { timeout: 20_000 }).toBe('service');
  await expectHighlightAdvances(page, 3);
  await page.keyboard.press('k');
  await page.screenshot({ path: join(SHOTS, 'session-playing-1280x800.png') });

  // The choices are remembered for next time (Ctrl+N opens the dialog again).
  await page.keyboard.press('Control+n');
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await expect.poll(() => dialog.getByRole('checkbox', { name: 'Tell speakers apart' }).isChecked(), { timeout: 10_000 }).toBe(true);
  await expect.poll(() => dialog.getByLabel('Language').inputValue(), { timeout: 10_000 }).toBe('en-US');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  await page.close();
}, 300_000);

it('refuses a dropped file that is not media in the dialog, then queues a dropped recording, cancels and retries one upload', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page);

  // A text file named .mp3, dropped: the dialog opens with it, and the refusal is shown there in words.
  await dropFiles(page, [{ name: 'notes.mp3', type: 'audio/mpeg', bytes: Buffer.from('these are my notes, not a recording\n'.repeat(50)) }], { checkOverlay: true });
  const dialog = page.getByRole('dialog', { name: 'New transcription' });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  expect(await dialog.getByRole('list', { name: '1 file' }).textContent()).toContain('notes.mp3');
  await expect.poll(() => dialog.getByLabel('Language').inputValue(), { timeout: 20_000 }).toBe('en-US');
  await dialog.getByRole('button', { name: 'Transcribe' }).click();
  const alert = dialog.getByRole('alert');
  await expect.poll(() => alert.count(), { timeout: 30_000 }).toBe(1);
  expect(await alert.textContent()).toMatch(/notes\.mp3: not media/);
  await page.screenshot({ path: join(SHOTS, 'dialog-refusal-1280x800.png') });

  // Drops while the dialog is open add to it: a long recording and a short one, after the refused file is removed.
  await dialog.getByRole('button', { name: 'Remove notes.mp3' }).click();
  const long = readFileSync(await speechWav(`${LONG_TEXT}. ${LONG_TEXT}`));
  const short = readFileSync(await speechWav('thank you all for coming today'));
  await dropFiles(page, [{ name: 'all-hands.wav', type: 'audio/wav', bytes: long }]);
  await dropFiles(page, [{ name: 'thanks.wav', type: 'audio/wav', bytes: short }]);
  await expect.poll(() => dialog.getByRole('list', { name: '2 files' }).textContent()).toMatch(/all-hands\.wav.*thanks\.wav/);
  await dialog.getByRole('button', { name: 'Transcribe 2 files' }).click();
  await expect.poll(() => dialog.count(), { timeout: 60_000 }).toBe(0);

  // The service runs one job at a time: while the long recording is transcribed, the short one waits, and is cancelled.
  const thanks = row(page, 'thanks.wav');
  await expect.poll(() => thanks.count(), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => page.getByRole('banner').getByRole('button', { name: /Uploads/ }).textContent()).toMatch(/Uploads\s*\d+ under way/);
  await expect.poll(() => thanks.getByRole('button', { name: 'Cancel' }).count()).toBe(1);
  await thanks.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => thanks.getByText('Cancelled', { exact: true }).count(), { timeout: 30_000 }).toBe(1);
  expect(await thanks.getByRole('button', { name: 'Retry' }).count()).toBe(1);
  await page.screenshot({ path: join(SHOTS, 'uploads-1280x800.png') });
  await page.setViewportSize({ width: 800, height: 600 });
  await page.screenshot({ path: join(SHOTS, 'uploads-800x600.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SHOTS, 'uploads-dark-1280x800.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // Retried, it goes through to done, with its session one click away.
  await thanks.getByRole('button', { name: 'Retry' }).click();
  expect(await finished(thanks)).toContain('Done');
  expect(await finished(row(page, 'all-hands.wav'))).toContain('Done');
  expect(await thanks.getByRole('button', { name: 'Open session' }).count()).toBe(1);

  // Clear finished empties the list; the sessions stay.
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await expect.poll(() => page.getByRole('list', { name: 'Uploads' }).count()).toBe(0);
  await expect.poll(() => page.locator('.sidebar').textContent(), { timeout: 60_000 }).toContain('thanks.wav');
  await page.close();
}, 420_000);

it('refuses a chosen file that is not media in the dialog, as a dropped one, before anything uploads', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page);
  // A text file named .wav beside a real recording, both through the file chooser.
  const broken = join(work, 'broken-recording.wav');
  writeFileSync(broken, 'this is a text file, not a recording\n'.repeat(120));
  const good = join(work, 'weekly-sync.wav');
  writeFileSync(good, readFileSync(await speechWav('the weekly sync starts now')));
  await page.getByRole('banner').getByRole('button', { name: 'New transcription' }).click();
  const dialog = page.getByRole('dialog', { name: 'New transcription' });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose files…' }).click()]);
  await chooser.setFiles([broken, good]);
  await expect.poll(() => dialog.getByRole('list', { name: '2 files' }).textContent()).toMatch(/broken-recording\.wav.*weekly-sync\.wav/);
  await expect.poll(() => dialog.getByLabel('Language').inputValue(), { timeout: 20_000 }).toBe('en-US');
  // A small window: the reason shows below the options, and must be scrolled into view.
  await page.setViewportSize({ width: 800, height: 600 });
  await dialog.getByRole('button', { name: 'Transcribe 2 files' }).click();

  // The dialog stays, with the same words as for a dropped file; neither file was queued.
  const alert = dialog.getByRole('alert');
  await expect.poll(() => alert.count(), { timeout: 30_000 }).toBe(1);
  expect(await alert.textContent()).toMatch(/broken-recording\.wav: not media/);
  expect(await alert.textContent()).not.toMatch(/weekly-sync/);
  expect(await dialog.getByRole('list', { name: '2 files' }).count()).toBe(1);
  // Seen whole: above the dialog's sticky Cancel / Transcribe bar.
  await expect.poll(() => alert.evaluate((el) => el.getBoundingClientRect().bottom <= el.closest('form')!.querySelector('.dialog-actions')!.getBoundingClientRect().top)).toBe(true);
  await page.screenshot({ path: join(SHOTS, 'dialog-chooser-refusal-800x600.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: join(SHOTS, 'dialog-chooser-refusal-1280x800.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  await page.getByRole('banner').getByRole('button', { name: /Uploads/ }).click();
  await expect.poll(() => page.getByRole('region', { name: 'Uploads' }).count(), { timeout: 20_000 }).toBe(1);
  expect(await row(page, 'broken-recording.wav').count()).toBe(0);
  expect(await row(page, 'weekly-sync.wav').count()).toBe(0);
  await page.close();
}, 180_000);

it('aligns a text file given in the dialog on a dropped recording', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page);
  const text = 'please remember to send the minutes before friday';
  await dropFiles(page, [{ name: 'minutes.wav', type: 'audio/wav', bytes: readFileSync(await speechWav(text)) }]);
  const dialog = page.getByRole('dialog', { name: 'New transcription' });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await expect.poll(() => dialog.getByLabel('Language').inputValue(), { timeout: 20_000 }).toBe('en-US');
  await dialog.getByRole('radio', { name: /Align a text I have/ }).check();
  // Without its text the dialog says what is missing and will not submit.
  expect(await dialog.getByText('Choose the text file to align.').count()).toBe(1);
  // The button says what this mode does: align, not transcribe.
  expect(await dialog.getByRole('button', { name: 'Transcribe' }).count()).toBe(0);
  expect(await dialog.getByRole('button', { name: 'Align', exact: true }).isDisabled()).toBe(true);
  const txt = join(work, 'minutes.txt');
  writeFileSync(txt, `${text}\n`);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose…' }).click()]);
  await chooser.setFiles(txt);
  await expect.poll(() => dialog.textContent()).toContain('minutes.txt');
  await dialog.getByRole('button', { name: 'Align', exact: true }).click();
  await expect.poll(() => dialog.count(), { timeout: 60_000 }).toBe(0);
  const item = row(page, 'minutes.wav');
  expect(await finished(item)).toContain('Done');
  expect(await item.textContent()).toContain('English (United States) · align');
  await item.getByRole('button', { name: 'Open session' }).click();
  // Aligned, the transcript holds the given words exactly, not what recognition heard.
  await expect.poll(async () => (await page.getByRole('list', { name: 'Transcript' }).allTextContents()).join(' ').toLowerCase(), { timeout: 60_000, interval: 500 }).toContain('minutes before friday');
  await page.close();
}, 300_000);

it('uploads finished captions with a recording: the session holds the given cues', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page);
  const text = 'the new office opens on monday morning';
  await page.getByRole('banner').getByRole('button', { name: 'New transcription' }).click();
  const dialog = page.getByRole('dialog', { name: 'New transcription' });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  const wav = join(work, 'office.wav');
  writeFileSync(wav, readFileSync(await speechWav(text)));
  const [media] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose files…' }).click()]);
  await media.setFiles(wav);
  await expect.poll(() => dialog.getByLabel('Language').inputValue(), { timeout: 20_000 }).toBe('en-US');
  await dialog.getByRole('radio', { name: /Upload finished captions or a transcript/ }).check();
  expect(await dialog.getByText('Choose the caption or transcript file.').count()).toBe(1);
  // No recognition runs on an uploaded document: its recognition options are greyed, saying why.
  for (const name of ['Tell speakers apart', 'Add punctuation']) expect(await dialog.getByRole('checkbox', { name }).isDisabled()).toBe(true);
  expect(await dialog.getByText(/there is no recognition to tell speakers apart or add punctuation/).count()).toBe(1);
  const srt = join(work, 'office.srt');
  writeFileSync(srt, '1\n00:00:00,000 --> 00:00:01,200\nThe new office opens\n\n2\n00:00:01,200 --> 00:00:02,500\non Monday morning.\n');
  const [captions] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose…' }).click()]);
  await captions.setFiles(srt);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect.poll(() => dialog.count(), { timeout: 60_000 }).toBe(0);
  const item = row(page, 'office.wav');
  expect(await finished(item)).toContain('Done');
  expect(await item.textContent()).toContain('English (United States) · upload');
  await item.getByRole('button', { name: 'Open session' }).click();
  // The cue text as written (capitals and all), which recognition would not produce.
  await expect.poll(async () => (await page.locator('main').textContent()) ?? '', { timeout: 60_000, interval: 500 }).toMatch(/Monday morning/);
  // The next recording is transcribed unless said otherwise: upload mode is not carried over.
  await page.keyboard.press('Control+n');
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await expect.poll(() => dialog.getByLabel('Language').inputValue(), { timeout: 20_000 }).toBe('en-US');
  expect(await dialog.getByRole('radio', { name: /Transcribe the speech/ }).isChecked()).toBe(true);
  expect(await dialog.getByRole('checkbox', { name: 'Tell speakers apart' }).isDisabled()).toBe(false);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.close();
}, 300_000);

it('queues a media URL for the service to download, and shows in words why it could not', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page);
  await page.getByRole('banner').getByRole('button', { name: 'New transcription' }).click();
  const dialog = page.getByRole('dialog', { name: 'New transcription' });
  await expect.poll(() => dialog.getByLabel('Language').inputValue(), { timeout: 20_000 }).toBe('en-US');
  await dialog.getByRole('radio', { name: /Transcribe the speech/ }).check();
  // example.com serves no recording (and this machine may not reach it at all): either way the service cannot use it.
  const url = 'https://example.com/no-such-recording.mp4';
  await dialog.getByLabel('Or a media URL').fill(url);
  await dialog.getByRole('button', { name: 'Transcribe' }).click();
  await expect.poll(() => dialog.count(), { timeout: 60_000 }).toBe(0);
  const item = row(page, url);
  const text = await finished(item);
  expect(text).toContain('Failed');
  // The reason is in the row, and the item can be tried again.
  expect(text).toMatch(/cannot|refused|could not|not media/i);
  expect(await item.getByRole('button', { name: 'Retry' }).count()).toBe(1);

  // An address on this computer or the local network is refused, in words a person understands.
  await page.keyboard.press('Control+n');
  await expect.poll(() => dialog.getByLabel('Language').inputValue(), { timeout: 20_000 }).toBe('en-US');
  const near = 'http://127.0.0.1:9/recording.wav';
  await dialog.getByLabel('Or a media URL').fill(near);
  await dialog.getByRole('button', { name: 'Transcribe' }).click();
  await expect.poll(() => dialog.count(), { timeout: 60_000 }).toBe(0);
  const nearText = await finished(row(page, near));
  expect(nearText).toContain('Failed');
  expect(nearText).toMatch(/on this computer or a private network, which the service does not fetch from/);
  await page.close();
}, 300_000);
