/** Single sign-on in a real browser: Chromium follows the redirects, fills the identity page and lands on a loopback callback. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../helpers/app';
import { cleanup, startService, type RunningService } from '../../helpers/service';
import { call, mustAddUser } from './client';

let svc: RunningService;
let browser: Browser;
let callback: Server;
let callbackUrl: string;
const arrivals: URL[] = [];

beforeAll(async () => {
  svc = await startService({ demo: false });
  await mustAddUser(svc.dataDir, 'browser@example.com', 'browser-password-1', ['CUSTOMER'], ['--identity-provider', 'microsoft', '--first-name', 'Bea']);
  // The app's side of RFC 8252: a loopback listener on a free port that receives the redirect.
  callback = createServer((req, res) => {
    const url = new URL(req.url!, 'http://127.0.0.1');
    if (url.pathname === '/sso/callback') arrivals.push(url);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p id="done">You can close this window.</p>');
  });
  await new Promise<void>((r) => callback.listen(0, '127.0.0.1', r));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/sso/callback`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  callback?.close();
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

describe('SSO in Chromium', () => {
  it('signs in on the identity page, then picks the remembered account the second time', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const start = (state: string) => `${svc.url}/api/v3/auth/login/microsoft?${new URLSearchParams({ redirect_uri: callbackUrl, state })}`;

    await page.goto(start('first-run'));
    await page.fill('input[name=email]', 'browser@example.com');
    await page.fill('input[name=password]', 'browser-password-1');
    await Promise.all([page.waitForURL((u) => u.pathname === '/sso/callback'), page.click('#sign-in')]);
    expect(await page.textContent('#done')).toContain('close this window');
    const first = arrivals.at(-1)!;
    expect(first.searchParams.get('state')).toBe('first-run');
    const me = await call(svc.url, 'account.me', '/api/v3/account/me', { token: first.searchParams.get('access_token')! });
    expect(me.body.result).toMatchObject({ email: 'browser@example.com', first_name: 'Bea', identity_provider: 'microsoft' });

    await page.goto(start('second-run'));
    const pick = page.locator('#pick');
    expect(await pick.textContent()).toContain('browser@example.com');
    await Promise.all([page.waitForURL((u) => u.pathname === '/sso/callback'), pick.click()]);
    const second = arrivals.at(-1)!;
    expect(second.searchParams.get('state')).toBe('second-run');
    expect(second.searchParams.get('access_token')).not.toBe(first.searchParams.get('access_token'));
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: second.searchParams.get('access_token')! })).status).toBe(200);

    // A fresh browser profile has no remembered account: it must sign in.
    const stranger = await (await browser.newContext()).newPage();
    await stranger.goto(start('third'));
    expect(await stranger.locator('#pick').count()).toBe(0);
    await context.close();
  });

  it('shows an error on a wrong password and stays on the page', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${svc.url}/api/v3/auth/login/microsoft?${new URLSearchParams({ redirect_uri: callbackUrl })}`);
    const before = arrivals.length;
    await page.fill('input[name=email]', 'browser@example.com');
    await page.fill('input[name=password]', 'wrong-password-x');
    await page.click('#sign-in');
    await page.waitForSelector('#error');
    expect(await page.textContent('#error')).toContain('Wrong e-mail or password');
    expect(arrivals.length).toBe(before);
  });
});
