/**
 * Several accounts in real Chromium through the bridge: "This computer" (the embedded service)
 * and a second local service on another port, added by its address as a cloud service would be.
 * The address is checked before the password step (a web page that is not the service is
 * refused in words); each account has its own cache and shows its own sessions; switching from
 * the header keeps each signed in; signing out of one leaves the other signed in.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_DEMO } from '../helpers/app';
import { inTopBar } from './account-fixture';
import { DEMO, startService, stopAndRemove, type RunningService } from '../helpers/service';
import { appAndBrowserPerFile, shootLooks, submitSignIn } from '../helpers/ui';
import { openServiceDb, seedService } from '../main/helpers/seed';
import { accountId } from '../../main/auth/accounts';

const SHOTS = '/tmp/shots/accounts';
let cloud: RunningService;
let page: Page;

/** Sessions made straight in a service's database, renamed so each account's are told apart. */
function seed(dataDir: string, email: string, name: string, count: number): void {
  seedService(dataDir, { sessions: count, email });
  const db = openServiceDb(dataDir);
  try {
    db.prepare("UPDATE sessions SET filename = ? || '-' || id || '.wav'").run(name);
  } finally {
    db.close();
  }
}

const run = appAndBrowserPerFile();
beforeAll(async () => {
  cloud = await startService();
  seed(join(run.app.dataDir, 'local-service'), LOCAL_DEMO.email, 'on-this-computer', 1);
  seed(cloud.dataDir, DEMO.email, 'in-the-cloud', 2);
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(await run.app.newUrl());
}, 90_000);
afterAll(async () => {
  await stopAndRemove(cloud);
});

const form = () => page.getByRole('form', { name: 'Sign in' });
const sessions = () => page.getByRole('list', { name: 'Sessions' });
const listed = async () => ((await sessions().count()) ? ((await sessions().textContent()) ?? '') : '');

const signInWith = (account: { email: string; password: string }) => submitSignIn(page, account);

