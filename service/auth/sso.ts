/**
 * Single sign-on against a local stand-in for the identity provider (README: Interface choices).
 *
 *   GET  /api/v3/auth/login/microsoft?redirect_uri=&state=   -> 302 to the identity page
 *   GET  /api/v3/auth/sso/identity?flow=                      the page: pick a remembered account or sign in
 *   POST /api/v3/auth/sso/identity                            -> 303 to redirect_uri?access_token=&state=
 *
 * The identity page signs in accounts whose identity_provider is `microsoft` (made with
 * `user add --identity-provider microsoft`), checks their password, and remembers the browser in
 * an HttpOnly SameSite=Strict cookie so the next sign-in is a single "pick this account" click.
 * An account with two-factor on then owes a TOTP or backup code on every SSO sign-in, as at
 * login/mfa. The token goes only to a loopback redirect_uri (RFC 8252) or one the operator
 * allowed (--sso-redirect-uri), never to any https address a link names.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context';
import { plainError, validationError } from '../http/errors';
import { handle, SENT } from '../http/handle';
import { UNKNOWN_USER_HASH, verifyPassword } from './passwords';
import { issueLogin } from './routes';
import { assertNotLocked, recordFailure, recordSuccess } from './throttle';
import { acceptSecondFactor } from './two-factor';
import { findUserByEmail, findUserById, type UserRow } from './users';

export const SSO_PROVIDER = 'microsoft';
const IDENTITY_PATH = '/api/v3/auth/sso/identity';
const BROWSER_COOKIE = 's2t_idp';
const FLOW_TTL_S = 10 * 60;
const BROWSER_TTL_S = 30 * 24 * 60 * 60;

/**
 * RFC 8252 loopback redirects (http, 127.0.0.1 or [::1], any port), or a URI whose origin and path
 * equal one the operator allowed; nothing else, so a link cannot send the token to a site of its choosing.
 */
export function allowedRedirect(raw: string, allowList: readonly string[] = []): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.hash) return undefined;
  if (url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]')) return url;
  const allowed = allowList.some((entry) => URL.canParse(entry) && new URL(entry).origin === url.origin && new URL(entry).pathname === url.pathname);
  return allowed ? url : undefined;
}

const nowS = () => Math.floor(Date.now() / 1000);
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface FlowRow {
  id: string;
  redirect_uri: string;
  state: string | null;
  mfa_user_id: number | null;
}

function openFlow(ctx: ServiceContext, id: string): FlowRow | undefined {
  return ctx.db.prepare('SELECT id, redirect_uri, state, mfa_user_id FROM sso_flows WHERE id = ? AND used_at IS NULL AND expires_at > ?').get(id, nowS()) as FlowRow | undefined;
}

function rememberedUser(ctx: ServiceContext, req: FastifyRequest): UserRow | undefined {
  const sid = req.cookies[BROWSER_COOKIE];
  if (!sid) return undefined;
  const row = ctx.db.prepare('SELECT user_id FROM sso_browser_sessions WHERE id = ? AND expires_at > ?').get(sid, nowS()) as { user_id: number } | undefined;
  const user = row && findUserById(ctx.db, row.user_id);
  return user && user.is_active && user.identity_provider === SSO_PROVIDER ? user : undefined;
}

function page(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in with Microsoft (local)</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}form{margin:1rem 0}input,button{font:inherit;display:block;width:100%;margin:.4rem 0;padding:.4rem}</style>
</head><body><h1>Sign in with Microsoft</h1><p><small>Local identity provider of the S2T service.</small></p>${body}</body></html>`);
}

function identityPage(reply: FastifyReply, flow: FlowRow, remembered: UserRow | undefined, error?: string): FastifyReply {
  const dest = escapeHtml(new URL(flow.redirect_uri).origin);
  const f = escapeHtml(flow.id);
  const pick = remembered
    ? `<form method="post" action="${IDENTITY_PATH}"><input type="hidden" name="flow" value="${f}"><input type="hidden" name="action" value="pick">
<button type="submit" id="pick">Continue as ${escapeHtml(remembered.email)}</button></form><p>or use another account:</p>`
    : '';
  return page(
    reply,
    error ? 401 : 200,
    `<p>Signing in to <strong>${dest}</strong>.</p>${error ? `<p role="alert" id="error">${escapeHtml(error)}</p>` : ''}${pick}
<form method="post" action="${IDENTITY_PATH}"><input type="hidden" name="flow" value="${f}"><input type="hidden" name="action" value="password">
<label>E-mail <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit" id="sign-in">Sign in</button></form>`,
  );
}

