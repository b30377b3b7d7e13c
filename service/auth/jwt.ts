import { jwtVerify, SignJWT } from 'jose';
import { JwtClaims, type Role } from '../../common/api';

export const ISSUER = 's2t-local';
export const AUDIENCE = ['s2t-api'];
const DAY = 24 * 60 * 60;
/** remember_me keeps a login 30 days; otherwise 12 hours (README: Interface choices). */
export const TOKEN_TTL = { normal: 12 * 60 * 60, remember: 30 * DAY };

export interface TokenSubject {
  uid: number;
  oid: number;
  scopes: Role[];
  /** The login session id (jti): logout revokes it server-side. */
  sid: string;
}

export async function signSessionToken(secret: Uint8Array, subject: TokenSubject, ttlSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ uid: subject.uid, oid: subject.oid, scopes: subject.scopes })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + ttlSeconds)
    .setJti(subject.sid)
    .sign(secret);
}

type VerifiedClaims = JwtClaims & { jti: string };

/**
 * Tokens whose signature already checked out, so a client's every request does not pay for the
 * HMAC again. Keyed by the whole token string (signature included) and per secret; exp and nbf are
 * still checked on every use, and revocation is the caller's (login_sessions) business.
 */
const verified = new WeakMap<Uint8Array, Map<string, VerifiedClaims>>();
const VERIFIED_MAX = 10_000;

/** Verifies signature, iss, aud, exp and nbf, then the claim shapes. Throws on anything off. */
export async function verifySessionToken(secret: Uint8Array, token: string): Promise<VerifiedClaims> {
  let cache = verified.get(secret);
  if (!cache) verified.set(secret, (cache = new Map()));
  const hit = cache.get(token);
  const now = Math.floor(Date.now() / 1000);
  if (hit) {
    if (hit.exp > now && hit.nbf <= now) return hit;
    cache.delete(token);
  }
  const claims = await verifyUncached(secret, token);
  if (cache.size >= VERIFIED_MAX) cache.clear();
  cache.set(token, claims);
  return claims;
}

async function verifyUncached(secret: Uint8Array, token: string): Promise<VerifiedClaims> {
  const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
  const claims = JwtClaims.parse({ ...payload, aud: Array.isArray(payload.aud) ? payload.aud : [payload.aud] });
  if (typeof payload.jti !== 'string') throw new Error('token has no jti');
  return { ...claims, jti: payload.jti };
}

/** Cheap shape check so that API tokens and JWTs can share the Bearer header. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}
