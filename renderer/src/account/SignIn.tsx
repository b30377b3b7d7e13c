import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AuthState, LoginOutcome } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { ServiceChoice } from './ServiceChoice';
import { SingleSignOn } from './SingleSignOn';
import './account.css';

export function SignIn({ state, onSignedIn }: { state: AuthState; onSignedIn: (s: AuthState) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [code, setCode] = useState('');
  const [needCode, setNeedCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(state.message ?? null);
  /** The field to type again after a refusal (the password, or the code): the disabled button had the focus. */
  const retry = useRef<HTMLInputElement>(null);

  // Main words what ended a sign-in it ran by itself (single sign-on, an expired session) in auth.changed.
  useEffect(() => setMessage(state.message ?? null), [state]);

  async function attempt(request: () => Promise<LoginOutcome>) {
    setBusy(true);
    setMessage(null);
    let refused = false;
    try {
      const outcome = await request();
      if (outcome.status === 'signed-in') onSignedIn(outcome.state);
      else if (outcome.status === 'mfa-required') {
        // "Continue on this computer" typed no address: main says whose code it is.
        if (outcome.username) setUsername(outcome.username);
        setNeedCode(true);
      }
      else {
        refused = true;
        setMessage(outcome.message);
      }
    } catch (err) {
      refused = true;
      setMessage((err as Error).message);
    } finally {
      setBusy(false);
    }
    if (refused) {
      retry.current?.focus();
      retry.current?.select();
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    void attempt(() => (needCode ? call('auth.loginMfa', { code }) : call('auth.login', { username, password, rememberMe: remember })));
  }

  /** Back to the password step; main forgets the password it kept for the code. */
  function back() {
    setNeedCode(false);
    setCode('');
    setMessage(null);
    void call('auth.cancelMfa', {}).catch(() => {});
  }

  return (
    <div className="signin">
      <form className="card" onSubmit={submit} aria-label="Sign in">
        <h1>S2T Desktop</h1>
        <p className="muted">{state.mode === 'local' ? 'Sign in to the local speech-to-text service on this computer.' : `Sign in to ${state.serviceUrl}`}</p>
        {!needCode && <ServiceChoice state={state} disabled={busy} />}
        {state.mode === 'local' && !needCode && (
          <>
            {/* The usual way in on this computer, so it has the focus; a password is the exception here. */}
            <button type="button" className="primary" disabled={busy} autoFocus onClick={() => void attempt(() => call('auth.signInLocal', {}))}>
              Continue on this computer
            </button>
            <p className="muted">Or sign in with an account of this computer's service:</p>
          </>
        )}
        {!needCode ? (
          <>
            <label>
              E-mail
              <input name="username" type="email" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} autoFocus={state.mode !== 'local'} />
            </label>
            <label>
              Password
              <input ref={retry} name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            </label>
            <label className="check">
              <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Keep me signed in
            </label>
          </>
        ) : (
          <>
            <p className="muted step-note">
              {username ? (
                <>
                  Two-factor sign-in for <strong>{username}</strong>.
                </>
              ) : (
                "Two-factor sign-in for this computer's account."
              )}
            </p>
            <label>
              Code from your authenticator app, or a backup code
              <input ref={retry} name="code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} autoFocus />
            </label>
          </>
        )}
        {message && <p className="error" role="alert">{message}</p>}
        <div className="signin-actions">
          {needCode && (
            <button type="button" disabled={busy} onClick={back}>
              Back
            </button>
          )}
          <button type="submit" disabled={busy}>{busy ? 'Signing in…' : needCode ? 'Verify' : 'Sign in'}</button>
        </div>
        {/* Keyed by main's message: a single sign-on that ended (timed out, refused) stops saying it is waiting. */}
        {!needCode && <SingleSignOn key={state.message ?? ''} disabled={busy} local={state.mode === 'local'} onProblem={setMessage} />}
      </form>
    </div>
  );
}
