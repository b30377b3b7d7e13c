/**
 * Two-factor on this computer's own account, in real Chromium through the web bridge, the app run
 * as people run it (it signs in to its embedded service by itself): turning two-factor on long
 * after that sign-in works without signing out (the app signs in again with the password it
 * holds); "Continue on this computer" then asks for a code naming the account; single sign-on
 * here does not claim to be Microsoft. Screenshots go to /tmp/shots/truth-ui/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startApp, type RunningApp } from '../helpers/app';
import { shootLooks } from '../helpers/ui';
import { openServiceDb } from '../main/helpers/seed';
import { totpCode } from '../service/auth/client';
import { inTopBar } from './account-fixture';

const SHOTS = '/tmp/shots/truth-ui';
const OWNER = 'owner@s2t.local';
let browser: Browser;
let app: RunningApp;
let page: Page;

beforeAll(async () => {
  app = await startApp({ localAccount: null });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => console.log('page error:', e.message));
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("two-factor on this computer's account", () => {
  it('turns on long after the app signed itself in, and "Continue on this computer" then asks for a code for the account', async () => {
    await page.goto(await app.newUrl());
    await expect.poll(() => page.getByRole('list', { name: 'Sessions' }).count(), { timeout: 30_000 }).toBe(1);
    // The app's sign-in was an hour ago, as after a morning's work (the service asks for one of the last 10 minutes).
    const db = openServiceDb(join(app.dataDir, 'local-service'));
    try {
      expect(db.prepare('UPDATE login_sessions SET created_at = ?').run(new Date(Date.now() - 3_600_000).toISOString()).changes).toBeGreaterThan(0);
    } finally {
      db.close();
    }

    await (await inTopBar(page, (p) => p.getByRole('button', { name: OWNER }))).click();
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    const enable = page.getByRole('form', { name: 'Turn on two-factor' });
    await expect.poll(async () => (await enable.getByRole('img', { name: /QR code/ }).count()) + (await page.getByRole('alert').count()), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    const secret = (await enable.locator('code.secret').textContent())!;
    await enable.getByLabel('Code from your authenticator app').fill(totpCode(secret));
    await enable.getByRole('button', { name: 'Turn on' }).click();
    const saved = page.getByRole('region', { name: 'Backup codes' });
    await saved.waitFor({ timeout: 20_000 });
    await saved.getByRole('button', { name: 'I have saved them' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Turn off two-factor' }).count(), { timeout: 20_000 }).toBe(1);

    await (await inTopBar(page, (p) => p.getByRole('button', { name: 'Sign out' }))).click();
    const form = page.getByRole('form', { name: 'Sign in' });
    await expect.poll(() => form.count(), { timeout: 20_000 }).toBe(1);
    // Single sign-on here opens this computer's identity page, and says so.
    const sso = form.getByRole('button', { name: /single sign-on/ });
    expect(await sso.textContent()).not.toMatch(/Microsoft/);
    await form.getByRole('button', { name: 'Continue on this computer' }).click();
    const codeInput = form.getByLabel('Code from your authenticator app, or a backup code');
    await codeInput.waitFor({ timeout: 20_000 });
    expect(await form.locator('.step-note').textContent()).toBe(`Two-factor sign-in for ${OWNER}.`);
    await shootLooks(page, SHOTS, 'local-two-factor-code');
    // The code that turned it on was used up: the next window's code signs in.
    await codeInput.fill(totpCode(secret, 1));
    await form.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Sessions' }).count(), { timeout: 30_000 }).toBe(1);
  }, 120_000);
});
