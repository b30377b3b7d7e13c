/** account.*: the account page: who is signed in, API tokens and two-factor, each proof as the service asks for it. */
import { USED_TOTP_CODE, type ApiToken } from '../../../common/api';
import type { AccountToken } from '../../../common/ipc';
import { batchTokenName } from '../../api/credentials';
import { classifyFailure } from '../../api/failure';
import { UserFacingError } from '../user-facing-error';
import type { AreaHandlers, CoreContext } from './context';

export const WRONG_CODE = "That code is not right. Check your authenticator app's current code, or use a backup code.";
/** Turning two-factor on (no backup codes exist yet) and new backup codes take only the app's code. */
export const WRONG_APP_CODE = "That code is not right. Type the six-digit code your authenticator app shows now for this account.";
/** A right code whose 30-second window was already used (by the code that turned two-factor on, say). */
export const USED_CODE = 'That code was already used (a code works once). Wait until your authenticator app shows the next one, then type that.';
export const LOCKED_OUT = 'Too many wrong codes or passwords: the service has paused attempts for this account. Wait a few minutes, then try again.';
/** The UserFacingError code of NEEDS_FRESH_SIGN_IN_TEXT: main signs in again by itself where it holds the password (main/local-sign-in.ts). */
export const NEEDS_FRESH_SIGN_IN = 'NEEDS_FRESH_SIGN_IN';
const NEEDS_FRESH_SIGN_IN_TEXT = 'For your safety, turning two-factor on needs a sign-in with your password in the last 10 minutes. Sign out, sign in again, then turn it on.';

/**
 * A failed account call in words. The service answers a wrong code with 422 (never 401, so a typo
 * does not sign the person out) and the lockout with 429; the rest keeps the request wording.
 */
function worded(err: unknown, when: { wrongCode?: string } = {}): never {
  const f = classifyFailure(err);
  if (f?.kind === 'rate-limited') throw new UserFacingError('LOCKED_OUT', LOCKED_OUT);
  if (f && f.status === 422 && f.detail.includes(USED_TOTP_CODE)) throw new UserFacingError('USED_CODE', USED_CODE);
  if (f && f.status === 422 && when.wrongCode) throw new UserFacingError('WRONG_CODE', when.wrongCode);
  if (f && f.status === 403 && /sign in again/i.test(f.detail)) throw new UserFacingError(NEEDS_FRESH_SIGN_IN, NEEDS_FRESH_SIGN_IN_TEXT);
  throw err;
}

function listed(t: ApiToken): AccountToken {
  return { id: t.id, name: t.name, key: t.key, type: t.type, expires: t.expires, madeByApp: t.name === batchTokenName() && t.type === 'batch' };
}

export function accountHandlers(ctx: Pick<CoreContext, 'client' | 'serviceUrl'>): AreaHandlers<'account'> {
  const { client } = ctx;
  return {
    'account.profile': async () => {
      const u = (await client.call('account.me')).result;
      return {
        name: `${u.first_name} ${u.last_name}`.trim() || u.email,
        email: u.email,
        roles: u.roles,
        identityProvider: u.identity_provider,
        twoFactorActive: u.two_factor_active,
        serviceUrl: ctx.serviceUrl,
      };
    },
    'account.tokens': async () => {
      const tokens: AccountToken[] = [];
      for await (const t of client.items('tokens.list', {})) tokens.push(listed(t));
      return { tokens };
    },
    'account.createToken': async ({ name, type, yearsValid }) => {
      const t = await client.call('tokens.create', { body: { name, type, years_valid: yearsValid } });
      if (!t.token_value) throw new UserFacingError('NO_TOKEN_VALUE', 'The service made the token but did not send its value. Delete it and create another.');
      return { token: listed(t), value: t.token_value };
    },
    'account.deleteToken': async ({ tokenId }) => {
      await client.call('tokens.delete', { params: { tokenId: String(tokenId) } });
      return { done: true };
    },
    'account.mfaStart': async () => {
      const r = await client.call('mfa.qrCode').catch(worded);
      // Drawn here from the otpauth URI, so the picture does not depend on the image format a service sends.
      // Loaded when two-factor is set up, which a session rarely does.
      const { default: QRCode } = await import('qrcode');
      return { qrCode: await QRCode.toDataURL(r.result.otpauth_uri, { errorCorrectionLevel: 'M', margin: 2, width: 220 }), secret: r.result.secret };
    },
    'account.mfaEnable': async ({ code }) => {
      await client.call('mfa.enable', { query: { totp_code: code } }).catch((e) => worded(e, { wrongCode: WRONG_APP_CODE }));
      // The code that turned it on also proves the first backup codes (the service checks it without using it up).
      const codes = await client.call('mfa.backupCodes', { query: { totp_code: code } }).catch((e) => worded(e, { wrongCode: WRONG_APP_CODE }));
      return { backupCodes: codes.result.backup_codes };
    },
    'account.mfaBackupCodes': async ({ code }) => {
      const codes = await client.call('mfa.backupCodes', { query: { totp_code: code } }).catch((e) => worded(e, { wrongCode: WRONG_APP_CODE }));
      return { backupCodes: codes.result.backup_codes };
    },
    'account.mfaDisable': async ({ code }) => {
      // One field for the person; the service takes a TOTP as `token` or a backup code, whichever fits.
      await client.call('mfa.disable', { query: { token: code, backup_code: code } }).catch((e) => worded(e, { wrongCode: WRONG_CODE }));
      return { done: true };
    },
  };
}
