/**
 * Single sign-on from the sign-in screen in real Chromium: the app opens the service's sign-in in
 * a new tab (browser mode), the person signs in on the local identity page, the identity page
 * sends the browser to main's loopback listener, and the app signs in as that account.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { appAndBrowserPerFile } from '../helpers/ui';
import { inTopBar } from './account-fixture';
import { mustAddUser } from '../service/auth/client';

const SHOTS = '/tmp/shots/accounts';
const SSO_USER = { email: 'sso.person@example.com', password: 'sso-password-1' };

const run = appAndBrowserPerFile();
beforeAll(async () => {
  // An account of the identity provider, in the app's own embedded service.
  await mustAddUser(join(run.app.dataDir, 'local-service'), SSO_USER.email, SSO_USER.password, ['CUSTOMER'], ['--identity-provider', 'microsoft', '--first-name', 'Sam']);
}, 90_000);

describe('single sign-on', () => {
  it('signs in through the identity page in a new tab and the loopback listener', async () => {
    const context = await run.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(await run.app.newUrl());
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.waitFor({ timeout: 30_000 });

    const [tab] = await Promise.all([context.waitForEvent('page'), form.getByRole('button', { name: /single sign-on/ }).click()]);
    await tab.waitForURL((u) => u.pathname.endsWith('/auth/sso/identity'), { timeout: 20_000 });
    expect(await page.getByRole('status').textContent()).toContain('Finish signing in in your browser');
    await page.screenshot({ path: `${SHOTS}/sign-in-sso-waiting-1280x800.png` });
    await tab.fill('input[name=email]', SSO_USER.email);
    await tab.fill('input[name=password]', SSO_USER.password);
    await Promise.all([tab.waitForURL((u) => u.hostname === '127.0.0.1' && u.pathname === '/s2t/sso/callback', { timeout: 20_000 }), tab.click('#sign-in')]);
    expect(await tab.textContent('#message')).toContain('You are signed in');
    await tab.screenshot({ path: `${SHOTS}/sso-success-page-1280x800.png` });

    await expect.poll(() => page.getByRole('list', { name: 'Sessions' }).count(), { timeout: 30_000 }).toBe(1);
    expect(await (await inTopBar(page, (p) => p.getByRole('button', { name: SSO_USER.email }))).count()).toBe(1);
    // The listener closed after its one use.
    await expect(fetch(tab.url())).rejects.toThrow();
    await context.close();
  }, 120_000);
});
