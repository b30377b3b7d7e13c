/**
 * Signing in to the app's own embedded service, whose password nobody types (it is made at each
 * start: main/embedded-service.ts): at start, and again whenever the session ends by itself
 * (expired, revoked). Only the person's own sign-out leaves the app signed out, until next start.
 */
import type { CoreHandlers } from './core';
import type { LocalAccount } from './embedded-service';

export interface LocalSignIn {
  signIn(): Promise<unknown>;
  /** To be told every auth.changed: a session that ended by itself is renewed. */
  authChanged(signedIn: boolean): void;
  /** auth.logout, remembering that the person chose it. */
  handlers: Pick<CoreHandlers, 'auth.logout' | 'auth.signInLocal'>;
}

export function localSignIn(core: CoreHandlers, owner: LocalAccount): LocalSignIn {
  let signedOutByUser = false;
  const signIn = async () => core['auth.login']({ username: owner.email, password: owner.password, rememberMe: true });
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
    },
  };
}
