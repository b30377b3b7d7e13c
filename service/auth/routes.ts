import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceContext } from '../context';
import { USED_TOTP_CODE } from '../../common/api';
import { notFound, plainError } from '../http/errors';
import { handle } from '../http/handle';
import { createApiToken, deleteApiToken, listApiTokens } from './api-tokens';
import { signSessionToken, TOKEN_TTL } from './jwt';
import { UNKNOWN_USER_HASH, verifyPassword } from './passwords';
import { requireSession } from './principal';
import { assertNotLocked, recordFailure, recordSuccess, type Attempt } from './throttle';
import { acceptSecondFactor, totpAlreadyUsed } from './two-factor';
import { findUserByEmail, findUserById, toCurrentUser, userRoles, type UserRow } from './users';

const COOKIE = 'act';
const COOKIE_MAX_AGE = 7 * 24 * 60 * 60;
const COOKIE_OPTIONS = { secure: true, sameSite: 'strict', httpOnly: true, path: '/' } as const;

/** Issues a session JWT for a user whose credentials (and second factor) were checked. */
export async function issueLogin(ctx: ServiceContext, user: UserRow, remember: boolean) {
  const sid = randomUUID();
  const ttl = remember ? TOKEN_TTL.remember : TOKEN_TTL.normal;
  const now = Date.now();
  ctx.db.prepare('INSERT INTO login_sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(sid, user.id, new Date(now).toISOString(), Math.floor(now / 1000) + ttl);
  // Sessions whose token has expired can never be presented again: drop them as we go.
  ctx.db.prepare('DELETE FROM login_sessions WHERE expires_at < ?').run(Math.floor(now / 1000));
  const token = await signSessionToken(ctx.secret, { uid: user.id, oid: user.org_id, scopes: userRoles(user), sid }, ttl);
  return { access_token: token, login: true, mfa_required: false, session_id: sid, signature: token.split('.')[2] };
}

/** The password step shared by login and MFA login; SSO accounts sign in at their provider only. */
async function checkPassword(ctx: ServiceContext, attempt: Attempt, password: string): Promise<UserRow> {
  assertNotLocked(attempt);
  const user = findUserByEmail(ctx.db, attempt.account);
  const ok = await verifyPassword(password, user?.password_hash ?? UNKNOWN_USER_HASH);
  if (!user || !ok || !user.is_active) {
    recordFailure(attempt);
    throw plainError(401, 'wrong username or password');
  }
  if (user.identity_provider !== 'local') throw plainError(401, `this account signs in with ${user.identity_provider}`);
  return user;
}

function setTokenCookie(reply: FastifyReply, token: string): void {
  reply.setCookie(COOKIE, token, { ...COOKIE_OPTIONS, maxAge: COOKIE_MAX_AGE });
}

export function registerAuthRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  handle(app, ctx, 'auth.login', async ({ body, req, reply }) => {
    const attempt = { account: body.username, source: req.ip };
    const user = await checkPassword(ctx, attempt, body.password);
    if (user.two_factor_active === 1) return { login: false, mfa_required: true };
    recordSuccess(attempt);
    const result = await issueLogin(ctx, user, body.remember_me ?? false);
    setTokenCookie(reply, result.access_token);
    return result;
  });

  handle(app, ctx, 'auth.loginMfa', async ({ body, req, reply }) => {
    const attempt = { account: body.username, source: req.ip };
    const user = await checkPassword(ctx, attempt, body.password);
    if (user.two_factor_active !== 1) throw plainError(422, 'two-factor authentication is not active for this account; use the login endpoint');
    // Both fields carry the same value (spec); a client that fills only one is understood too.
    // The route's schema guarantees at least one is non-empty; its shape decides TOTP or backup.
    const code = body.totp_code?.trim() || body.backup_code?.trim() || '';
    if (!acceptSecondFactor(ctx, user, code)) {
      recordFailure(attempt);
      throw plainError(401, totpAlreadyUsed(ctx, user, code) ? USED_TOTP_CODE : 'wrong, expired or already used code');
    }
    recordSuccess(attempt);
    const result = await issueLogin(ctx, user, body.remember_me ?? false);
    setTokenCookie(reply, result.access_token);
    return result;
  });

  handle(app, ctx, 'auth.logout', async ({ principal, reply }) => {
    if (principal.loginSessionId) {
      ctx.db.prepare('UPDATE login_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(new Date().toISOString(), principal.loginSessionId);
    }
    // Logging out with an API token ends that token: the credential presented is the one that stops working.
    if (principal.tokenId !== undefined) ctx.db.prepare('DELETE FROM api_tokens WHERE id = ?').run(principal.tokenId);
    reply.clearCookie(COOKIE, COOKIE_OPTIONS);
    return { success: true as const };
  });

  handle(app, ctx, 'account.me', async ({ principal }) => {
    const user = findUserById(ctx.db, principal.userId)!;
    return { result: toCurrentUser(user) };
  });

  // Tokens are managed with a session only: a token that could mint tokens would outlive its own deletion.
  handle(app, ctx, 'tokens.list', async ({ principal, query }) => ({ result: listApiTokens(ctx.db, requireSession(principal).userId, query) }));

  handle(app, ctx, 'tokens.create', async ({ principal, body }) => createApiToken(ctx.db, ctx.secret, requireSession(principal).userId, body));

  handle(app, ctx, 'tokens.delete', async ({ principal, params }) => {
    if (!deleteApiToken(ctx.db, requireSession(principal).userId, params.tokenId)) throw notFound('token');
    return { success: true as const };
  });
}
