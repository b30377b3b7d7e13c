import * as OTPAuth from 'otpauth';
import type { ServiceContext } from '../context';
import { randomCode, sameBytes, secretHash, seal, unseal } from './secrets';
import type { UserRow } from './users';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;
const ISSUER = 'S2T Local';
export const BACKUP_CODE_COUNT = 10;

function totpFor(base32: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: OTPAuth.Secret.fromBase32(base32) });
}

/** A new pending secret (replacing any earlier pending one) for the user to scan; active only after enable. */
export async function newPendingSecret(ctx: ServiceContext, user: UserRow) {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  ctx.db.prepare('UPDATE users SET totp_pending_secret = ? WHERE id = ?').run(seal(ctx.secret, secret), user.id);
  const uri = totpFor(secret, user.email).toString();
  // Loaded when someone turns two-factor on, not at the service's start.
  const { default: QRCode } = await import('qrcode');
  return { otpauth_uri: uri, qr_code: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M' }), secret };
}

/** The RFC 6238 time step a code belongs to (one step of clock drift allowed), or null when it is wrong. */
function totpStep(ctx: ServiceContext, user: UserRow, sealed: string | null, code: string): number | null {
  if (!sealed || !/^\d{6}$/.test(code)) return null;
  const delta = totpFor(unseal(ctx.secret, sealed), user.email).validate({ token: code, window: 1 });
  return delta === null ? null : OTPAuth.TOTP.counter({ period: PERIOD }) + delta;
}

/**
 * Checks a code of the active secret and uses it up: its time step is remembered, so the same
 * code (or an older one) never works twice. Compare-and-set, so two concurrent requests cannot
 * both use one code.
 */
export function acceptActiveTotp(ctx: ServiceContext, user: UserRow, code: string): boolean {
  if (user.two_factor_active !== 1) return false;
  const step = totpStep(ctx, user, user.totp_secret, code);
  return step !== null && ctx.db.prepare('UPDATE users SET totp_last_step = ? WHERE id = ? AND totp_last_step < ?').run(step, user.id, step).changes === 1;
}

/** verify_totp: checks without using the code up, against the active secret or else the pending one. */
export function checkTotp(ctx: ServiceContext, user: UserRow, code: string): boolean {
  return totpStep(ctx, user, user.two_factor_active === 1 ? user.totp_secret : user.totp_pending_secret, code.trim()) !== null;
}

/**
 * Turns two-factor on when the code matches the pending secret; that code is then used up. Only
 * while it is off (compare-and-set on two_factor_active), and backup codes from before are void.
 */
export function enableTwoFactor(ctx: ServiceContext, user: UserRow, code: string): boolean {
  const step = totpStep(ctx, user, user.totp_pending_secret, code);
  if (step === null) return false;
  return ctx.db.transaction(() => {
    const changed = ctx.db
      .prepare('UPDATE users SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, two_factor_active = 1, totp_last_step = ? WHERE id = ? AND totp_pending_secret = ? AND two_factor_active = 0')
      .run(step, user.id, user.totp_pending_secret).changes === 1;
    if (changed) ctx.db.prepare('DELETE FROM backup_codes WHERE user_id = ?').run(user.id);
    return changed;
  })();
}

export function disableTwoFactor(ctx: ServiceContext, user: UserRow): void {
  ctx.db.transaction(() => {
    ctx.db.prepare('UPDATE users SET totp_secret = NULL, totp_pending_secret = NULL, two_factor_active = 0 WHERE id = ?').run(user.id);
    ctx.db.prepare('DELETE FROM backup_codes WHERE user_id = ?').run(user.id);
  })();
}

/** Backup codes are written xxxxx-xxxxx; spaces, dashes and case do not matter when typed back. */
const normalizeBackupCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** Ten new single-use codes; the old ones stop working. Only keyed hashes are stored. */
export function newBackupCodes(ctx: ServiceContext, userId: number): string[] {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, () => randomCode(10));
  ctx.db.transaction(() => {
    ctx.db.prepare('DELETE FROM backup_codes WHERE user_id = ?').run(userId);
    const insert = ctx.db.prepare('INSERT INTO backup_codes (user_id, hash) VALUES (?, ?)');
    for (const c of codes) insert.run(userId, secretHash(ctx.secret, 'backup-code', c));
  })();
  return codes.map((c) => `${c.slice(0, 5)}-${c.slice(5)}`);
}

/** Uses up a backup code; true only the first time a valid code is presented. */
export function consumeBackupCode(ctx: ServiceContext, userId: number, code: string): boolean {
  const normalized = normalizeBackupCode(code);
  if (!/^[a-z0-9]{10}$/.test(normalized)) return false;
  const hash = secretHash(ctx.secret, 'backup-code', normalized);
  const rows = ctx.db.prepare('SELECT id, hash FROM backup_codes WHERE user_id = ? AND used_at IS NULL').all(userId) as { id: number; hash: Buffer }[];
  const match = rows.find((r) => sameBytes(r.hash, hash));
  if (!match) return false;
  return ctx.db.prepare('UPDATE backup_codes SET used_at = ? WHERE id = ? AND used_at IS NULL').run(new Date().toISOString(), match.id).changes === 1;
}

/** The MFA login's one code: six digits are tried as TOTP, anything else as a backup code. */
export function acceptSecondFactor(ctx: ServiceContext, user: UserRow, code: string): boolean {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) return acceptActiveTotp(ctx, user, trimmed);
  return consumeBackupCode(ctx, user.id, trimmed);
}

/**
 * Whether a refused code is one of the active secret's that was already used (the same 30-second
 * window as the code that turned two-factor on, or that signed in): the person can only wait for
 * the next one, which is worth telling apart from a wrong code.
 */
export function totpAlreadyUsed(ctx: ServiceContext, user: UserRow, code: string): boolean {
  if (user.two_factor_active !== 1) return false;
  const step = totpStep(ctx, user, user.totp_secret, code.trim());
  const last = (ctx.db.prepare('SELECT totp_last_step FROM users WHERE id = ?').get(user.id) as { totp_last_step: number } | undefined)?.totp_last_step;
  return step !== null && last !== undefined && step <= last;
}
