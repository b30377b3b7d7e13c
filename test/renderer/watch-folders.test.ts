/**
 * The watch-folders panel in real Chromium, on the browser-mode app and its embedded service: add
 * a folder by path with a language chosen from the service's list (a language the engine lacks is
 * listed but cannot be chosen), drop an espeak-ng WAV into it and see it delivered; a copy of it
 * shows "already transcribed as …" and can be transcribed again; a text file named .mp3 shows "not
 * media" with a retry; the folder's profile is edited in place; pause and resume; remove asks first.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { appAndBrowserPerFile, shootLooks, signIn, submitSignIn } from '../helpers/ui';

const SHOTS = '/tmp/shots/imports-ui';
const dirs: string[] = [];

const run = appAndBrowserPerFile();
beforeAll(() => mkdirSync(SHOTS, { recursive: true }));
afterAll(() => dirs.forEach(cleanup));

/** Opens a view from the header's menu (where the less used views live). */
async function fromMenu(page: Page, name: string): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('banner').getByRole('button', { name }).click();
}

async function addFolder(page: Page, path: string, language: string, formats: string[]): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a watched folder' });
  await form.getByLabel('Folder path').fill(path);
  await form.getByLabel('Language').selectOption({ label: language });
  for (const box of await form.getByRole('checkbox').all()) await box.setChecked(formats.includes((await box.evaluate((el) => el.parentElement!.textContent!.trim())).toLowerCase()));
  await form.getByRole('button', { name: 'Add folder' }).click();
  await expect.poll(() => page.getByRole('region', { name: path }).count(), { timeout: 10_000 }).toBe(1);
}

