import { useState } from 'react';
import { call } from '../lib/bridge';

/**
 * Single sign-on in the system browser: main listens on a loopback port for the identity
 * provider's redirect and signs in from there (auth.changed tells the app). In Electron main opens
 * the browser; in browser mode this opens a tab, made blank during the click so no popup blocker
 * stops it, then pointed at the sign-in address.
 */
export function SingleSignOn({ disabled, local, onProblem }: { disabled: boolean; local: boolean; onProblem: (message: string | null) => void }) {
  const [waiting, setWaiting] = useState(false);

  async function start() {
    onProblem(null);
    const tab = window.s2t ? null : window.open('about:blank', '_blank');
    try {
      const { url, opened } = await call('auth.ssoStart', {});
      if (!opened) {
        if (tab) tab.location.href = url;
        else if (!window.open(url, '_blank', 'noopener')) throw new Error('The browser blocked the sign-in tab. Allow pop-ups for this page and try again.');
      }
      setWaiting(true);
    } catch (err) {
      tab?.close();
      onProblem((err as Error).message);
    }
  }

  return (
    <div className="sso">
      <button type="button" disabled={disabled} onClick={() => void start()}>
        {/* This computer's service has its own identity page, not Microsoft's: the button says which it opens. */}
        {local ? "Sign in with this computer's identity page (single sign-on)" : 'Sign in with Microsoft (single sign-on)'}
      </button>
      {waiting && (
        <p className="muted small" role="status">
          Finish signing in in your browser; the app continues by itself. Not opened? Press the button again.
        </p>
      )}
    </div>
  );
}
