import Database from 'better-sqlite3';
import { join } from 'node:path';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, startService, type RunningService } from '../../helpers/service';
import { errorOf } from '../answers';
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
  call(svc.url, 'auth.loginMfa', '/api/v3/auth/login/mfa?login_type=token', { form: { username: USER.email, password: USER.password, totp_code: code, backup_code: code } });

describe('two-factor, end to end with real TOTP codes', () => {
  let token: string;
  let secret: string;
  let backup: string[];

  it('qr_code gives an otpauth URI, its secret and a PNG data URL', async () => {
    token = await tokenFor(svc.url, USER.email, USER.password);
    const res = await call(svc.url, 'mfa.qrCode', '/api/v3/mfa/2fa/qr_code', { token });
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
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token })).body.result.two_factor_active).toBe(false);
  });

  it('verify_totp checks codes of the pending secret without enabling anything', async () => {
    expect((await call(svc.url, 'mfa.verifyTotp', '/api/v3/mfa/2fa/verify_totp', { token, json: { totp_code: totpCode(secret) } })).body).toEqual({ result: { valid: true } });
    const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect((await call(svc.url, 'mfa.verifyTotp', '/api/v3/mfa/2fa/verify_totp', { token, json: { totp_code: wrong } })).body).toEqual({ result: { valid: false } });
    expect((await call(svc.url, 'mfa.verifyTotp', '/api/v3/mfa/2fa/verify_totp', { token, json: { totp_code: totpCode(secret, 5) } })).body).toEqual({ result: { valid: false } });
    expect((await call(svc.url, 'mfa.verifyTotp', '/api/v3/mfa/2fa/verify_totp', { token, json: {} })).status).toBe(422);
  });

  it('enable refuses a wrong code and accepts the current one', async () => {
    const bad = await call(svc.url, 'POST', '/api/v3/mfa/2fa/enable?totp_code=000000', { token });
    // One in a million that 000000 is the right code; a wrong code is 422, never 401.
    if (totpCode(secret) !== '000000') expect(bad.status).toBe(422);
    expect((await call(svc.url, 'mfa.enable', '/api/v3/mfa/2fa/enable', { token })).status).toBe(422);
    const ok = await call(svc.url, 'mfa.enable', `/api/v3/mfa/2fa/enable?totp_code=${totpCode(secret)}`, { token });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ result: { two_factor_active: true } });
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token })).body.result.two_factor_active).toBe(true);
  });

  it('verify_totp checks the active secret once two-factor is on; no new pending secret while it is on', async () => {
    const verify = async (code: string) => (await call(svc.url, 'mfa.verifyTotp', '/api/v3/mfa/2fa/verify_totp', { token, json: { totp_code: code } })).body.result.valid;
    expect(await verify(totpCode(secret))).toBe(true);
    // No new pending secret while two-factor is on: the authenticator is changed by turning it off first.
    const pending = await call(svc.url, 'GET', '/api/v3/mfa/2fa/qr_code', { token });
    expect(pending.status).toBe(422);
    expect(errorOf(pending).error).toMatch(/already on/);
    expect(await verify(totpCode(secret))).toBe(true);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token })).body.result.two_factor_active).toBe(true);
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
    expect((await call(svc.url, 'auth.loginMfa', '/api/v3/auth/login/mfa?login_type=token', { form: { username: USER.email, password: 'wrong-password', totp_code: code, backup_code: code } })).status).toBe(401);
    const res = await mfaLogin(code);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ login: true, mfa_required: false });
    expect(res.headers.get('set-cookie')).toMatch(/^act=/);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: res.body.access_token })).status).toBe(200);
    const replay = await mfaLogin(code);
    expect(replay.status).toBe(401);
    expect((await mfaLogin('12345')).status).toBe(401);
  });

  it('backup codes: ten single-use codes, stored hashed; the same field value is tried as a backup code', async () => {
    const res = await call(svc.url, 'mfa.backupCodes', `/api/v3/mfa/2fa/backup_codes?totp_code=${totpCode(secret)}`, { token });
    expect(res.status).toBe(200);
    backup = res.body.result.backup_codes;
    expect(backup).toHaveLength(10);
    expect(new Set(backup).size).toBe(10);
    // The database holds ten distinct 32-byte hashes, and no code in any spelling.
    const rows = backupCodeRows(USER.email);
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => Buffer.isBuffer(r.hash) && r.hash.length === 32 && r.used_at === null)).toBe(true);
    expect(new Set(rows.map((r) => r.hash.toString('hex'))).size).toBe(10);
    const dump = JSON.stringify(rows.map((r) => [r.hash.toString('hex'), r.hash.toString('latin1'), r.hash.toString('base64')]));
    for (const code of backup) for (const spelling of [code, code.replace('-', ''), code.toUpperCase()]) expect(dump).not.toContain(spelling);
    const first = await mfaLogin(backup[0]);
    expect(first.status).toBe(200);
    expect(first.body.access_token).toBeTruthy();
    const reused = await mfaLogin(backup[0]);
    expect(reused.status).toBe(401);
    expect(backupCodeRows(USER.email).filter((r) => r.used_at !== null)).toHaveLength(1);
    // Typed back in upper case without the dash still counts.
    expect((await mfaLogin(backup[1].replace('-', '').toUpperCase())).status).toBe(200);
  });

  it('verify_backup_code uses a code up', async () => {
    expect((await call(svc.url, 'mfa.verifyBackupCode', '/api/v3/mfa/2fa/verify_backup_code', { token, json: { backup_code: backup[2] } })).body).toEqual({ result: { valid: true } });
    expect((await call(svc.url, 'mfa.verifyBackupCode', '/api/v3/mfa/2fa/verify_backup_code', { token, json: { backup_code: backup[2] } })).body).toEqual({ result: { valid: false } });
    expect((await mfaLogin(backup[2])).status).toBe(401);
  });

  it('new backup codes replace the old ones', async () => {
    const fresh = (await call(svc.url, 'mfa.backupCodes', `/api/v3/mfa/2fa/backup_codes?totp_code=${totpCode(secret)}`, { token })).body.result.backup_codes as string[];
    expect((await mfaLogin(backup[3])).status).toBe(401);
    backup = fresh;
  });

  it('disable needs a current code or an unused backup code', async () => {
    const none = await call(svc.url, 'POST', '/api/v3/mfa/2fa/disable?token=&backup_code=', { token });
    expect(none.status).toBe(422);
    expect((await call(svc.url, 'mfa.disable', '/api/v3/mfa/2fa/disable?token=123456&backup_code=aaaaa-bbbbb', { token })).status).toBe(422);
    expect((await call(svc.url, 'mfa.disable', '/api/v3/mfa/2fa/disable', { token })).status).toBe(422);
    const off = await call(svc.url, 'mfa.disable', `/api/v3/mfa/2fa/disable?token=&backup_code=${backup[0]}`, { token });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ result: { two_factor_active: false } });
    const plain = await login(svc.url, USER.email, USER.password);
    expect(plain.body.mfa_required).toBe(false);
    expect(plain.body.access_token).toBeTruthy();
    // MFA login on an account without two-factor is refused rather than silently accepted.
    expect((await mfaLogin('123456')).status).toBe(422);
  });

  it('two-factor again with a new secret, turned off with a TOTP code this time', async () => {
    const qr = (await call(svc.url, 'mfa.qrCode', '/api/v3/mfa/2fa/qr_code', { token })).body.result;
    expect(qr.secret).not.toBe(secret);
    // The old secret's codes do not enable the new one.
    const oldCode = totpCode(secret);
    if (oldCode !== totpCode(qr.secret)) expect((await call(svc.url, 'mfa.enable', `/api/v3/mfa/2fa/enable?totp_code=${oldCode}`, { token })).status).toBe(422);
    expect((await call(svc.url, 'mfa.enable', `/api/v3/mfa/2fa/enable?totp_code=${totpCode(qr.secret)}`, { token })).status).toBe(200);
    const off = await call(svc.url, 'POST', `/api/v3/mfa/2fa/disable?token=${totpCode(qr.secret, 1)}&backup_code=`, { token });
    expect(off.status).toBe(200);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token })).body.result.two_factor_active).toBe(false);
  });

  it('every 2FA endpoint needs a signed-in caller', async () => {
    for (const [method, path] of [
      ['GET', '/api/v3/mfa/2fa/qr_code'],
      ['GET', '/api/v3/mfa/2fa/backup_codes'],
      ['POST', '/api/v3/mfa/2fa/enable?totp_code=123456'],
      ['POST', '/api/v3/mfa/2fa/disable?token=1&backup_code=1'],
      ['POST', '/api/v3/mfa/2fa/verify_totp'],
      ['POST', '/api/v3/mfa/2fa/verify_backup_code'],
    ] as const) {
      expect((await call(svc.url, method, path)).status, path).toBe(401);
    }
  });
});