it('adds a folder with a language from the list, shows each file\'s outcome, edits the profile in place, pauses, and removes after asking', async () => {
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(await run.app.newUrl());
  await submitSignIn(page);
  await fromMenu(page, 'Watch folders');
  await expect.poll(() => page.getByText('No watched folders yet.').count(), { timeout: 20_000 }).toBe(1);

  // The languages come from the service's list, by name; one it lists but cannot transcribe here is shown, disabled, with why.
  const form = page.getByRole('form', { name: 'Add a watched folder' });
  const language = form.getByLabel('Language');
  await expect.poll(() => language.locator('option', { hasText: 'English (United States)' }).count(), { timeout: 20_000 }).toBe(1);
  const german = language.locator('option', { hasText: 'German' });
  expect(await german.textContent()).toContain('not installed on this service');
  expect(await german.isDisabled()).toBe(true);
  // Browser mode has no native folder dialog: Choose folder… opens the app's folder browser (its own test below).
  expect(await form.getByRole('button', { name: 'Choose folder…' }).count()).toBe(1);

  const inbox = tempDir('s2t-e2e-inbox-');
  dirs.push(inbox);
  await addFolder(page, inbox, 'English (United States)', ['srt', 'txt']);
  // The disabled Add button lost the focus: it is back on the path, not on the page.
  await expect.poll(() => form.getByLabel('Folder path').evaluate((el) => el === document.activeElement)).toBe(true);
  const card = page.getByRole('region', { name: inbox });
  expect(await card.textContent()).toContain('English (United States) · SRT, TXT · beside the media');

  // Each state and bar the standup.wav row shows, recorded in the page as the view changes.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      const li = Array.from(document.querySelectorAll('.watch-item')).find((el) => el.querySelector('.name')?.textContent === 'standup.wav');
      const bar = li?.querySelector('progress');
      const now = li ? `${li.querySelector('.state')?.textContent}${bar ? `:${bar.getAttribute('aria-label')}` : ''}` : '';
      if (now && seen[seen.length - 1] !== now) seen.push(now);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const wav = await speechWav('good morning everyone and welcome to the meeting');
  copyFileSync(wav, join(inbox, 'standup.wav'));
  writeFileSync(join(inbox, 'notes.mp3'), 'these are my notes, not a recording\n'.repeat(40));

  const items = page.getByRole('list', { name: `Items in ${inbox}` });
  const row = (name: string) => items.getByRole('listitem').filter({ hasText: name });
  // The text of a row now, or '' while it is not there (textContent() would wait for it).
  const rowText = async (name: string) => (await row(name).allTextContents()).join(' ');
  await expect.poll(() => row('standup.wav').getByText('Delivered', { exact: true }).count(), { timeout: 120_000, interval: 500 }).toBe(1);
  // Each file written is listed whole.
  const written = row('standup.wav').getByRole('list', { name: 'Files written for standup.wav' }).getByRole('listitem');
  await expect.poll(() => written.allTextContents()).toEqual(['standup.srt', 'standup.txt']);
  expect(await written.evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 0.5 || el.getBoundingClientRect().right > el.closest('li.watch-item')!.getBoundingClientRect().right).length)).toBe(0);
  // Its session is one click away, as an upload's is.
  expect(await row('standup.wav').getByRole('button', { name: 'Open session' }).count()).toBe(1);
  expect(existsSync(join(inbox, 'standup.srt'))).toBe(true);
  // While the job ran, the row said so with the job's progress bar, before it was delivered.
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  expect(seen).toContain('Transcribing:Transcription of standup.wav');
  expect(seen.indexOf('Transcribing:Transcription of standup.wav')).toBeLessThan(seen.indexOf('Delivered'));

  // Not media: a visible outcome in words, with a retry.
  await expect.poll(() => rowText('notes.mp3'), { timeout: 60_000, interval: 500 }).toMatch(/not media/);
  expect(await row('notes.mp3').getByRole('button', { name: 'Retry' }).count()).toBe(1);

  // The same content again: "already transcribed as …", with the session one click away and a way to transcribe it anyway.
  copyFileSync(wav, join(inbox, 'standup-copy.wav'));
  // The row appears from main's live watch.progress (the panel stays open: nothing reads the items again for it).
  await expect
    .poll(() => rowText('standup-copy.wav'), { timeout: 60_000, interval: 500 })
    .toMatch(/already transcribed as standup\.wav/);
  expect(await row('standup-copy.wav').getByRole('button', { name: 'Open session' }).count()).toBe(1);
  await page.screenshot({ path: join(SHOTS, 'watch-folders-1280x800.png'), fullPage: true });
  await row('standup-copy.wav').getByRole('button', { name: 'Transcribe again' }).click();
  await expect.poll(() => row('standup-copy.wav').getByRole('list', { name: 'Files written for standup-copy.wav' }).getByRole('listitem').allTextContents(), { timeout: 120_000, interval: 500 }).toEqual(['standup-copy.srt', 'standup-copy.txt']);
  expect(existsSync(join(inbox, 'standup-copy.srt'))).toBe(true);

  // The profile, edited in place: the change is saved by main (it is still there after leaving the panel).
  await card.getByRole('button', { name: 'Edit' }).click();
  const settings = card.getByRole('form', { name: `Settings of ${inbox}` });
  expect(await settings.getByLabel('Language').inputValue()).toBe('en-US');
  await settings.getByRole('checkbox', { name: 'SRT' }).uncheck();
  await settings.getByRole('checkbox', { name: 'VTT' }).check();
  await settings.getByRole('checkbox', { name: 'Tell speakers apart' }).check();
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => settings.count()).toBe(0);
  expect(await card.textContent()).toContain('English (United States) · VTT, TXT · beside the media');
  await fromMenu(page, 'Watch folders');
  await fromMenu(page, 'Watch folders');
  await expect.poll(() => page.getByRole('region', { name: inbox }).textContent(), { timeout: 10_000 }).toContain('VTT, TXT');
  await card.getByRole('button', { name: 'Edit' }).click();
  expect(await settings.getByRole('checkbox', { name: 'Tell speakers apart' }).isChecked()).toBe(true);
  await page.setViewportSize({ width: 800, height: 600 });
  await page.screenshot({ path: join(SHOTS, 'watch-folders-edit-800x600.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await settings.getByRole('button', { name: 'Cancel' }).click();

  await card.getByRole('button', { name: 'Pause' }).click();
  await expect.poll(() => card.getByText('Paused', { exact: true }).count()).toBe(1);
  await card.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(() => card.getByText('Watching', { exact: true }).count()).toBe(1);

  // Remove asks first; Cancel keeps the folder, and focus goes back to the Remove button.
  await card.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Stop watching this folder?' });
  await expect.poll(() => confirm.isVisible()).toBe(true);
  expect(await confirm.textContent()).toContain(inbox);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => confirm.count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Remove');
  expect(await page.getByRole('region', { name: inbox }).count()).toBe(1);
  await card.getByRole('button', { name: 'Remove' }).click();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect.poll(() => page.getByText('No watched folders yet.').count(), { timeout: 10_000 }).toBe(1);
  expect(await page.getByRole('region', { name: inbox }).count()).toBe(0);
  // Removing stops the watching; the files written stay.
  expect(existsSync(join(inbox, 'standup.srt'))).toBe(true);
}, 400_000);

it('chooses the folder to watch in the folder browser: opens folders, goes up, shows hidden ones, says why a path cannot be opened', async () => {
  const root = tempDir('s2t-folder-browser-');
  dirs.push(root);
  for (const name of ['Interviews', 'Podcasts', '.private']) mkdirSync(join(root, name));
  mkdirSync(join(root, 'Podcasts', 'Season 2'));
  writeFileSync(join(root, 'readme.txt'), 'not a folder');
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page, await run.app.newUrl());
  await fromMenu(page, 'Watch folders');
  const form = page.getByRole('form', { name: 'Add a watched folder' });
  await form.getByRole('button', { name: 'Choose folder…' }).click();
  const browser = page.getByRole('dialog', { name: 'Choose the folder to watch' });
  await expect.poll(() => browser.isVisible()).toBe(true);
  const where = browser.getByLabel('Folder', { exact: true });
  const listed = () => browser.getByRole('list', { name: /^Folders in / }).getByRole('listitem').allTextContents();

  // A path that is not there is refused in words; the folder typed opens.
  await where.fill(join(root, 'nowhere'));
  await browser.getByRole('button', { name: 'Go' }).click();
  await expect.poll(() => browser.getByRole('alert').textContent()).toBe(`${join(root, 'nowhere')}: This folder does not exist.`);
  await where.fill(root);
  await browser.getByRole('button', { name: 'Go' }).click();
  await expect.poll(listed).toEqual(['Interviews', 'Podcasts']);
  expect(await browser.getByRole('alert').count()).toBe(0);
  await browser.getByLabel('Show hidden folders').check();
  await expect.poll(listed).toEqual(['.private', 'Interviews', 'Podcasts']);

  // Into a folder, up again, and into the one to watch.
  await browser.getByRole('button', { name: 'Podcasts' }).click();
  await expect.poll(() => where.inputValue()).toBe(join(root, 'Podcasts'));
  await expect.poll(listed).toEqual(['Season 2']);
  await shootLooks(page, SHOTS, 'folder-browser');
  await browser.getByRole('button', { name: '↑ Up' }).click();
  await expect.poll(() => where.inputValue()).toBe(root);
  await browser.getByRole('button', { name: 'Interviews' }).click();
  await expect.poll(listed).toEqual(['No folders inside this one.']);
  await browser.getByRole('button', { name: 'Choose this folder' }).click();
  await expect.poll(() => browser.count()).toBe(0);
  await expect.poll(() => form.getByLabel('Folder path').inputValue()).toBe(join(root, 'Interviews'));
  await page.close();
}, 120_000);

