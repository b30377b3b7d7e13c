/**
 * Signing in to this computer's own service in real Chromium: the app signs in by itself with the
 * credential it made for its embedded service; after the person signs out, "Continue on this
 * computer" brings them back without a password nobody knows; the screen shows no demo password.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startApp, type RunningApp } from '../helpers/app';
import { inTopBar } from './account-fixture';
import { ROOT } from '../helpers/service';

let browser: Browser;
const apps: RunningApp[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(apps.map((a) => a.stop()));
});

describe('this computer', () => {
  it('is signed in at start, and after a sign-out "Continue on this computer" signs in again', async () => {
    const app = await startApp({ localAccount: null });
    apps.push(app);
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(await app.newUrl());
    await expect.poll(() => page.getByRole('list', { name: 'Sessions' }).count(), { timeout: 20_000 }).toBe(1);
    // A first start has no sessions: the content says how to make one, not "choose a session", and there is nothing to select.
    await expect.poll(() => page.getByRole('main').textContent(), { timeout: 20_000 }).toContain('No sessions yet.');
    expect(await page.getByRole('main').getByRole('button', { name: 'New transcription' }).count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Select all sessions' }).count()).toBe(0);
    await (await inTopBar(page, (p) => p.getByRole('button', { name: 'Sign out' }))).click();

    const form = page.getByRole('form', { name: 'Sign in' });
    await expect.poll(() => form.count()).toBe(1);
    // The usual way in on this computer has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Continue on this computer');
    // A wrong password says so, and the focus is on the password to type it again (not lost with the disabled button).
    await form.getByLabel('E-mail').fill('owner@s2t.local');
    await form.getByLabel('Password').fill('not-the-password');
    await form.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => form.getByRole('alert').count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
    expect(await page.content()).not.toContain('s2t-demo');
    await page.screenshot({ path: join(ROOT, 'test-results/sign-in-local-1280.png') });
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: join(ROOT, 'test-results/sign-in-local-800.png') });
    // A narrow window folds the session list away; the wide one shows it.
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Continue on this computer' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Sessions' }).count(), { timeout: 20_000 }).toBe(1);
    expect(await page.getByText('owner@s2t.local').count()).toBe(1);
  }, 90_000);

  it('says so when the app holds no credential for the service (its account came from the caller)', async () => {
    const app = await startApp();
    apps.push(app);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(await app.newUrl());
    await page.getByRole('button', { name: 'Continue on this computer' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('does not hold a password');
    expect(await page.getByRole('list', { name: 'Sessions' }).count()).toBe(0);
  }, 90_000);
});
