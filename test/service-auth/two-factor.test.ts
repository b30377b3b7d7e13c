import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, startService, type RunningService } from '../helpers/service';
import { call, login, mustAddUser, tokenFor, totpCode } from './client';

let svc: RunningService;
const USER = { email: 'two@example.com', password: 'two-factor-pass' };

beforeAll(async () => {
  svc = await startService({ demo: false });
  await mustAddUser(svc.dataDir, USER.email, USER.password, ['CUSTOMER']);
});
afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

const mfaLogin = (code: string) =>
  call(svc.url, 'POST', '/api/v3/auth/login/mfa?login_type=token', { form: { username: USER.email, password: USER.password, totp_code: code, backup_code: code } });

describe('two-factor, end to end with real TOTP codes', () => {
  let token: string;
  let secret: string;
  let backup: string[];

  it('qr_code gives an otpauth URI, its secret and a PNG data URL', async () => {
    token = await tokenFor(svc.url, USER.email, USER.password);
    const res = await call(svc.url, 'GET', '/api/v3/mfa/2fa/qr_code', { token });
    expect(res.status).toBe(200);
    const { otpauth_uri, qr_code } = res.body.result;
    secret = res.body.result.secret;
    const parsed = OTPAuth.URI.parse(otpauth_uri) as OTPAuth.TOTP;
    expect(parsed).toBeInstanceOf(OTPAuth.TOTP);
    expect(parsed.label).toBe(USER.email);
    expect(parsed.issuer).toBe('S2T Local');
    expect(parsed.digits).toBe(6);
    expect(parsed.period).toBe(30);
    expect(parsed.secret.base32).toBe(secret);
    expect(qr_code).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(qr_code.split(',')[1], 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // Not active until enabled.
    expect((await call(svc.url, 'GET', '/api/v3/account/me', { token })).body.result.two_factor_active).toBe(false);
  });

  it('verify_totp checks codes of the pending secret without enabling anything', async () => {
    expect((await call(svc.url, 'POST', '/api/v3/mfa/2fa/verify_totp', { token, json: { totp_code: totpCode(secret) } })).body).toEqual({ result: { valid: true } });
    const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect((await call(svc.url, 'POST', '/api/v3/mfa/2fa/verify_totp', { token, json: { totp_code: wrong } })).body).toEqual({ result: { valid: false } });
    expect((await call(svc.url, 'POST', '/api/v3/mfa/2fa/verify_totp', { token, json: { totp_code: totpCode(secret, 5) } })).body).toEqual({ result: { valid: false } });
    expect((await call(svc.url, 'POST', '/api/v3/mfa/2fa/verify_totp', { token, json: {} })).status).toBe(422);
  });

  it('enable refuses a wrong code and accepts the current one', async () => {
    const bad = await call(svc.url, 'POST', '/api/v3/mfa/2fa/enable?totp_code=000000', { token });
    // One in a million that 000000 is the right code; a wrong code is 422, never 401.
    if (totpCode(secret) !== '000000') expect(bad.status).toBe(422);
    expect((await call(svc.url, 'POST', '/api/v3/mfa/2fa/enable', { token })).status).toBe(422);
    const ok = await call(svc.url, 'POST', `/api/v3/mfa/2fa/enable?totp_code=${totpCode(secret)}`, { token });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ result: { two_factor_active: true } });
    expect((await call(svc.url, 'GET', '/api/v3/account/me', { token })).body.result.two_factor_active).toBe(true);
  });

  it('login now answers mfa_required without a token or cookie', async () => {
    const res = await login(svc.url, USER.email, USER.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ login: false, mfa_required: true });
    expect(res.headers.get('set-cookie')).toBeNull();
    // The password is still checked first.
    expect((await login(svc.url, USER.email, 'wrong-password')).status).toBe(401);
  });

  it('MFA login takes a TOTP code once; replaying it fails; the password must be right too', async () => {
    // The code of the next 30-second step (enable used up the current one), as a fast phone clock shows it.
    const code = totpCode(secret, 1);
    expect((await call(svc.url, 'POST', '/api/v3/auth/login/mfa?login_type=token', { form: { username: USER.email, password: 'wrong-password', totp_code: code, backup_code: code } })).status).toBe(401);
    const res = await mfaLogin(code);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ login: true, mfa_required: false });
    expect(res.headers.get('set-cookie')).toMatch(/^act=/);
    expect((await call(svc.url, 'GET', '/api/v3/account/me', { token: res.body.access_token })).status).toBe(200);
    const replay = await mfaLogin(code);
    expect(replay.status).toBe(401);
    expect((await mfaLogin('12345')).status).toBe(401);
  });

  it('backup codes: ten single-use codes, stored hashed; the same field value is tried as a backup code', async () => {
    const res = await call(svc.url, 'GET', '/api/v3/mfa/2fa/backup_codes', { token });
    expect(res.status).toBe(200);
    backup = res.body.result.backup_codes;
    expect(backup).toHaveLength(10);
    expect(new Set(backup).size).toBe(10);
    const first = await mfaLogin(backup[0]);
    expect(first.status).toBe(200);
    expect(first.body.access_token).toBeTruthy();
    const reused = await mfaLogin(backup[0]);
    expect(reused.status).toBe(401);
    // Typed back in upper case without the dash still counts.
    expect((await mfaLogin(backup[1].replace('-', '').toUpperCase())).status).toBe(200);
  });

  it('verify_backup_code uses a code up', async () => {
    expect((await call(svc.url, 'POST', '/api/v3/mfa/2fa/verify_backup_code', { token, json: { backup_code: backup[2] } })).body).toEqual({ result: { valid: true } });
    expect((await call(svc.url, 'POST', '/api/v3/mfa/2fa/verify_backup_code', { token, json: { backup_code: backup[2] } })).body).toEqual({ result: { valid: false } });
    expect((await mfaLogin(backup[2])).status).toBe(401);
  });

  it('new backup codes replace the old ones', async () => {
    const fresh = (await call(svc.url, 'GET', '/api/v3/mfa/2fa/backup_codes', { token })).body.result.backup_codes as string[];
    expect((await mfaLogin(backup[3])).status).toBe(401);
    backup = fresh;
  });

  it('disable needs a current code or an unused backup code', async () => {
    const none = await call(svc.url, 'POST', '/api/v3/mfa/2fa/disable?token=&backup_code=', { token });
    expect(none.status).toBe(422);
    expect((await call(svc.url, 'POST', '/api/v3/mfa/2fa/disable?token=123456&backup_code=aaaaa-bbbbb', { token })).status).toBe(422);
    expect((await call(svc.url, 'POST', '/api/v3/mfa/2fa/disable', { token })).status).toBe(422);
    const off = await call(svc.url, 'POST', `/api/v3/mfa/2fa/disable?token=&backup_code=${backup[0]}`, { token });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ result: { two_factor_active: false } });
    const plain = await login(svc.url, USER.email, USER.password);
    expect(plain.body.mfa_required).toBe(false);
    expect(plain.body.access_token).toBeTruthy();
    // MFA login on an account without two-factor is refused rather than silently accepted.
    expect((await mfaLogin('123456')).status).toBe(422);
  });

  it('two-factor again with a new secret, turned off with a TOTP code this time', async () => {
    const qr = (await call(svc.url, 'GET', '/api/v3/mfa/2fa/qr_code', { token })).body.result;
    expect(qr.secret).not.toBe(secret);
    // The old secret's codes do not enable the new one.
    const oldCode = totpCode(secret);
    if (oldCode !== totpCode(qr.secret)) expect((await call(svc.url, 'POST', `/api/v3/mfa/2fa/enable?totp_code=${oldCode}`, { token })).status).toBe(422);
    expect((await call(svc.url, 'POST', `/api/v3/mfa/2fa/enable?totp_code=${totpCode(qr.secret)}`, { token })).status).toBe(200);
    const off = await call(svc.url, 'POST', `/api/v3/mfa/2fa/disable?token=${totpCode(qr.secret, 1)}&backup_code=`, { token });
    expect(off.status).toBe(200);
    expect((await call(svc.url, 'GET', '/api/v3/account/me', { token })).body.result.two_factor_active).toBe(false);
  });

  it('every 2FA endpoint needs a signed-in caller', async () => {
    for (const [method, path] of [
      ['GET', '/api/v3/mfa/2fa/qr_code'],
      ['GET', '/api/v3/mfa/2fa/backup_codes'],
      ['POST', '/api/v3/mfa/2fa/enable?totp_code=123456'],
      ['POST', '/api/v3/mfa/2fa/disable?token=1&backup_code=1'],
      ['POST', '/api/v3/mfa/2fa/verify_totp'],
      ['POST', '/api/v3/mfa/2fa/verify_backup_code'],
    ]) {
      expect((await call(svc.url, method, path)).status, path).toBe(401);
    }
  });
});
