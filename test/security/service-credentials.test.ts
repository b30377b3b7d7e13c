/**
 * Two-factor, API tokens, SSO redirects and the lockout, each attacked as it could be, over real HTTP against the service:
 * - 4: an API token alone took over or removed two-factor; 2FA codes could be guessed without limit;
 * - 6: API tokens minted tokens, and logout with one did nothing;
 * - 7: SSO handed the session token to any https redirect_uri, and skipped two-factor;
 * - 8: eleven wrong passwords from anyone locked the real user out.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, startService, type RunningService } from '../helpers/service';
import { errorOf, must } from '../service/answers';
import { call, login, mustAddUser, tokenFor, totpCode } from '../service/auth/client';

let svc: RunningService;

beforeAll(async () => {
  svc = await startService({ demo: false });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

async function userWithSession(email: string, password: string): Promise<string> {
  await mustAddUser(svc.dataDir, email, password, ['CUSTOMER']);
  return tokenFor(svc.url, email, password);
}

const mintToken = async (jwt: string, type: 'batch' | 'realtime', name = type) =>
  must((await call(svc.url, 'tokens.create', '/api/v3/tokens', { token: jwt, json: { name, type, years_valid: 1 } })).body.token_value, 'token_value');

/** Six digits no ±1-step window (nor the next step) accepts. */
function wrongCode(secret: string): string {
  const near = [-1, 0, 1, 2].map((o) => totpCode(secret, o));
  let n = 0;
  while (near.includes(String(n).padStart(6, '0'))) n++;
  return String(n).padStart(6, '0');
}

/** A login POST sent from a chosen loopback source address (127.0.0.2 plays the attacker). */
function loginFrom(source: string, username: string, password: string): Promise<number> {
  const { hostname, port } = new URL(svc.url);
  const body = new URLSearchParams({ username, password }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, localAddress: source, method: 'POST', path: '/api/v3/auth/login?login_type=token', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('two-factor needs a session and proof from the current authenticator', () => {
  const USER = { email: 'owner4@example.com', password: 'owner4-password' };
  let jwt: string;
  let secret: string;
  let apiToken: string;

  beforeAll(async () => {
    jwt = await userWithSession(USER.email, USER.password);
    apiToken = await mintToken(jwt, 'batch');
    secret = (await call(svc.url, 'mfa.qrCode', '/api/v3/mfa/2fa/qr_code', { token: jwt })).body.result.secret;
    expect((await call(svc.url, 'mfa.enable', `/api/v3/mfa/2fa/enable?totp_code=${totpCode(secret)}`, { token: jwt })).status).toBe(200);
  });

  it('an API token alone can neither replace the authenticator, mint backup codes nor disable two-factor', async () => {
    // The attack: new pending secret, enable it, mint backup codes, disable with one of them.
    const qr = await call(svc.url, 'GET', '/api/v3/mfa/2fa/qr_code', { token: apiToken });
    expect(qr.status).toBe(403);
    expect(errorOf(qr).result).toBeUndefined();
    expect((await call(svc.url, 'mfa.enable', `/api/v3/mfa/2fa/enable?totp_code=${totpCode(secret, 1)}`, { token: apiToken })).status).toBe(403);
    const codes = await call(svc.url, 'GET', `/api/v3/mfa/2fa/backup_codes?totp_code=${totpCode(secret)}`, { token: apiToken });
    expect(codes.status).toBe(403);
    expect((await call(svc.url, 'mfa.disable', '/api/v3/mfa/2fa/disable?token=&backup_code=aaaaa-bbbbb', { token: apiToken })).status).toBe(403);
    for (const [path, json] of [['/api/v3/mfa/2fa/verify_totp', { totp_code: '123456' }], ['/api/v3/mfa/2fa/verify_backup_code', { backup_code: 'aaaaa-bbbbb' }]] as const) {
      expect((await call(svc.url, 'POST', path, { token: apiToken, json })).status, path).toBe(403);
    }
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: jwt })).body.result.two_factor_active).toBe(true);
  });

  it('with a session: enabling again is refused while on, and backup codes need a current code', async () => {
    expect((await call(svc.url, 'mfa.qrCode', '/api/v3/mfa/2fa/qr_code', { token: jwt })).status).toBe(422);
    expect((await call(svc.url, 'mfa.enable', `/api/v3/mfa/2fa/enable?totp_code=${totpCode(secret, 1)}`, { token: jwt })).status).toBe(422);
    // The authenticator is still the original one.
    expect((await call(svc.url, 'mfa.verifyTotp', '/api/v3/mfa/2fa/verify_totp', { token: jwt, json: { totp_code: totpCode(secret) } })).body.result.valid).toBe(true);
    expect((await call(svc.url, 'mfa.backupCodes', '/api/v3/mfa/2fa/backup_codes', { token: jwt })).status).toBe(422);
    expect((await call(svc.url, 'mfa.backupCodes', `/api/v3/mfa/2fa/backup_codes?totp_code=${wrongCode(secret)}`, { token: jwt })).status).toBe(422);
    const ok = await call(svc.url, 'mfa.backupCodes', `/api/v3/mfa/2fa/backup_codes?totp_code=${totpCode(secret)}`, { token: jwt });
    expect(ok.status).toBe(200);
    expect(ok.body.result.backup_codes).toHaveLength(10);
  });

  it('wrong codes at verify_totp and disable count toward the lockout (429), which then holds the login too', async () => {
    const wrong = wrongCode(secret);
    // One wrong code was spent on backup_codes above; eight more here and one at disable make ten.
    for (let i = 0; i < 8; i++) {
      const r = await call(svc.url, 'mfa.verifyTotp', '/api/v3/mfa/2fa/verify_totp', { token: jwt, json: { totp_code: wrong } });
      expect(r.status, `attempt ${i + 1}`).toBe(200);
      expect(r.body.result.valid).toBe(false);
    }
    expect((await call(svc.url, 'mfa.disable', `/api/v3/mfa/2fa/disable?token=${wrong}&backup_code=`, { token: jwt })).status).toBe(422);
    const locked = await call(svc.url, 'POST', `/api/v3/mfa/2fa/disable?token=${totpCode(secret, 1)}&backup_code=`, { token: jwt });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(svc.url, 'mfa.verifyTotp', '/api/v3/mfa/2fa/verify_totp', { token: jwt, json: { totp_code: totpCode(secret) } })).status).toBe(429);
    expect((await login(svc.url, USER.email, USER.password)).status).toBe(429);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: jwt })).body.result.two_factor_active).toBe(true);
  });
});