it('keeps a path typed while the folder browser\'s first listing is still on its way', async () => {
  const root = tempDir('s2t-folder-typed-');
  dirs.push(root);
  mkdirSync(join(root, 'Clips'));
  const page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  // The bridge's socket passes through here; the first folders.list answer waits until released.
  const listIds = new Set<number>();
  let holding = false;
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.routeWebSocket(/\/bridge$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (typeof m === 'string') {
        const req = JSON.parse(m) as { id: number; channel: string };
        if (req.channel === 'folders.list') listIds.add(req.id);
      }
      server.send(m);
    });
    server.onMessage((m) => {
      const id = typeof m === 'string' ? (JSON.parse(m) as { id?: number }).id : undefined;
      if (id !== undefined && listIds.has(id) && !holding) {
        holding = true;
        void released.then(() => ws.send(m));
        return;
      }
      ws.send(m);
    });
  });
  await signIn(page, await run.app.newUrl());
  await fromMenu(page, 'Watch folders');
  await page.getByRole('form', { name: 'Add a watched folder' }).getByRole('button', { name: 'Choose folder…' }).click();
  const browser = page.getByRole('dialog', { name: 'Choose the folder to watch' });
  const where = browser.getByLabel('Folder', { exact: true });
  await expect.poll(() => holding, { timeout: 10_000 }).toBe(true);
  await where.fill(root);
  release();
  // The first listing arrives and is shown; the path typed stays, and Enter opens it.
  await expect.poll(() => browser.getByRole('list', { name: /^Folders in / }).count()).toBe(1);
  expect(await where.inputValue()).toBe(root);
  await where.press('Enter');
  await expect.poll(() => browser.getByRole('list', { name: `Folders in ${root}` }).getByRole('listitem').allTextContents()).toEqual(['Clips']);
  await page.close();
}, 120_000);
