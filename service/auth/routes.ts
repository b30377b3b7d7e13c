import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { plainError } from '../http/errors';
import { handle } from '../http/handle';
import { signSessionToken, TOKEN_TTL } from './jwt';
import { verifyPassword } from './passwords';
import { findUserByEmail, findUserById, toCurrentUser, userRoles, type UserRow } from './users';

const COOKIE = 'act';
const COOKIE_MAX_AGE = 7 * 24 * 60 * 60;

/** Issues a session JWT for a user whose credentials (and second factor) were checked. */
export async function issueLogin(ctx: ServiceContext, user: UserRow, remember: boolean) {
  const sid = randomUUID();
  const ttl = remember ? TOKEN_TTL.remember : TOKEN_TTL.normal;
  const now = Date.now();
  ctx.db.prepare('INSERT INTO login_sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(sid, user.id, new Date(now).toISOString(), Math.floor(now / 1000) + ttl);
  const token = await signSessionToken(ctx.secret, { uid: user.id, oid: user.org_id, scopes: userRoles(user), sid }, ttl);
  return { access_token: token, login: true, mfa_required: false, session_id: sid, signature: token.split('.')[2] };
}

export function registerAuthRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  handle(app, ctx, 'auth.login', async ({ body, reply }) => {
    const user = findUserByEmail(ctx.db, body.username);
    // Verify even for unknown users so timing does not tell which e-mails exist.
    const ok = await verifyPassword(body.password, user?.password_hash ?? 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    if (!user || !ok || !user.is_active) throw plainError(401, 'wrong username or password');
    const result = await issueLogin(ctx, user, body.remember_me ?? false);
    reply.setCookie(COOKIE, result.access_token, { maxAge: COOKIE_MAX_AGE, secure: true, sameSite: 'strict', httpOnly: true, path: '/' });
    return result;
  });

  handle(app, ctx, 'auth.logout', async ({ principal, reply }) => {
    if (principal.kind === 'user' && principal.loginSessionId) {
      ctx.db.prepare('UPDATE login_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(new Date().toISOString(), principal.loginSessionId);
    }
    reply.clearCookie(COOKIE, { secure: true, sameSite: 'strict', httpOnly: true, path: '/' });
    return { success: true as const };
  });

  handle(app, ctx, 'account.me', async ({ principal }) => {
    if (principal.kind !== 'user') throw plainError(401, 'not signed in');
    const user = findUserById(ctx.db, principal.userId)!;
    return { result: toCurrentUser(user, false) };
  });
}
