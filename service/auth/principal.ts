import type { FastifyRequest } from 'fastify';
import type { AuthKind, Role, TokenType } from '../../common/api';
import type { ServiceContext } from '../context';
import { stmt } from '../db';
import { forbidden, unauthorized } from '../http/errors';
import { resolveApiToken } from './api-tokens';
import { looksLikeJwt, verifySessionToken } from './jwt';
import { findUserById, userRoles, type UserRow } from './users';

/** Who is calling, as the handlers see it. */
export type Principal =
  | {
      kind: 'user';
      userId: number;
      orgId: number;
      roles: Role[];
      via: 'jwt' | 'api-token';
      /** The login session (JWT jti) for via=jwt. */
      loginSessionId?: string;
      tokenType?: TokenType;
      /** The API token's row id for via=api-token. */
      tokenId?: number;
      /** The credential's identity for rate limiting (never the secret itself). */
      rateKey: string;
    }
  | { kind: 'magic-link'; token: string; rateKey: string }
  | { kind: 'signed'; rateKey: string }
  | { kind: 'anonymous'; rateKey: string };

export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

/** The caller a route's auth kind yields, so a handler on a bearer route gets a user without a check or a cast. */
export type PrincipalFor<A extends AuthKind> = A extends 'bearer' | 's2t-key'
  ? UserPrincipal
  : A extends 'magic-link'
    ? Extract<Principal, { kind: 'magic-link' }>
    : A extends 'signed'
      ? Extract<Principal, { kind: 'signed' }>
      : Extract<Principal, { kind: 'anonymous' }>;

/** Roles by their stored JSON: parsed and checked once per distinct value rather than on every request (frozen: shared). */
const rolesByText = new Map<string, Role[]>();
function rolesOf(user: UserRow): Role[] {
  let roles = rolesByText.get(user.roles);
  if (!roles) {
    roles = Object.freeze(userRoles(user)) as Role[];
    if (rolesByText.size >= 1000) rolesByText.clear();
    rolesByText.set(user.roles, roles);
  }
  return roles;
}

function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  if (!m) throw unauthorized('Authorization header must be "Bearer <token>"');
  return m[1];
}

async function fromJwt(ctx: ServiceContext, token: string): Promise<UserPrincipal> {
  let claims;
  try {
    claims = await verifySessionToken(ctx.secret, token);
  } catch {
    throw unauthorized('token invalid or expired');
  }
  const session = stmt(ctx.db, 'SELECT revoked_at FROM login_sessions WHERE id = ? AND user_id = ?').get(claims.jti, claims.uid) as
    | { revoked_at: string | null }
    | undefined;
  if (!session || session.revoked_at) throw unauthorized('session ended');
  const user = findUserById(ctx.db, claims.uid);
  if (!user || !user.is_active) throw unauthorized('user inactive');
  return { kind: 'user', userId: user.id, orgId: user.org_id, roles: rolesOf(user), via: 'jwt', loginSessionId: claims.jti, rateKey: `s:${claims.jti}` };
}

export function fromApiToken(ctx: ServiceContext, value: string, requireType?: TokenType): UserPrincipal {
  const found = resolveApiToken(ctx.db, ctx.secret, value);
  if (!found) throw unauthorized('API token invalid, expired or deleted');
  if (requireType && found.type !== requireType) throw unauthorized(`this endpoint needs an API token of type ${requireType}`);
  const user = findUserById(ctx.db, found.userId);
  if (!user || !user.is_active) throw unauthorized('user inactive');
  return { kind: 'user', userId: user.id, orgId: user.org_id, roles: rolesOf(user), via: 'api-token', tokenType: found.type, tokenId: found.id, rateKey: `t:${found.id}` };
}

/** Resolves the caller for a route's auth kind, or throws 401. */
export async function authenticate<A extends AuthKind>(ctx: ServiceContext, kind: A, req: FastifyRequest): Promise<PrincipalFor<A>> {
  return (await authenticateAs(ctx, kind, req)) as PrincipalFor<A>;
}

async function authenticateAs(ctx: ServiceContext, kind: AuthKind, req: FastifyRequest): Promise<Principal> {
  switch (kind) {
    case 'bearer': {
      const token = bearerToken(req);
      if (!token) throw unauthorized('Authorization header missing');
      return looksLikeJwt(token) ? fromJwt(ctx, token) : fromApiToken(ctx, token);
    }
    case 's2t-key': {
      const key = req.headers['x-svc-s2t-key'];
      if (typeof key !== 'string' || !key) throw unauthorized('x-svc-s2t-key header missing');
      return fromApiToken(ctx, key, 'batch');
    }
    case 'magic-link': {
      const token = (req.query as Record<string, unknown> | undefined)?.token;
      if (typeof token !== 'string' || !token) throw unauthorized('magic link token missing');
      // Keyed by the caller's address: a key from the presented token would give every guess its own window.
      return { kind: 'magic-link', token, rateKey: `ip:${req.ip}` };
    }
    case 'signed':
      return { kind: 'signed', rateKey: `ip:${req.ip}` };
    case 'none':
      return { kind: 'anonymous', rateKey: `ip:${req.ip}` };
  }
}

/**
 * Narrows to a user signed in with a session JWT (README: Security). API tokens are for work
 * (sessions, documents, uploads): they cannot manage tokens or two-factor, so a leaked token
 * never outlives its deletion or takes the account over.
 */
export function requireSession(user: UserPrincipal): UserPrincipal & { loginSessionId: string } {
  if (user.via !== 'jwt' || !user.loginSessionId) throw forbidden('an API token cannot do this; sign in (session token) to manage tokens and two-factor');
  return user as UserPrincipal & { loginSessionId: string };
}
