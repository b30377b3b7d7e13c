import type { FastifyInstance, FastifyRequest } from 'fastify';
import { USED_TOTP_CODE } from '../../common/api';
import type { ServiceContext } from '../context';
import { forbidden, plainError } from '../http/errors';
import { handle } from '../http/handle';
import { requireSession, type UserPrincipal } from './principal';
import { assertNotLocked, recordFailure, type Attempt } from './throttle';
import { acceptActiveTotp, checkTotp, totpAlreadyUsed, consumeBackupCode, disableTwoFactor, enableTwoFactor, newBackupCodes, newPendingSecret } from './two-factor';
import { findUserById, type UserRow } from './users';

const ALREADY_ON = 'two-factor is already on; turn it off first (with a current code) to change the authenticator';
/** Turning two-factor on has no current code to show, so the proof is a recent password sign-in. */
const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

/**
 * Two-factor management (README: Security, Interface choices). Only a session JWT may call these
 * (an API token gets 403); turning it on needs a password sign-in of the last 10 minutes, every
 * other change a code from the current authenticator; and every wrong
 * code counts toward the same lockout as the sign-in. A wrong code answers 422, never 401, so a
 * typo does not sign the client out.
 */
export function registerTwoFactorRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const caller = (principal: UserPrincipal, req: FastifyRequest): { user: UserRow; attempt: Attempt; signedInAt: number } => {
    const session = requireSession(principal);
    const user = findUserById(ctx.db, session.userId)!;
    const row = ctx.db.prepare('SELECT created_at FROM login_sessions WHERE id = ?').get(session.loginSessionId) as { created_at: string } | undefined;
    return { user, attempt: { account: user.email, source: req.ip }, signedInAt: row ? Date.parse(row.created_at) : 0 };
  };
  /** A stolen long-lived session must not bind the account to the thief's authenticator. */
  const requireFreshSignIn = (signedInAt: number) => {
    if (!(Date.now() - signedInAt <= FRESH_SIGN_IN_MS)) throw forbidden('sign in again with your password (within 10 minutes) to turn two-factor on');
  };
  /** Runs a code check under the lockout: 429 while locked, and a wrong code counts. */
  const proven = (attempt: Attempt, check: () => boolean): boolean => {
    assertNotLocked(attempt);
    if (check()) return true;
    recordFailure(attempt);
    return false;
  };

  handle(app, ctx, 'mfa.qrCode', async ({ principal, req }) => {
    const { user, signedInAt } = caller(principal, req);
    if (user.two_factor_active === 1) throw plainError(422, ALREADY_ON);
    requireFreshSignIn(signedInAt);
    return { result: await newPendingSecret(ctx, user) };
  });

  handle(app, ctx, 'mfa.backupCodes', async ({ principal, req, query }) => {
    const { user, attempt } = caller(principal, req);
    if (user.two_factor_active !== 1) throw plainError(422, 'two-factor is off; backup codes come with it once it is on');
    // A proof, not a sign-in: the code is checked, not used up, so the one that just enabled two-factor also serves here.
    if (!proven(attempt, () => checkTotp(ctx, user, query.totp_code))) throw plainError(422, 'a current totp_code is needed for new backup codes');
    return { result: { backup_codes: newBackupCodes(ctx, user.id) } };
  });

  handle(app, ctx, 'mfa.enable', async ({ principal, req, query }) => {
    const { user, attempt, signedInAt } = caller(principal, req);
    if (user.two_factor_active === 1) throw plainError(422, ALREADY_ON);
    requireFreshSignIn(signedInAt);
    if (!user.totp_pending_secret) throw plainError(422, 'no pending secret: request a qr_code first');
    if (!proven(attempt, () => enableTwoFactor(ctx, user, query.totp_code.trim()))) throw plainError(422, 'wrong or expired totp_code');
    return { result: { two_factor_active: true } };
  });

  handle(app, ctx, 'mfa.disable', async ({ principal, req, query }) => {
    const { user, attempt } = caller(principal, req);
    if (user.two_factor_active !== 1) return { result: { two_factor_active: false } };
    const token = query.token.trim();
    const backup = query.backup_code.trim();
    const ok = proven(attempt, () => (token !== '' && acceptActiveTotp(ctx, user, token)) || (backup !== '' && consumeBackupCode(ctx, user.id, backup)));
    if (!ok) throw plainError(422, token !== '' && totpAlreadyUsed(ctx, user, token) ? USED_TOTP_CODE : 'a current TOTP code (token) or an unused backup_code is needed');
    disableTwoFactor(ctx, user);
    return { result: { two_factor_active: false } };
  });

  handle(app, ctx, 'mfa.verifyTotp', async ({ principal, req, body }) => {
    const { user, attempt } = caller(principal, req);
    return { result: { valid: proven(attempt, () => checkTotp(ctx, user, body.totp_code)) } };
  });

  handle(app, ctx, 'mfa.verifyBackupCode', async ({ principal, req, body }) => {
    const { user, attempt } = caller(principal, req);
    return { result: { valid: proven(attempt, () => consumeBackupCode(ctx, user.id, body.backup_code)) } };
  });
}
