/**
 * The app's Share dialog in real Chromium through the web bridge, on a local service of the
 * test's own: a link sent by e-mail used to be invisible to the person who sent it, and could
 * not be revoked. Now the dialog lists every live link of the document (how it was made, its
 * rights, its expiry, to whom it was mailed) and revokes one, or all after asking. Screenshots:
 * /tmp/shots/sec-edges/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from '../helpers/app';
import { DEMO, cleanup, startService, type RunningService } from '../helpers/service';
import { shootLooks, startCloudApp, submitSignIn, type CloudApp } from '../helpers/ui';
import { seedService } from '../main/helpers/seed';

const SHOTS = '/tmp/shots/sec-edges';
let svc: RunningService;
let app: CloudApp;
let browser: Browser;
let page: Page;

const shoot = (name: string) => shootLooks(page, SHOTS, name);

/** The link in the newest message to `to` in the service's mail spool. */
function mailedUrl(to: string): string {
  const spool = join(svc.dataDir, 'mail-spool');
  const mails = readdirSync(spool).sort().map((f) => readFileSync(join(spool, f), 'utf8').replace(/=\r\n/g, '').replace(/=3D/g, '='));
  const mail = mails.reverse().find((m) => m.includes(`To: ${to}`));
  const url = /(http:\/\/\S+\/transcripts\/shared\/\S+)/.exec(mail ?? '')?.[1];
  if (!url) throw new Error(`no link mailed to ${to}`);
  return url;
}

beforeAll(async () => {
  svc = await startService();
  seedService(svc.dataDir, { email: DEMO.email, sessions: 1, texts: () => ['The budget for next year was agreed on Monday.'] });
  app = await startCloudApp(svc.url);
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => console.log('page error:', e.message));
  await page.goto(await app.newUrl());
  await submitSignIn(page, DEMO);
  const row = page.getByRole('list', { name: 'Sessions' }).getByRole('button').first();
  await vi.waitFor(async () => expect(await row.count()).toBe(1), { timeout: 60_000, interval: 250 });
  await row.click();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (svc) {
    await svc.stop();
    cleanup(svc.dataDir);
  }
  if (app) cleanup(app.dataDir);
});

describe('the Share dialog', () => {
  it('lists a mailed link with its recipient, revokes it, then revokes all after asking', async () => {
    await page.getByRole('button', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share' });
    const links = dialog.getByRole('list', { name: 'Share links' }).getByRole('listitem');

    await dialog.getByRole('textbox', { name: /Send a read-only link by e-mail/ }).fill('friend@example.org');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => links.count(), { timeout: 30_000 }).toBe(1);
    const mailed = links.filter({ hasText: 'friend@example.org' });
    expect(await mailed.textContent()).toMatch(/Only friend@example\.org has this link\..*Sent by e-mail to friend@example\.org on .* · read only · may export · until /);
    expect(await mailed.getByLabel('Link', { exact: true }).count()).toBe(0);
    const mailedLink = mailedUrl('friend@example.org');
    expect((await fetch(mailedLink)).status).toBe(200);

    await dialog.getByRole('button', { name: 'Make link' }).click();
    await expect.poll(() => links.count(), { timeout: 30_000 }).toBe(2);
    await shoot('share-dialog-mailed');

    await mailed.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => links.count()).toBe(1);
    await expect.poll(() => dialog.getByText(/^Link revoked.*friend@example\.org can no longer open it\./).count()).toBe(1);
    expect(await links.filter({ hasText: 'friend@example.org' }).count()).toBe(0);
    expect((await fetch(mailedLink)).status).toBe(410);

    await dialog.getByRole('textbox', { name: /Send a read-only link by e-mail/ }).fill('colleague@example.org');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => links.count(), { timeout: 30_000 }).toBe(2);
    const asked = await dialog.getByLabel('Link', { exact: true }).inputValue();
    const second = mailedUrl('colleague@example.org');
    await dialog.getByRole('button', { name: 'Revoke all 2 links…' }).click();
    const confirm = dialog.getByRole('group', { name: 'Revoke all links' });
    expect(await confirm.textContent()).toMatch(/Everyone who has one of these 2 links loses access, those sent by e-mail included\./);
    await shoot('share-dialog-revoke-all');
    await confirm.getByRole('button', { name: 'Revoke all' }).click();
    await expect.poll(() => links.count()).toBe(0);
    await expect.poll(() => dialog.getByText('All 2 links were revoked: each now says “link expired”.').count()).toBe(1);
    await shoot('share-dialog-all-revoked');
    for (const url of [asked, second]) expect((await fetch(url)).status).toBe(410);
  }, 120_000);

  it('says when the list is only the links made on this computer (the service is gone), and lists again when it is back', async () => {
    const dialog = page.getByRole('dialog', { name: 'Share' });
    const links = dialog.getByRole('list', { name: 'Share links' }).getByRole('listitem');
    await dialog.getByRole('textbox', { name: /Send a read-only link by e-mail/ }).fill('friend@example.org');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByRole('button', { name: 'Make link' }).click();
    await expect.poll(() => links.count(), { timeout: 30_000 }).toBe(2);
    const port = Number(new URL(svc.url).port);
    await svc.stop();
    // Asking for another kind of link queues it and reads the list again, which cannot reach the service.
    await dialog.getByRole('checkbox', { name: 'People with the link may edit' }).check();
    await dialog.getByRole('button', { name: 'Make link' }).click();
    const note = dialog.getByText(/^The service cannot be reached: these are the links made on this computer\./);
    await expect.poll(() => note.count(), { timeout: 30_000 }).toBe(1);
    expect(await links.count()).toBe(1);
    expect(await dialog.getByText('The link is made when the service is reached; it shows here then.').count()).toBe(1);
    expect(await dialog.getByText('Link ready.').count()).toBe(0);
    expect(await links.first().textContent()).toMatch(/Made on .* · read only · may export/);
    expect(await links.first().getByLabel('Link', { exact: true }).count()).toBe(1);
    await shoot('share-dialog-offline');
    svc = await startService({ dataDir: svc.dataDir, port });
    await expect.poll(() => note.count(), { timeout: 90_000, interval: 500 }).toBe(0);
    await expect.poll(() => links.filter({ hasText: 'friend@example.org' }).count(), { timeout: 30_000 }).toBe(1);
  }, 180_000);
});
