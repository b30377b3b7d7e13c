/**
 * The account page's channels on a real core against the real local service: API tokens (the
 * value once, then only the key; a deleted token stops working), two-factor on with a computed
 * TOTP, the code step of a sign-in (a wrong code is called a wrong code; leaving the step forgets
 * it), backup codes replaced and used, and two-factor off again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../common/api';
import { WRONG_APP_CODE, WRONG_CODE } from '../../../main/ipc/handlers/account';
import { totpCode } from '../../service/auth/client';
import { closeCoreAndService, signedInCore, type TestCore } from '../helpers/harness';
import { DEMO, startService, type RunningService } from '../../helpers/service';

let svc: RunningService;
let t: TestCore;

beforeAll(async () => {
  svc = await startService();
  t = await signedInCore(svc.url);
}, 60_000);
afterAll(() => closeCoreAndService({ core: t, svc }));

/** A six-digit code that is not the current one (nor its neighbours). */
const notTheCode = (secret: string) => {
  const near = new Set([-1, 0, 1].map((s) => totpCode(secret, s)));
  for (let n = 0; ; n++) {
    const c = String(n).padStart(6, '0');
    if (!near.has(c)) return c;
  }
};

async function models(key: string): Promise<number> {
  const res = await fetch(`${svc.url}${routes['models.list'].path}`, { headers: { 'x-svc-s2t-key': key, 'content-type': 'application/json' } });
  return res.status;
}

describe('who you are', () => {
  it('reads the signed-in account from the service', async () => {
    const p = await t.h['account.profile']({});
    expect(p).toMatchObject({ email: DEMO.email, identityProvider: 'local', twoFactorActive: false, serviceUrl: svc.url });
    expect(p.roles.length).toBeGreaterThan(0);
  });
});

describe('API tokens', () => {
  it('shows a new token value once, lists only its key after, and a deleted token stops working', async () => {
    const made = await t.h['account.createToken']({ name: 'Nightly import', type: 'batch', yearsValid: 2 });
    expect(made.value.length).toBeGreaterThan(made.token.key.length);
    expect(made.token).toMatchObject({ name: 'Nightly import', type: 'batch', madeByApp: false });
    expect(await models(made.value)).toBe(200);

    const { tokens } = await t.h['account.tokens']({});
    const listed = tokens.find((x) => x.id === made.token.id)!;
    expect(listed.key).toBe(made.token.key);
    expect(JSON.stringify(tokens)).not.toContain(made.value);
    // Two years from now, give or take a day.
    const years = (Date.parse(listed.expires) - Date.now()) / (365 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(1.9);
    expect(years).toBeLessThan(2.1);

    await t.h['account.deleteToken']({ tokenId: made.token.id });
    expect((await t.h['account.tokens']({})).tokens.some((x) => x.id === made.token.id)).toBe(false);
    expect(await models(made.value)).not.toBe(200);
  });
});

describe('two-factor', () => {
  it('turns on with a computed code, asks for the code at sign-in, and turns off with a backup code', async () => {
    const { qrCode, secret } = await t.h['account.mfaStart']({});
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    // No backup codes exist yet, so the wrong-code message speaks only of the app's code.
    const wrong = await t.h['account.mfaEnable']({ code: notTheCode(secret) }).then(() => '', (e: Error) => e.message);
    expect(wrong).toContain(WRONG_APP_CODE);
    expect(wrong).not.toMatch(/backup/i);
    const first = (await t.h['account.mfaEnable']({ code: totpCode(secret) })).backupCodes;
    expect(first).toHaveLength(10);
    expect((await t.h['account.profile']({})).twoFactorActive).toBe(true);

    // New backup codes need a current code; the first set stops working.
    await expect(t.h['account.mfaBackupCodes']({ code: notTheCode(secret) })).rejects.toThrow(WRONG_APP_CODE);
    const codes = (await t.h['account.mfaBackupCodes']({ code: totpCode(secret) })).backupCodes;
    expect(codes).toHaveLength(10);
    expect(codes.some((c) => first.includes(c))).toBe(false);

    await t.h['auth.logout']({});
    const login = () => t.h['auth.login']({ username: DEMO.email, password: DEMO.password, rememberMe: false });
    expect(await login()).toEqual({ status: 'mfa-required', username: expect.any(String) });
    expect(await t.h['auth.loginMfa']({ code: notTheCode(secret) })).toEqual({ status: 'refused', message: WRONG_CODE });
    expect(await t.h['auth.loginMfa']({ code: first[0] })).toEqual({ status: 'refused', message: WRONG_CODE });
    // Back to the password step: main no longer holds a sign-in waiting for a code.
    await t.h['auth.cancelMfa']({});
    const afterCancel = await t.h['auth.loginMfa']({ code: codes[0] });
    expect(afterCancel.status).toBe('refused');
    expect(afterCancel.status === 'refused' && afterCancel.message).toContain('Start the sign-in again');

    expect(await login()).toEqual({ status: 'mfa-required', username: expect.any(String) });
    // The next step's code: the current one was used up turning two-factor on.
    const signedIn = await t.h['auth.loginMfa']({ code: totpCode(secret, 1) });
    expect(signedIn.status).toBe('signed-in');

    await expect(t.h['account.mfaDisable']({ code: notTheCode(secret) })).rejects.toThrow(WRONG_CODE);
    await t.h['account.mfaDisable']({ code: codes[1] });
    expect((await t.h['account.profile']({})).twoFactorActive).toBe(false);
    await t.h['auth.logout']({});
    expect((await login()).status).toBe('signed-in');
  }, 60_000);
});