function codePage(reply: FastifyReply, flow: FlowRow, user: UserRow, error?: string): FastifyReply {
  return page(
    reply,
    error ? 401 : 200,
    `<p>${escapeHtml(user.email)} has two-factor authentication on.</p>${error ? `<p role="alert" id="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${IDENTITY_PATH}"><input type="hidden" name="flow" value="${escapeHtml(flow.id)}"><input type="hidden" name="action" value="code">
<label>Code from your authenticator app, or a backup code <input name="code" autocomplete="one-time-code" required></label>
<button type="submit" id="verify">Verify</button></form>`,
  );
}

const IdentityQuery = z.object({ flow: z.string().min(1).max(128) });
const IdentityForm = z.discriminatedUnion('action', [
  z.object({ flow: z.string().min(1).max(128), action: z.literal('pick') }),
  z.object({ flow: z.string().min(1).max(128), action: z.literal('password'), email: z.string().min(1).max(320), password: z.string().min(1).max(1024) }),
  z.object({ flow: z.string().min(1).max(128), action: z.literal('code'), code: z.string().min(1).max(64) }),
]);

export function registerSsoRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  handle(app, ctx, 'auth.sso', async ({ query, reply }) => {
    const redirect = allowedRedirect(query.redirect_uri, ctx.config.ssoRedirectUris);
    if (!redirect) throw validationError('redirect_uri must be http://127.0.0.1 or http://[::1] (any port), or one the operator allowed, without credentials or fragment');
    const id = randomBytes(24).toString('base64url');
    ctx.db
      .prepare('INSERT INTO sso_flows (id, provider, redirect_uri, state, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, SSO_PROVIDER, redirect.href, query.state ?? null, nowS() + FLOW_TTL_S);
    ctx.db.prepare('DELETE FROM sso_flows WHERE expires_at < ?').run(nowS() - FLOW_TTL_S);
    reply.redirect(`${IDENTITY_PATH}?flow=${id}`, 302);
    return SENT;
  });

  app.get(IDENTITY_PATH, async (req, reply) => {
    app.rateLimiter.hit(`ip:${req.ip}`, reply);
    const q = IdentityQuery.safeParse(req.query);
    const flow = q.success ? openFlow(ctx, q.data.flow) : undefined;
    if (!flow) return page(reply, 400, '<p id="error">This sign-in link is unknown, used or expired. Start again from the app.</p>');
    return identityPage(reply, flow, rememberedUser(ctx, req));
  });

  app.post(IDENTITY_PATH, async (req, reply) => {
    app.rateLimiter.hit(`ip:${req.ip}`, reply);
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') throw plainError(415, 'Content-Type must be application/x-www-form-urlencoded');
    const form = IdentityForm.safeParse(req.body);
    if (!form.success) throw validationError('flow, action and (for action=password) email and password are required');
    const flow = openFlow(ctx, form.data.flow);
    if (!flow) return page(reply, 400, '<p id="error">This sign-in link is unknown, used or expired. Start again from the app.</p>');

    let user: UserRow | undefined;
    if (form.data.action === 'code') {
      // The second step: only for a flow whose first step named the account.
      user = flow.mfa_user_id === null ? undefined : findUserById(ctx.db, flow.mfa_user_id);
      if (!user || !user.is_active) return page(reply, 400, '<p id="error">This sign-in has no pending second step. Start again from the app.</p>');
      const attempt = { account: user.email, source: req.ip };
      assertNotLocked(attempt);
      if (!acceptSecondFactor(ctx, user, form.data.code)) {
        recordFailure(attempt);
        return codePage(reply, flow, user, 'Wrong, expired or already used code.');
      }
      recordSuccess(attempt);
    } else if (form.data.action === 'pick') {
      user = rememberedUser(ctx, req);
      if (!user) return identityPage(reply, flow, undefined, 'That account is no longer signed in here; sign in again.');
    } else {
      const attempt = { account: form.data.email, source: req.ip };
      assertNotLocked(attempt);
      const candidate = findUserByEmail(ctx.db, form.data.email);
      const ok = await verifyPassword(form.data.password, candidate?.password_hash ?? UNKNOWN_USER_HASH);
      if (!candidate || !ok || !candidate.is_active || candidate.identity_provider !== SSO_PROVIDER) {
        recordFailure(attempt);
        return identityPage(reply, flow, rememberedUser(ctx, req), 'Wrong e-mail or password for a Microsoft account.');
      }
      if (candidate.two_factor_active !== 1) recordSuccess(attempt);
      user = candidate;
      const browser = randomBytes(24).toString('base64url');
      ctx.db.prepare('INSERT INTO sso_browser_sessions (id, user_id, expires_at) VALUES (?, ?, ?)').run(browser, user.id, nowS() + BROWSER_TTL_S);
      ctx.db.prepare('DELETE FROM sso_browser_sessions WHERE expires_at < ?').run(nowS());
      // Loopback http: not Secure; SameSite=Strict keeps other sites from using the remembered account.
      reply.setCookie(BROWSER_COOKIE, browser, { httpOnly: true, sameSite: 'strict', path: IDENTITY_PATH, maxAge: BROWSER_TTL_S });
    }
    // Two-factor accounts owe their code here too (a remembered browser included) before any token.
    if (form.data.action !== 'code' && user.two_factor_active === 1) {
      ctx.db.prepare('UPDATE sso_flows SET mfa_user_id = ? WHERE id = ? AND used_at IS NULL').run(user.id, flow.id);
      return codePage(reply, flow, user);
    }
    // Single use: a flow id that leaked from the browser history cannot mint a second token.
    if (ctx.db.prepare('UPDATE sso_flows SET used_at = ? WHERE id = ? AND used_at IS NULL').run(new Date().toISOString(), flow.id).changes !== 1) {
      return page(reply, 400, '<p id="error">This sign-in link was already used. Start again from the app.</p>');
    }
    const login = await issueLogin(ctx, user, false);
    const back = new URL(flow.redirect_uri);
    back.searchParams.set('access_token', login.access_token);
    if (flow.state !== null) back.searchParams.set('state', flow.state);
    return reply.redirect(back.href, 303);
  });
}