describe('accounts', () => {
  it('signs in to this computer and to a service by address, each with its own sessions, and switches between them', async () => {
    await form().waitFor({ timeout: 30_000 });
    await signInWith(LOCAL_DEMO);
    await expect.poll(listed, { timeout: 30_000 }).toContain('on-this-computer');

    // A web page that is not the service: refused before any password is asked for.
    await (await inTopBar(page, (p) => p.getByRole('combobox', { name: 'Account' }))).selectOption({ label: 'Add a service…' });
    let dialog = page.getByRole('dialog', { name: 'Add a service' });
    await dialog.getByLabel('Service address').fill(new URL(run.app.url).origin);
    await dialog.getByRole('button', { name: 'Check and continue' }).click();
    await expect.poll(async () => (await inTopBar(page, (p) => p.getByRole('banner').getByRole('alert'))).textContent(), { timeout: 20_000 }).toContain('not as a speech-to-text service');
    expect(await listed()).toContain('on-this-computer');

    await (await inTopBar(page, (p) => p.getByRole('combobox', { name: 'Account' }))).selectOption({ label: 'Add a service…' });
    dialog = page.getByRole('dialog', { name: 'Add a service' });
    await dialog.getByLabel('Service address').fill(`${cloud.url}/`);
    await dialog.getByRole('button', { name: 'Check and continue' }).click();
    await form().waitFor({ timeout: 30_000 });
    expect(await form().textContent()).toContain(`Sign in to ${cloud.url}`);
    await page.screenshot({ path: `${SHOTS}/sign-in-service-url-1280x800.png` });
    await signInWith(DEMO);
    await expect.poll(listed, { timeout: 30_000 }).toContain('in-the-cloud');
    expect(await listed()).not.toContain('on-this-computer');
    await page.screenshot({ path: `${SHOTS}/switcher-cloud-1280x800.png` });
    await inTopBar(page, (p) => p.getByRole('combobox', { name: 'Account' }));
    await page.screenshot({ path: `${SHOTS}/switcher-menu-1280x800.png` });
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: `${SHOTS}/switcher-cloud-800x600.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Back to this computer: still signed in there, with its own sessions.
    // The others are listed with who signed in there last.
    await (await inTopBar(page, (p) => p.getByRole('combobox', { name: 'Account' }))).selectOption({ label: `This computer (${LOCAL_DEMO.email})` });
    await expect.poll(listed, { timeout: 30_000 }).toContain('on-this-computer');
    expect(await listed()).not.toContain('in-the-cloud');
    expect(await (await inTopBar(page, (p) => p.getByRole('button', { name: LOCAL_DEMO.email }))).count()).toBe(1);

    // And to the service again, without a password: each account keeps its own sign-in.
    await (await inTopBar(page, (p) => p.getByRole('combobox', { name: 'Account' }))).selectOption({ label: `${new URL(cloud.url).host} (${DEMO.email})` });
    await expect.poll(listed, { timeout: 30_000 }).toContain('in-the-cloud');
    expect(await (await inTopBar(page, (p) => p.getByRole('button', { name: DEMO.email }))).count()).toBe(1);
  }, 180_000);

  it("a service added by address has its own live address on the Account page: checked, kept, and back to the service's own", async () => {
    await (await inTopBar(page, (p) => p.getByRole('button', { name: DEMO.email }))).click();
    const section = page.getByRole('region', { name: 'Live transcription address' });
    const status = section.getByRole('status');
    const usual = `${cloud.url.replace(/^http/, 'ws')}/api/v3/realtime`;
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe(`Live uses ${usual} (the service's own).`);
    const address = section.getByRole('textbox', { name: 'Address' });
    await address.fill('wss://live.example.com/realtime?language=en');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.getByRole('alert').textContent()).toMatch(/no \?query or #fragment/);
    expect(await status.textContent()).toContain(usual);
    await address.fill('https://live.example.com/v2/realtime');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => status.textContent()).toBe('Live uses wss://live.example.com/v2/realtime (set for this account).');
    expect(await section.getByRole('alert').count()).toBe(0);
    await shootLooks(page, '/tmp/shots/live-rest', 'account-live-address', () => section.scrollIntoViewIfNeeded());
    await section.getByRole('button', { name: "Use the service's own" }).click();
    await expect.poll(() => status.textContent()).toBe(`Live uses ${usual} (the service's own).`);
  }, 120_000);

  it('signs out of one account only, and the sign-in screen offers the others', async () => {
    await (await inTopBar(page, (p) => p.getByRole('button', { name: 'Sign out' }))).click();
    await form().waitFor({ timeout: 20_000 });
    const choice = form().getByRole('radiogroup', { name: 'Service' });
    await choice.getByRole('radio', { name: 'This computer' }).waitFor({ timeout: 20_000 });
    await page.screenshot({ path: `${SHOTS}/sign-in-choice-1280x800.png` });
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: `${SHOTS}/sign-in-choice-800x600.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // A new address is checked here too, before the password step.
    await choice.getByRole('radio', { name: 'Another service…' }).click();
    await choice.getByLabel('Service address').fill('http://127.0.0.1:9');
    await choice.getByRole('button', { name: 'Check and continue' }).click();
    await expect.poll(() => choice.getByRole('alert').textContent(), { timeout: 20_000 }).toContain('Nothing answers');

    // Checked once main has switched (auth.changed), so a click, not check().
    await choice.getByRole('radio', { name: 'This computer' }).click();
    await expect.poll(listed, { timeout: 30_000 }).toContain('on-this-computer');
    // The service's account stays signed out until someone signs in there again.
    await (await inTopBar(page, (p) => p.getByRole('combobox', { name: 'Account' }))).selectOption({ label: `${new URL(cloud.url).host} (${DEMO.email})` });
    await form().waitFor({ timeout: 30_000 });
    expect(await form().textContent()).toContain(`Sign in to ${cloud.url}`);
  }, 180_000);

  it('stays on the account it was on when another cannot open, says why, and keeps working', async () => {
    const third = await startService();
    try {
      // That service's folder holds a cache from a newer version of the app: it must not be opened.
      const dir = join(run.app.dataDir, 'accounts', accountId(third.url));
      mkdirSync(dir, { recursive: true });
      const db = new Database(join(dir, 'cache.db'));
      db.pragma('user_version = 999');
      db.close();

      const choice = form().getByRole('radiogroup', { name: 'Service' });
      await choice.getByRole('radio', { name: 'Another service…' }).click();
      await choice.getByLabel('Service address').fill(third.url);
      await choice.getByRole('button', { name: 'Check and continue' }).click();
      await expect.poll(() => choice.getByRole('alert').textContent(), { timeout: 30_000 }).toContain('written by a newer version');
      // The address stays, to correct or to leave.
      expect(await choice.getByLabel('Service address').inputValue()).toBe(third.url);

      // The account it stayed on still works: its sign-in, then its own sessions.
      expect(await form().textContent()).toContain(`Sign in to ${cloud.url}`);
      await signInWith(DEMO);
      await expect.poll(listed, { timeout: 30_000 }).toContain('in-the-cloud');
    } finally {
      await stopAndRemove(third);
    }
  }, 180_000);
});