describe('turning two-factor on needs a recent password sign-in', () => {
  it('a session signed in 11 minutes ago (a stolen long-lived token) cannot bind a new authenticator', async () => {
    const USER = { email: 'owner4b@example.com', password: 'owner4b-password' };
    const old = await userWithSession(USER.email, USER.password);
    const db = new Database(join(svc.dataDir, 'service.db'));
    try {
      db.prepare('UPDATE login_sessions SET created_at = ? WHERE id = ?').run(new Date(Date.now() - 11 * 60_000).toISOString(), decodeJwt(old).jti);
    } finally {
      db.close();
    }
    expect((await call(svc.url, 'mfa.qrCode', '/api/v3/mfa/2fa/qr_code', { token: old })).status).toBe(403);
    expect((await call(svc.url, 'mfa.enable', '/api/v3/mfa/2fa/enable?totp_code=123456', { token: old })).status).toBe(403);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: old })).body.result.two_factor_active).toBe(false);
    // Signing in again with the password is the proof.
    const fresh = await tokenFor(svc.url, USER.email, USER.password);
    expect((await call(svc.url, 'mfa.qrCode', '/api/v3/mfa/2fa/qr_code', { token: fresh })).status).toBe(200);
  });
});

describe('API tokens cannot manage tokens or outlive a logout', () => {
  it('a realtime token cannot mint a batch token, list or delete tokens', async () => {
    const jwt = await userWithSession('owner6@example.com', 'owner6-password');
    const realtime = await mintToken(jwt, 'realtime');
    const batch = await mintToken(jwt, 'batch');
    const minted = await call(svc.url, 'POST', '/api/v3/tokens', { token: realtime, json: { name: 'escalate', type: 'batch', years_valid: 5 } });
    expect(minted.status).toBe(403);
    expect(errorOf(minted).token_value).toBeUndefined();
    expect((await call(svc.url, 'tokens.list', '/api/v3/tokens', { token: batch })).status).toBe(403);
    const list = await call(svc.url, 'tokens.list', '/api/v3/tokens', { token: jwt });
    expect(list.body.result.result.map((t) => t.name).sort()).toEqual(['batch', 'realtime']);
    const id = must(list.body.result.result.find((t) => t.name === 'realtime'), 'the realtime token').id;
    expect((await call(svc.url, 'tokens.delete', `/api/v3/tokens/${id}`, { token: batch })).status).toBe(403);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: realtime })).status).toBe(200);
  });

  it('logout with an API token ends that token', async () => {
    const jwt = await userWithSession('owner6b@example.com', 'owner6b-password');
    const batch = await mintToken(jwt, 'batch');
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: batch })).status).toBe(200);
    expect((await call(svc.url, 'auth.logout', '/api/v3/auth/logout', { token: batch })).status).toBe(200);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: batch })).status).toBe(401);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: jwt })).status).toBe(200);
  });
});

