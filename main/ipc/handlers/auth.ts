/** auth.*: sign-in (with its MFA step), sign-out, and who is signed in. */
import { routes, USED_TOTP_CODE, type CurrentUser } from '../../../common/api';
import type { AuthState, LoginOutcome } from '../../../common/ipc';
import type { Credentials } from '../../api/credentials';
import { classifyFailure, describeError } from '../../api/failure';
import { startLoopbackRedirect, SsoError, type LoopbackRedirect } from '../../auth/loopback-redirect';
import type { Cache } from '../../cache/cache';
import type { Emit } from '../registry';
import { LOCKED_OUT, USED_CODE, WRONG_CODE } from './account';
import type { AreaHandlers, CoreContext } from './context';

/** Whether someone is signed in, and the message the sign-in screen shows. */
export class SignIn {
  signedIn = false;
  constructor(
    private readonly d: { cache: Cache; emit: Emit; serviceUrl: string; mode: 'local' | 'cloud' },
    public message: string | null,
  ) {}

  accountId(): number | null {
    return this.signedIn ? (this.d.cache.currentAccount()?.id ?? null) : null;
  }

  state(): AuthState {
    const acc = this.signedIn ? this.d.cache.currentAccount() : null;
    const u = acc?.user;
    return {
      signedIn: !!acc,
      serviceUrl: this.d.serviceUrl,
      mode: this.d.mode,
      user: u ? { id: u.id, email: u.email, name: `${u.first_name} ${u.last_name}`.trim() || u.email, roles: u.roles } : null,
      message: this.message,
    };
  }

  /** Sets the state and tells the UI; returns the new state. */
  change(signedIn: boolean, message: string | null): AuthState {
    this.signedIn = signedIn;
    this.message = message;
    const s = this.state();
    this.d.emit('auth.changed', s);
    return s;
  }

  /** The service no longer takes our credentials. */
  ended(): void {
    if (this.signedIn) this.change(false, 'Your session has ended. Please sign in again.');
  }
}

/** A person-readable sentence for a failed sign-in. */
function refusal(err: unknown): string {
  return describeError(err, 'sign-in');
}

/**
 * A failed code step: the password was accepted a moment ago, so a 401 there is the code (the
 * service says "wrong, expired or already used code"); 429 is the lockout that wrong codes earn.
 */
function codeRefusal(err: unknown): string {
  const failure = classifyFailure(err);
  if (failure?.kind === 'rate-limited') return LOCKED_OUT;
  if (failure?.status === 401 && failure.detail.includes(USED_TOTP_CODE)) return USED_CODE;
  if (failure?.status === 401 && !/password/i.test(failure.detail)) return WRONG_CODE;
  return refusal(err);
}

export interface AuthOptions {
  credentials: Credentials;
  signIn: SignIn;
  /** Opens a web address in the system browser (Electron's shell.openExternal); absent in browser mode, where the renderer opens a tab. */
  openExternal?: (url: string) => Promise<void>;
  /** How long single sign-on waits for the browser (tests shorten it). */
  ssoTimeoutMs?: number;
}

export function authHandlers(ctx: CoreContext & AuthOptions): AreaHandlers<'auth'> {
  const { client, cache, credentials, signIn, engine } = ctx;
  let pendingMfa: { username: string; password: string; rememberMe: boolean } | null = null;
  let sso: LoopbackRedirect | null = null;

  async function finishLogin(token: string): Promise<LoginOutcome> {
    await credentials.setAccessToken(token);
    let user: CurrentUser;
    try {
      user = (await client.call('account.me')).result;
    } catch (err) {
      await credentials.setAccessToken(null);
      return { status: 'refused', message: refusal(err) };
    }
    cache.setCurrentAccount(ctx.serviceUrl, user);
    const s = signIn.change(true, null);
    engine.kick();
    void engine.run();
    return { status: 'signed-in', state: s };
  }

  return {
    'auth.state': async () => signIn.state(),
    'auth.login': async ({ username, password, rememberMe }) => {
      try {
        const r = await client.call('auth.login', { query: { login_type: 'token' }, body: { username, password, remember_me: rememberMe } });
        if (r.mfa_required) {
          pendingMfa = { username, password, rememberMe };
          return { status: 'mfa-required', username };
        }
        if (!r.login || !r.access_token) return { status: 'refused', message: 'The service did not accept the sign-in.' };
        return await finishLogin(r.access_token);
      } catch (err) {
        return { status: 'refused', message: refusal(err) };
      }
    },
    'auth.loginMfa': async ({ code }) => {
      if (!pendingMfa) return { status: 'refused', message: 'Start the sign-in again: no sign-in is waiting for a code.' };
      const { username, password, rememberMe } = pendingMfa;
      try {
        const r = await client.call('auth.loginMfa', { query: { login_type: 'token' }, body: { username, password, remember_me: rememberMe, totp_code: code, backup_code: code } });
        if (!r.login || !r.access_token) return { status: 'refused', message: WRONG_CODE };
        pendingMfa = null;
        return await finishLogin(r.access_token);
      } catch (err) {
        return { status: 'refused', message: codeRefusal(err) };
      }
    },
    'auth.cancelMfa': async () => {
      pendingMfa = null;
      return { done: true };
    },
    'auth.ssoStart': async () => {
      const previous = sso;
      sso = null;
      previous?.cancel();
      const flow = await startLoopbackRedirect({ timeoutMs: ctx.ssoTimeoutMs });
      sso = flow;
      const url = new URL(`${client.baseUrl}${routes['auth.sso'].path}`);
      url.searchParams.set('redirect_uri', flow.redirectUri);
      url.searchParams.set('state', flow.state);
      flow.token.then(
        async (token) => {
          const outcome = await finishLogin(token);
          if (outcome.status === 'refused') signIn.change(false, outcome.message);
        },
        (err: Error) => {
          // A newer sign-in replaced this one: nothing to tell.
          if (sso === flow && !signIn.signedIn) signIn.change(false, err instanceof SsoError ? err.message : `Single sign-on failed (${err.message}).`);
        },
      ).finally(() => {
        if (sso === flow) sso = null;
      });
      let opened = false;
      if (ctx.openExternal) {
        await ctx.openExternal(url.href);
        opened = true;
      }
      return { url: url.href, opened };
    },
    // Answered by main/local-sign-in.ts when the app holds its embedded service's credential.
    'auth.signInLocal': async () => ({ status: 'refused', message: 'This app does not hold a password for this service: sign in with your e-mail address and password.' }),
    'auth.logout': async () => {
      const waiting = sso;
      sso = null;
      waiting?.cancel();
      pendingMfa = null;
      if (signIn.signedIn) await client.call('auth.logout', {}, { retries: 0, timeoutMs: 5000 }).catch(() => {});
      signIn.signedIn = false;
      await credentials.clear();
      cache.clearCurrentAccount();
      return signIn.change(false, null);
    },
  };
}
