import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { plainError } from '../http/errors';
import { handle } from '../http/handle';
import { requireUser } from './principal';
import { acceptActiveTotp, checkTotp, consumeBackupCode, disableTwoFactor, enableTwoFactor, newBackupCodes, newPendingSecret } from './two-factor';
import { findUserById } from './users';

/**
 * Two-factor management (README: Interface choices). A wrong code answers 422, never 401, so a
 * typo does not sign the client out.
 */
export function registerTwoFactorRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const currentUser = (principal: Parameters<typeof requireUser>[0]) => findUserById(ctx.db, requireUser(principal).userId)!;

  handle(app, ctx, 'mfa.qrCode', async ({ principal }) => ({ result: await newPendingSecret(ctx, currentUser(principal)) }));

  handle(app, ctx, 'mfa.backupCodes', async ({ principal }) => ({ result: { backup_codes: newBackupCodes(ctx, currentUser(principal).id) } }));

  handle(app, ctx, 'mfa.enable', async ({ principal, query }) => {
    const user = currentUser(principal);
    if (!user.totp_pending_secret) throw plainError(422, 'no pending secret: request a qr_code first');
    if (!enableTwoFactor(ctx, user, query.totp_code.trim())) throw plainError(422, 'wrong or expired totp_code');
    return { result: { two_factor_active: true } };
  });

  handle(app, ctx, 'mfa.disable', async ({ principal, query }) => {
    const user = currentUser(principal);
    if (user.two_factor_active !== 1) return { result: { two_factor_active: false } };
    const ok = (query.token.trim() !== '' && acceptActiveTotp(ctx, user, query.token.trim())) || (query.backup_code.trim() !== '' && consumeBackupCode(ctx, user.id, query.backup_code));
    if (!ok) throw plainError(422, 'a current TOTP code (token) or an unused backup_code is needed');
    disableTwoFactor(ctx, user);
    return { result: { two_factor_active: false } };
  });

  handle(app, ctx, 'mfa.verifyTotp', async ({ principal, body }) => ({ result: { valid: checkTotp(ctx, currentUser(principal), body.totp_code) } }));

  handle(app, ctx, 'mfa.verifyBackupCode', async ({ principal, body }) => ({ result: { valid: consumeBackupCode(ctx, currentUser(principal).id, body.backup_code) } }));
}
