/**
 * The account page and the two-factor sign-in in real Chromium through the bridge, against the
 * app's embedded service: an API token's value shown once beside a copy button, then only its
 * key, and deleted after a confirmation; two-factor turned on with a computed TOTP; signing in
 * again asks for the code, calls a wrong code a wrong code, and goes back to the password step;
 * a backup code turns two-factor off. Screenshots of each step in /tmp/shots/accounts/.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { USED_CODE, WRONG_APP_CODE, WRONG_CODE } from '../../main/ipc/handlers/account';
import { LOCAL_DEMO } from '../helpers/app';
import { inTopBar } from './account-fixture';
import { totpCode } from '../service/auth/client';
import { axeProblems, describeProblems } from './look-fixture';
import { appAndBrowserPerFile, shootLooks, submitSignIn } from '../helpers/ui';

const SHOTS = '/tmp/shots/accounts';
let page: Page;

const run = appAndBrowserPerFile();
beforeAll(async () => {
  page = await run.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(await run.app.newUrl());
});

/** axe-core's serious and critical findings on every view shot, light and dark, both sizes. */
const axeFound: string[] = [];

/** Screenshots at both sizes the app must work at, light and dark, with an axe run on each look; back to the large light one. */
async function shoot(name: string): Promise<void> {
  await shootLooks(page, SHOTS, name, async () => {
    const { width, height } = page.viewportSize()!;
    const scheme = (await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)) ? 'dark' : 'light';
    axeFound.push(...describeProblems(`${name} ${width}x${height} ${scheme}`, await axeProblems(page)));
  });
}

const signInForm = () => page.getByRole('form', { name: 'Sign in' });
const sessions = () => page.getByRole('list', { name: 'Sessions' });

const passwordStep = () => submitSignIn(page);

async function openAccount(): Promise<void> {
  await (await inTopBar(page, (p) => p.getByRole('button', { name: LOCAL_DEMO.email }))).click();
  await page.getByRole('region', { name: 'Account' }).getByText('Signs in with').waitFor({ timeout: 20_000 });
}

/** A six-digit code that is not the current one (nor its neighbours). */
function notTheCode(secret: string): string {
  const near = new Set([-1, 0, 1].map((s) => totpCode(secret, s)));
  let n = 123456;
  while (near.has(String(n))) n++;
  return String(n);
}