function backupCodeRows(email: string): { hash: Buffer; used_at: string | null }[] {
  const db = new Database(join(svc.dataDir, 'service.db'), { readonly: true });
  try {
    return db.prepare('SELECT b.hash, b.used_at FROM backup_codes b JOIN users u ON u.id = b.user_id WHERE u.email = ? ORDER BY b.id').all(email) as { hash: Buffer; used_at: string | null }[];
  } finally {
    db.close();
  }
}

/** A new user with two-factor on; enabling used up the current TOTP step. */
async function userWithTwoFactor(email: string, password: string): Promise<{ secret: string; backup: string[] }> {
  await mustAddUser(svc.dataDir, email, password, ['CUSTOMER']);
  const token = await tokenFor(svc.url, email, password);
  const secret = (await call(svc.url, 'mfa.qrCode', '/api/v3/mfa/2fa/qr_code', { token })).body.result.secret as string;
  expect((await call(svc.url, 'mfa.enable', `/api/v3/mfa/2fa/enable?totp_code=${totpCode(secret)}`, { token })).status).toBe(200);
  const backup = (await call(svc.url, 'mfa.backupCodes', `/api/v3/mfa/2fa/backup_codes?totp_code=${totpCode(secret)}`, { token })).body.result.backup_codes as string[];
  return { secret, backup };
}

