/** auth.*: sign-in (with its MFA step), sign-out, and who is signed in. */
import type { CurrentUser } from '../../../common/api';
import type { AuthState, LoginOutcome } from '../../../common/ipc';
import type { Credentials } from '../../api/credentials';
import { classifyFailure, describeFailure } from '../../api/failure';
import type { Cache } from '../../cache/cache';
import type { Emit } from '../registry';
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
  const failure = classifyFailure(err);
  return failure ? describeFailure(failure, 'sign-in') : (err as Error).message;
}

export function authHandlers(ctx: CoreContext & { credentials: Credentials; signIn: SignIn }): AreaHandlers<'auth'> {
  const { client, cache, credentials, signIn, engine } = ctx;
  let pendingMfa: { username: string; password: string; rememberMe: boolean } | null = null;

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
          return { status: 'mfa-required' };
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
        if (!r.login || !r.access_token) return { status: 'refused', message: 'The code was not accepted.' };
        pendingMfa = null;
        return await finishLogin(r.access_token);
      } catch (err) {
        return { status: 'refused', message: refusal(err) };
      }
    },
    // Answered by main/local-sign-in.ts when the app holds its embedded service's credential.
    'auth.signInLocal': async () => ({ status: 'refused', message: 'This app does not hold a password for this service: sign in with your e-mail address and password.' }),
    'auth.logout': async () => {
      if (signIn.signedIn) await client.call('auth.logout', {}, { retries: 0, timeoutMs: 5000 }).catch(() => {});
      signIn.signedIn = false;
      await credentials.clear();
      cache.clearCurrentAccount();
      return signIn.change(false, null);
    },
  };
}