describe('account page', () => {
  it('signs in and shows who you are', async () => {
    await signInForm().waitFor({ timeout: 30_000 });
    await shoot('sign-in');
    await passwordStep();
    await expect.poll(() => sessions().count(), { timeout: 30_000 }).toBe(1);
    await openAccount();
    const facts = page.locator('.account-facts');
    expect(await facts.textContent()).toContain(LOCAL_DEMO.email);
    expect(await facts.textContent()).toContain('E-mail and password');
    // Roles in words, not the service's upper-case codes.
    expect(await facts.textContent()).toContain('Customer');
    expect(await facts.textContent()).not.toContain('CUSTOMER');
  }, 90_000);

  it('creates a token, shows its value once beside a copy button, then only its key, and deletes it after asking', async () => {
    const form = page.getByRole('form', { name: 'New API token' });
    await form.getByLabel('Name').fill('Nightly import');
    await form.getByLabel('Valid for').selectOption('2');
    await form.getByRole('button', { name: 'Create token' }).click();
    const once = page.getByRole('region', { name: 'New token' });
    await once.waitFor({ timeout: 20_000 });
    expect(await once.textContent()).toContain('will not be shown again');
    expect(await once.getByRole('button', { name: 'Copy' }).count()).toBe(1);
    // The value is what to act on next: its Copy button has the focus (the disabled Create button had it).
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[aria-label="New token"]') !== null && document.activeElement?.textContent === 'Copy')).toBe(true);
    const value = (await once.getByLabel('Token value').textContent())!;
    expect(value.length).toBeGreaterThan(20);
    const row = page.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: 'Nightly import' });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    const key = (await row.locator('code').textContent())!;
    expect(value).not.toBe(key);
    await shoot('token-created');

    await once.getByRole('button', { name: 'I have copied it' }).click();
    expect(await once.count()).toBe(0);
    // The focus went on to the form's Name, not to the page.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('token-name');
    expect(await page.content()).not.toContain(value);
    expect(await row.locator('code').textContent()).toBe(key);

    await row.getByRole('button', { name: 'Delete token Nightly import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the token “Nightly import”?' });
    await dialog.waitFor();
    await shoot('token-delete');
    await dialog.getByRole('button', { name: 'Delete token' }).click();
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(0);
  }, 90_000);

  it('turns two-factor on with a computed code; the sign-in then asks for it, says when it is wrong, and goes back', async () => {
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    const enable = page.getByRole('form', { name: 'Turn on two-factor' });
    await enable.getByRole('img', { name: /QR code/ }).waitFor({ timeout: 20_000 });
    const secret = (await enable.locator('code.secret').textContent())!;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await enable.getByLabel('Code from your authenticator app').fill(notTheCode(secret));
    await enable.getByRole('button', { name: 'Turn on' }).click();
    // Before any backup codes exist the message speaks only of the app's code.
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toBe(WRONG_APP_CODE);
    expect(WRONG_APP_CODE).not.toMatch(/backup/i);
    // The focus is back on the code to type again, not lost with the disabled button.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('mfa-code');
    await shoot('two-factor-scan');
    const enablingCode = totpCode(secret);
    await enable.getByLabel('Code from your authenticator app').fill(enablingCode);
    await enable.getByRole('button', { name: 'Turn on' }).click();
    const saved = page.getByRole('region', { name: 'Backup codes' });
    await saved.waitFor({ timeout: 20_000 });
    const backupCodes = await saved.locator('li code').allTextContents();
    expect(backupCodes).toHaveLength(10);
    expect(await saved.textContent()).toContain('will not be shown again');
    await shoot('backup-codes');
    await saved.getByRole('button', { name: 'I have saved them' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Turn off two-factor' }).count(), { timeout: 20_000 }).toBe(1);

    await (await inTopBar(page, (p) => p.getByRole('button', { name: 'Sign out' }))).click();
    await signInForm().waitFor({ timeout: 20_000 });
    await passwordStep();
    const codeInput = signInForm().getByLabel('Code from your authenticator app, or a backup code');
    await codeInput.waitFor({ timeout: 20_000 });
    await codeInput.fill(notTheCode(secret));
    await signInForm().getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => signInForm().getByRole('alert').textContent(), { timeout: 20_000 }).toBe(WRONG_CODE);
    expect(await page.content()).not.toContain('password is wrong');
    await shoot('sign-in-wrong-code');

    // The way back: the password step again, without the message, and a fresh sign-in from there.
    await signInForm().getByRole('button', { name: 'Back' }).click();
    await signInForm().getByLabel('Password').waitFor();
    expect(await signInForm().getByRole('alert').count()).toBe(0);
    await passwordStep();
    await codeInput.waitFor({ timeout: 20_000 });
    // The code that turned two-factor on is right but used up: the app says so, and to wait for the next one.
    expect(await signInForm().getByText(`Two-factor sign-in for ${LOCAL_DEMO.email}.`).count()).toBe(1);
    await codeInput.fill(enablingCode);
    await signInForm().getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => signInForm().getByRole('alert').textContent(), { timeout: 20_000 }).toBe(USED_CODE);
    await shoot('sign-in-used-code');
    // The next step's code: the current one was used up turning two-factor on.
    await codeInput.fill(totpCode(secret, 1));
    await signInForm().getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => sessions().count(), { timeout: 30_000 }).toBe(1);

    await openAccount();
    await page.getByRole('button', { name: 'Turn off two-factor' }).click();
    const disable = page.getByRole('form', { name: 'Turn off two-factor' });
    await disable.getByLabel('Code from your authenticator app, or a backup code').fill(backupCodes[3]);
    await shoot('two-factor-off');
    await disable.getByRole('button', { name: 'Turn off' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Turn on two-factor' }).count(), { timeout: 20_000 }).toBe(1);
    await shoot('account');

    // Off for real: the password alone signs in again.
    await (await inTopBar(page, (p) => p.getByRole('button', { name: 'Sign out' }))).click();
    await signInForm().waitFor({ timeout: 20_000 });
    await passwordStep();
    await expect.poll(() => sessions().count(), { timeout: 30_000 }).toBe(1);
  }, 180_000);

  it('has no serious or critical axe-core finding on any of these views, light or dark', () => {
    expect(axeFound).toEqual([]);
  });
});
