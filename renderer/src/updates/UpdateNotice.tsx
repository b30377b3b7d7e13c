import { useEffect, useState } from 'react';
import type { UpdateState } from '../../../common/ipc';
import { call, subscribe } from '../lib/bridge';
import './updates.css';

/**
 * A new version of the installed app, as a notice in the corner: what is new, the download with
 * its progress, and the restart that installs it, only on the person's click. A failed check is
 * one quiet line. Nothing shows while the app is current, and never in browser mode.
 */
export function UpdateNotice() {
  const [state, setState] = useState<UpdateState>({ state: 'idle' });
  // "Later" hides this state only: the next change (a download done, a new check) shows again.
  const [dismissed, setDismissed] = useState<UpdateState | null>(null);
  useEffect(() => {
    let live = true;
    void call('updates.state', {}).then((s) => live && setState(s), () => {});
    const off = subscribe('updates.changed', setState);
    return () => {
      live = false;
      off();
    };
  }, []);
  if (dismissed === state) return null;
  const later = (
    <button type="button" className="link" onClick={() => setDismissed(state)}>
      Later
    </button>
  );
  switch (state.state) {
    case 'available':
      return (
        <section className="update-notice" role="status" aria-label="Update">
          <p>
            <strong>S2T Desktop {state.version} is available.</strong>
          </p>
          {state.notes && (
            <details>
              <summary>What’s new</summary>
              <p className="notes">{state.notes}</p>
            </details>
          )}
          <div className="actions">
            {later}
            <button type="button" onClick={() => void call('updates.download', {}).then(setState, () => {})}>
              Download
            </button>
          </div>
        </section>
      );
    case 'downloading':
      return (
        <section className="update-notice" role="status" aria-label="Update">
          <p>
            Downloading S2T Desktop {state.version}… {state.percent}%
          </p>
          <progress max={100} value={state.percent} aria-label={`Downloading S2T Desktop ${state.version}`} />
        </section>
      );
    case 'ready':
      return (
        <section className="update-notice" role="status" aria-label="Update">
          <p>
            <strong>S2T Desktop {state.version} is downloaded.</strong> It installs when the app restarts.
          </p>
          <div className="actions">
            {later}
            <button type="button" onClick={() => void call('updates.install', {}).then(setState, () => {})}>
              Restart and install
            </button>
          </div>
        </section>
      );
    case 'failed':
      return (
        <section className="update-notice quiet" role="status" aria-label="Update">
          <p className="muted small">{state.message}</p>
          <div className="actions">
            <button type="button" className="link" onClick={() => setDismissed(state)}>
              Dismiss
            </button>
          </div>
        </section>
      );
    default:
      return null;
  }
}
