import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, DEMO, startService, type RunningService } from '../../helpers/service';
import { errorOf, must } from '../answers';
import { addUser, call, login, mustAddUser, tokenFor } from './client';

let svc: RunningService;

beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

describe('login', () => {
  it('answers a signed JWT with the spec claims, a session id and the act cookie', async () => {
    const res = await login(svc.url, DEMO.email, DEMO.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ login: true, mfa_required: false });
    expect(typeof res.body.session_id).toBe('string');
    const token = must(res.body.access_token, 'access_token');
    expect(res.body.signature).toBe(token.split('.')[2]);
    const claims = decodeJwt(token);
    expect(claims.aud).toEqual(['s2t-api']);
    expect(claims.iss).toBe('s2t-local');
    expect(claims.scopes).toEqual(['CUSTOMER', 'DEVELOPER']);
    expect(typeof claims.uid).toBe('number');
    expect(typeof claims.oid).toBe('number');
    expect(claims.nbf).toBe(claims.iat);
    expect(claims.exp! - claims.iat!).toBe(12 * 3600);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^act=/);
    expect(cookie).toMatch(/Max-Age=604800/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });

  it('remember_me gives a longer expiry (30 days)', async () => {
    const res = await login(svc.url, DEMO.email, DEMO.password, { remember_me: 'true' });
    const claims = decodeJwt(must(res.body.access_token, 'access_token'));
    expect(claims.exp! - claims.iat!).toBe(30 * 24 * 3600);
  });

  it('refuses a wrong password and an unknown user alike, with 401 {error}', async () => {
    const wrong = await login(svc.url, DEMO.email, 'not-the-password');
    const unknown = await login(svc.url, 'nobody@example.com', 'whatever-pass');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(errorOf(wrong)).toEqual(errorOf(unknown));
    expect(typeof errorOf(wrong).error).toBe('string');
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('refuses bad login input with a clear 4xx', async () => {
    expect((await call(svc.url, 'auth.login', '/api/v3/auth/login?login_type=token', { json: { username: DEMO.email, password: DEMO.password } })).status).toBe(415);
    expect((await call(svc.url, 'auth.login', '/api/v3/auth/login?login_type=cookie', { form: { username: DEMO.email, password: DEMO.password } })).status).toBe(422);
    expect((await call(svc.url, 'auth.login', '/api/v3/auth/login?login_type=token', { form: { username: DEMO.email } })).status).toBe(422);
    expect((await call(svc.url, 'auth.login', '/api/v3/auth/login?login_type=token', { form: { username: DEMO.email, password: 'x', remember_me: 'maybe' } })).status).toBe(422);
  });
});

describe('account/me and logout', () => {
  it('me answers the current user with identity_provider local; the demo user is no admin', async () => {
    const token = await tokenFor(svc.url, DEMO.email, DEMO.password);
    const me = await call(svc.url, 'account.me', '/api/v3/account/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.result).toMatchObject({ email: DEMO.email, identity_provider: 'local', two_factor_active: false, is_active: true, roles: ['CUSTOMER', 'DEVELOPER'], newsletter: false });
    expect(me.body.result.roles).not.toContain('SYSOP');
  });

  it('logout revokes that session server-side and clears the cookie; other sessions live on', async () => {
    const a = await tokenFor(svc.url, DEMO.email, DEMO.password);
    const b = await tokenFor(svc.url, DEMO.email, DEMO.password);
    const out = await call(svc.url, 'auth.logout', '/api/v3/auth/logout', { token: a });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.headers.get('set-cookie')).toMatch(/^act=;.*Expires=Thu, 01 Jan 1970/);
    const after = await call(svc.url, 'GET', '/api/v3/account/me', { token: a });
    expect(after.status).toBe(401);
    expect(typeof errorOf(after).error).toBe('string');
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: b })).status).toBe(200);
  });

  it('refuses a missing, malformed, forged or expired token with 401', async () => {
    expect((await call(svc.url, 'GET', '/api/v3/account/me')).status).toBe(401);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: 'a.b.c' })).status).toBe(401);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: 'not-a-token' })).status).toBe(401);
    const good = await tokenFor(svc.url, DEMO.email, DEMO.password);
    const claims = decodeJwt(good);
    // Signed with another key: the signature check must catch it.
    const forged = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32));
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: forged })).status).toBe(401);
    // Signed with the service's own key but expired: exp in the past.
    const secret = new Uint8Array(readFileSync(join(svc.dataDir, 'secret.key')));
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ...claims, iat: now - 7200, nbf: now - 7200, exp: now - 60 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: expired })).status).toBe(401);
    // The same claims, still valid, pass: so the 401 above is the expiry.
    const fresh = await new SignJWT({ ...claims, exp: now + 600 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: fresh })).status).toBe(200);
  });
});

describe('user add (CLI)', () => {
  it('adds a user while the service runs; the new user logs in with the given roles', async () => {
    const r = await addUser(svc.dataDir, 'ops@example.com', 'ops-password-1', ['ORGADMIN', 'TESTER']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^user \d+ ops@example.com org \d+\n$/);
    const token = await tokenFor(svc.url, 'ops@example.com', 'ops-password-1');
    const me = await call(svc.url, 'account.me', '/api/v3/account/me', { token });
    expect(me.body.result.roles).toEqual(['ORGADMIN', 'TESTER']);
    expect(decodeJwt(token).scopes).toEqual(['ORGADMIN', 'TESTER']);
  });

  it('refuses an unknown role, a duplicate e-mail and a short password', async () => {
    expect((await addUser(svc.dataDir, 'x@example.com', 'long-enough-1', ['WIZARD'])).code).not.toBe(0);
    expect((await addUser(svc.dataDir, DEMO.email, 'long-enough-1', ['CUSTOMER'])).code).not.toBe(0);
    expect((await addUser(svc.dataDir, 'y@example.com', 'short', ['CUSTOMER'])).code).not.toBe(0);
    expect((await login(svc.url, 'x@example.com', 'long-enough-1')).status).toBe(401);
  });

  it('an SSO account cannot log in with a password at the login endpoint', async () => {
    await mustAddUser(svc.dataDir, 'sso-only@example.com', 'sso-password-1', ['CUSTOMER'], ['--identity-provider', 'microsoft']);
    const res = await login(svc.url, 'sso-only@example.com', 'sso-password-1');
    expect(res.status).toBe(401);
    expect(errorOf(res).error).toMatch(/microsoft/);
  });
});