/** Six digits that are none of the codes a ±1-step window (or the next step) would accept. */
function wrongCode(secret: string): string {
  const near = [-1, 0, 1, 2].map((o) => totpCode(secret, o));
  let n = 0;
  while (near.includes(String(n).padStart(6, '0'))) n++;
  return String(n).padStart(6, '0');
}

describe('MFA login fields and lockout', () => {
  const LOCKED = { email: 'locked@example.com', password: 'locked-password' };
  let secret: string;
  let backup: string[];
  const mfa = (form: Record<string, string>) =>
    call(svc.url, 'auth.loginMfa', '/api/v3/auth/login/mfa?login_type=token', { form: { username: LOCKED.email, password: LOCKED.password, ...form } });

  beforeAll(async () => {
    ({ secret, backup } = await userWithTwoFactor(LOCKED.email, LOCKED.password));
  });

  it('understands a client that fills only one of totp_code and backup_code; neither is 422', async () => {
    const totpOnly = await mfa({ totp_code: totpCode(secret, 1) });
    expect(totpOnly.status, totpOnly.text).toBe(200);
    expect(totpOnly.body.access_token).toBeTruthy();
    const backupOnly = await mfa({ backup_code: backup[0] });
    expect(backupOnly.status, backupOnly.text).toBe(200);
    // An empty totp_code beside a filled backup_code is the same as leaving it out.
    expect((await mfa({ totp_code: '', backup_code: backup[1] })).status).toBe(200);
    const empty: Record<string, string>[] = [{}, { totp_code: '', backup_code: '' }, { totp_code: '  ' }, { backup_code: '' }];
    for (const form of empty) {
      const res = await mfa(form);
      expect(res.status, JSON.stringify(form)).toBe(422);
      expect(errorOf(res).error).toMatch(/totp_code or backup_code/);
    }
  });

  it('ten wrong codes lock the account: 429 with Retry-After, even for the right code and the password login', async () => {
    const wrong = wrongCode(secret);
    for (let i = 0; i < 10; i++) expect((await mfa({ totp_code: wrong, backup_code: wrong })).status, `attempt ${i + 1}`).toBe(401);
    const locked = await mfa({ totp_code: wrong, backup_code: wrong });
    expect(locked.status).toBe(429);
    const retry = Number(locked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    expect(typeof errorOf(locked).error).toBe('string');
    expect((await mfa({ backup_code: backup[2] })).status).toBe(429);
    expect((await login(svc.url, LOCKED.email, LOCKED.password)).status).toBe(429);
    // The lock is this account's from this address: another account signs in as usual (other addresses: test/security).
    expect((await login(svc.url, USER.email, USER.password)).status).toBe(200);
  });
});
