import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, startService, type RunningService } from '../../helpers/service';
import { errorOf } from '../answers';
import { call, mustAddUser } from './client';

let svc: RunningService;
const SSO_USER = { email: 'ms@example.com', password: 'microsoft-pass-1' };

beforeAll(async () => {
  // https redirects only where the operator allowed them.
  svc = await startService({ args: ['--sso-redirect-uri', 'https://app.example.com/sso/done', '--sso-redirect-uri', 'https://x.example.com/<script>"'] });
  await mustAddUser(svc.dataDir, SSO_USER.email, SSO_USER.password, ['CUSTOMER', 'DEVELOPER'], ['--identity-provider', 'microsoft']);
});
afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

/** Starts a flow and follows the first redirect to the identity page; returns the page's flow id. */
async function startFlow(redirectUri: string, state?: string): Promise<string> {
  const qs = new URLSearchParams({ redirect_uri: redirectUri, ...(state === undefined ? {} : { state }) });
  const start = await call(svc.url, 'GET', `/api/v3/auth/login/microsoft?${qs}`);
  expect(start.status).toBe(302);
  const location = new URL(start.headers.get('location')!, svc.url);
  expect(location.origin).toBe(svc.url);
  const page = await call(svc.url, 'GET', location.pathname + location.search);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
  const flow = /name="flow" value="([^"]+)"/.exec(page.text)![1];
  return flow;
}

const submit = (form: Record<string, string>, cookie?: string) =>
  call(svc.url, 'POST', '/api/v3/auth/sso/identity', { form, headers: cookie ? { cookie } : {} });

describe('single sign-on through the local identity page', () => {
  let browserCookie: string;

  it('signs in at the identity page and comes back to a loopback redirect_uri with the token and the state unchanged', async () => {
    const state = 'st@te with spaces&=?/';
    const flow = await startFlow('http://127.0.0.1:45678/callback?app=1', state);
    const res = await submit({ flow, action: 'password', email: SSO_USER.email, password: SSO_USER.password });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(back.origin).toBe('http://127.0.0.1:45678');
    expect(back.pathname).toBe('/callback');
    expect(back.searchParams.get('app')).toBe('1');
    expect(back.searchParams.get('state')).toBe(state);
    const token = back.searchParams.get('access_token')!;
    expect(decodeJwt(token).scopes).toEqual(['CUSTOMER', 'DEVELOPER']);
    const me = await call(svc.url, 'account.me', '/api/v3/account/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.result).toMatchObject({ email: SSO_USER.email, identity_provider: 'microsoft' });
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    browserCookie = setCookie.split(';')[0];
  });

  it('a flow works once', async () => {
    const flow = await startFlow('http://[::1]:5000/cb');
    expect((await submit({ flow, action: 'password', email: SSO_USER.email, password: SSO_USER.password })).status).toBe(303);
    const again = await submit({ flow, action: 'password', email: SSO_USER.email, password: SSO_USER.password });
    expect(again.status).toBe(400);
    expect(again.headers.get('location')).toBeNull();
    expect((await call(svc.url, 'GET', `/api/v3/auth/sso/identity?flow=${flow}`)).status).toBe(400);
  });

  it('the remembered browser picks the account in one step; without the cookie picking is refused', async () => {
    const flow = await startFlow('https://app.example.com/sso/done', 'abc');
    const page = await call(svc.url, 'GET', `/api/v3/auth/sso/identity?flow=${flow}`, { headers: { cookie: browserCookie } });
    expect(page.text).toContain(`Continue as ${SSO_USER.email}`);
    expect(page.text).toContain('https://app.example.com');
    const stranger = await submit({ flow, action: 'pick' });
    expect(stranger.status).toBe(401);
    expect(stranger.headers.get('location')).toBeNull();
    const picked = await submit({ flow, action: 'pick' }, browserCookie);
    expect(picked.status).toBe(303);
    const back = new URL(picked.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('https://app.example.com/sso/done');
    expect(back.searchParams.get('state')).toBe('abc');
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: back.searchParams.get('access_token')! })).body.result.email).toBe(SSO_USER.email);
  });

  it('refuses a wrong password and accounts that are not at the identity provider', async () => {
    const flow = await startFlow('http://127.0.0.1:1/cb');
    const wrong = await submit({ flow, action: 'password', email: SSO_USER.email, password: 'nope-nope-nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('location')).toBeNull();
    expect(wrong.text).toContain('Wrong e-mail or password');
    // The demo account is a local account: it signs in with its password at the app, not here.
    const local = await submit({ flow, action: 'password', email: 'demo@example.com', password: 'demo-password-1' });
    expect(local.status).toBe(401);
    expect((await submit({ flow: 'made-up', action: 'password', email: SSO_USER.email, password: SSO_USER.password })).status).toBe(400);
    expect((await submit({ flow, action: 'teleport' })).status).toBe(422);
  });

  it('refuses every redirect_uri that is not loopback http or allowed by the operator, before any page', async () => {
    for (const bad of [
      'http://localhost:8080/cb',
      'http://example.com/cb',
      'http://127.0.0.2/cb',
      'http://10.0.0.1/cb',
      'ftp://127.0.0.1/cb',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
      'https://user:pw@example.com/cb',
      'https://example.com/cb#frag',
      '//evil.example.com/cb',
      'https://evil.example.com/cb',
      'https://app.example.com/sso/done/../elsewhere',
      'https://app.example.com:8443/sso/done',
    ]) {
      const res = await call(svc.url, 'GET', `/api/v3/auth/login/microsoft?redirect_uri=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(422);
      expect(res.headers.get('location'), bad).toBeNull();
      expect(typeof errorOf(res).error).toBe('string');
    }
    expect((await call(svc.url, 'GET', '/api/v3/auth/login/microsoft')).status).toBe(422);
  });

  it('escapes what it echoes on the page', async () => {
    const flow = await startFlow('https://x.example.com/<script>"');
    const page = await call(svc.url, 'GET', `/api/v3/auth/sso/identity?flow=${flow}`);
    expect(page.text).not.toContain('<script>');
  });
});
