/**
 * Single sign-on through a real core against the local service's identity page, over real HTTP:
 * auth.ssoStart names the service's SSO address with our loopback redirect and state; the
 * identity page's answer lands on the listener, and the core signs in as that account. A second
 * start replaces the first (its port closes); a flow that runs out of time says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthState } from '../../../common/ipc';
import { createCore, type Core } from '../../../main/core';
import { MemorySecretStore } from '../../../main/platform/secrets';
import { mustAddUser } from '../../service/auth/client';
import { stopAndRemove, startService, tempDirs, type RunningService } from '../../helpers/service';

const SSO_USER = { email: 'sso@example.com', password: 'sso-password-1' };
const dirs = tempDirs();
let svc: RunningService;

beforeAll(async () => {
  svc = await startService();
  await mustAddUser(svc.dataDir, SSO_USER.email, SSO_USER.password, ['CUSTOMER'], ['--identity-provider', 'microsoft', '--first-name', 'Sol']);
}, 60_000);
afterAll(async () => {
  await stopAndRemove(svc);
  dirs.removeAll();
});

async function core(ssoTimeoutMs = 60_000, openExternal?: (url: string) => Promise<void>): Promise<{ core: Core; changes: AuthState[] }> {
  const changes: AuthState[] = [];
  const c = await createCore({
    dataDir: dirs.make('s2t-sso-'), serviceUrl: svc.url, mode: 'cloud', secrets: new MemorySecretStore(), background: false, retries: 1, timeoutMs: 10_000, ssoTimeoutMs, openExternal,
    emit: (event, payload) => {
      if (event === 'auth.changed') changes.push(payload as AuthState);
    },
  });
  return { core: c, changes };
}

/** What the person does in the browser: follow the start address, sign in on the identity page, be sent back. */
async function signInAtIdentityPage(startUrl: string): Promise<Response> {
  const start = await fetch(startUrl, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const identity = new URL(start.headers.get('location')!, svc.url);
  const flow = identity.searchParams.get('flow')!;
  const posted = await fetch(new URL('/api/v3/auth/sso/identity', svc.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ flow, action: 'password', email: SSO_USER.email, password: SSO_USER.password }),
  });
  expect(posted.status).toBe(303);
  return fetch(posted.headers.get('location')!);
}

describe('single sign-on', () => {
  it('signs in through the identity page and the loopback listener', async () => {
    const { core: c, changes } = await core();
    try {
      const { url, opened } = await c.handlers['auth.ssoStart']({});
      expect(opened).toBe(false); // no system browser here: the renderer opens the tab
      const start = new URL(url);
      expect(start.origin).toBe(svc.url);
      const redirect = new URL(start.searchParams.get('redirect_uri')!);
      expect(redirect.hostname).toBe('127.0.0.1');
      expect(start.searchParams.get('state')).toBeTruthy();

      const back = await signInAtIdentityPage(url);
      expect(back.status).toBe(200);
      expect(await back.text()).toContain('You are signed in');
      await expect.poll(() => changes.at(-1)?.signedIn, { timeout: 20_000 }).toBe(true);
      expect((await c.handlers['auth.state']({})).user).toMatchObject({ email: SSO_USER.email, name: 'Sol' });
      expect((await c.handlers['account.profile']({})).identityProvider).toBe('microsoft');
    } finally {
      await c.close();
    }
  }, 60_000);

  it('a second start replaces the first, whose port closes; a flow past its deadline says so', async () => {
    const { core: c, changes } = await core(500);
    try {
      const first = new URL((await c.handlers['auth.ssoStart']({})).url).searchParams.get('redirect_uri')!;
      const second = await c.handlers['auth.ssoStart']({});
      await expect(fetch(first)).rejects.toThrow();
      expect(second.url).not.toContain(encodeURIComponent(first));
      await expect.poll(() => changes.at(-1)?.message, { timeout: 20_000 }).toContain('took too long');
      expect(changes.every((s) => !s.signedIn)).toBe(true);
      const redirect = new URL(second.url).searchParams.get('redirect_uri')!;
      await expect(fetch(redirect)).rejects.toThrow();
    } finally {
      await c.close();
    }
  }, 60_000);

  it('in Electron, main opens the system browser itself (the platform hands it shell.openExternal)', async () => {
    const opened: string[] = [];
    // The person's browser, played by fetch: it follows the address main opened.
    const { core: c, changes } = await core(60_000, async (url) => {
      opened.push(url);
      void signInAtIdentityPage(url);
    });
    try {
      const answer = await c.handlers['auth.ssoStart']({});
      expect(answer.opened).toBe(true);
      expect(opened).toEqual([answer.url]);
      await expect.poll(() => changes.at(-1)?.signedIn, { timeout: 20_000 }).toBe(true);
    } finally {
      await c.close();
    }
  }, 60_000);
});
