/**
 * Signing in to the app's own embedded service, whose password nobody types (it is made at each
 * start: main/embedded-service.ts): at start, and again whenever the session ends by itself
 * (expired, revoked). Only the person's own sign-out leaves the app signed out, until next start.
 */
import type { CoreHandlers } from './core';
import type { LocalAccount } from './embedded-service';
import { NEEDS_FRESH_SIGN_IN } from './ipc/handlers/account';
import { UserFacingError } from './ipc/user-facing-error';

export interface LocalSignIn {
  signIn(): Promise<unknown>;
  /** To be told every auth.changed: a session that ended by itself is renewed. */
  authChanged(signedIn: boolean): void;
  /** auth.logout, remembering that the person chose it. */
  handlers: Pick<CoreHandlers, 'auth.logout' | 'auth.signInLocal' | 'account.mfaStart' | 'account.mfaEnable'>;
}

export function localSignIn(core: CoreHandlers, owner: LocalAccount): LocalSignIn {
  let signedOutByUser = false;
  const signIn = async () => core['auth.login']({ username: owner.email, password: owner.password, rememberMe: true });
  /**
   * Turning two-factor on asks for a password sign-in of the last minutes. Here the app holds the
   * password and signed in with it by itself, so it signs in again instead of asking the person
   * to sign out and in, which they never did in the first place.
   */
  const afterFreshSignIn = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof UserFacingError && err.code === NEEDS_FRESH_SIGN_IN)) throw err;
      const outcome = await signIn();
      if (outcome.status !== 'signed-in') throw err;
      return work();
    }
  };
  return {
    signIn,
    authChanged(signedIn) {
      if (!signedIn && !signedOutByUser) void signIn();
    },
    handlers: {
      'auth.logout': async (args) => {
        signedOutByUser = true;
        return core['auth.logout'](args);
      },
      'auth.signInLocal': async () => {
        signedOutByUser = false;
        return signIn();
      },
      'account.mfaStart': (args) => afterFreshSignIn(() => core['account.mfaStart'](args)),
      'account.mfaEnable': (args) => afterFreshSignIn(() => core['account.mfaEnable'](args)),
    },
  };
}