describe('SSO sends the token only to loopback, and asks for the second factor', () => {
  const SSO = { email: 'sso7@example.com', password: 'sso7-password-1' };
  const submit = (form: Record<string, string>, cookie?: string) => call(svc.url, 'POST', '/api/v3/auth/sso/identity', { form, headers: cookie ? { cookie } : {} });

  async function startFlow(redirectUri: string): Promise<string> {
    const start = await call(svc.url, 'GET', `/api/v3/auth/login/microsoft?${new URLSearchParams({ redirect_uri: redirectUri })}`);
    expect(start.status).toBe(302);
    const page = await call(svc.url, 'GET', new URL(start.headers.get('location')!, svc.url).pathname + new URL(start.headers.get('location')!, svc.url).search);
    return /name="flow" value="([^"]+)"/.exec(page.text)![1];
  }

  it('an https redirect_uri the operator did not allow is refused before any page', async () => {
    const res = await call(svc.url, 'GET', `/api/v3/auth/login/microsoft?${new URLSearchParams({ redirect_uri: 'https://attacker.example.com/steal' })}`);
    expect(res.status).toBe(422);
    expect(res.headers.get('location')).toBeNull();
  });

  it('an account with two-factor on gets no token from SSO until its code is given', async () => {
    await mustAddUser(svc.dataDir, SSO.email, SSO.password, ['CUSTOMER'], ['--identity-provider', 'microsoft']);
    const first = await submit({ flow: await startFlow('http://127.0.0.1:45999/cb'), action: 'password', email: SSO.email, password: SSO.password });
    expect(first.status).toBe(303);
    const cookie = first.headers.get('set-cookie')!.split(';')[0];
    const jwt = new URL(first.headers.get('location')!).searchParams.get('access_token')!;
    const secret = (await call(svc.url, 'mfa.qrCode', '/api/v3/mfa/2fa/qr_code', { token: jwt })).body.result.secret;
    expect((await call(svc.url, 'mfa.enable', `/api/v3/mfa/2fa/enable?totp_code=${totpCode(secret)}`, { token: jwt })).status).toBe(200);

    // Password step: a code page, no redirect, no token.
    const flow = await startFlow('http://127.0.0.1:45999/cb');
    const step = await submit({ flow, action: 'password', email: SSO.email, password: SSO.password });
    expect(step.status).toBe(200);
    expect(step.headers.get('location')).toBeNull();
    expect(step.text).toContain('name="action" value="code"');
    expect(step.text).not.toMatch(/eyJ/);
    const wrong = await submit({ flow, action: 'code', code: wrongCode(secret) });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('location')).toBeNull();
    const done = await submit({ flow, action: 'code', code: totpCode(secret, 1) });
    expect(done.status).toBe(303);
    expect(new URL(done.headers.get('location')!).searchParams.get('access_token')).toBeTruthy();

    // The remembered browser's one-click pick owes the code too; a flow nobody passed has no code step.
    const pickFlow = await startFlow('http://127.0.0.1:45999/cb');
    const picked = await submit({ flow: pickFlow, action: 'pick' }, cookie);
    expect(picked.status).toBe(200);
    expect(picked.headers.get('location')).toBeNull();
    expect((await submit({ flow: await startFlow('http://127.0.0.1:45999/cb'), action: 'code', code: totpCode(secret) })).status).toBe(400);
  });
});

describe('a stranger guessing passwords slows only themself', () => {
  it('after ten wrong passwords from 127.0.0.2, that source gets 429 while the real user signs in from 127.0.0.1', async () => {
    const USER = { email: 'owner8@example.com', password: 'owner8-password' };
    await mustAddUser(svc.dataDir, USER.email, USER.password, ['CUSTOMER']);
    for (let i = 0; i < 10; i++) expect(await loginFrom('127.0.0.2', USER.email, `guess-${i}`), `guess ${i + 1}`).toBe(401);
    expect(await loginFrom('127.0.0.2', USER.email, 'guess-11')).toBe(429);
    // Even the right password from the attacker's source waits out the window.
    expect(await loginFrom('127.0.0.2', USER.email, USER.password)).toBe(429);
    // The real user, elsewhere, is not locked out.
    expect(await loginFrom('127.0.0.1', USER.email, USER.password)).toBe(200);
    expect(await loginFrom('127.0.0.3', USER.email, USER.password)).toBe(200);
  });
});
