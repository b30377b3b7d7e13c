import { useState } from 'react';
import type { AccountEntry, AuthState } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useAction } from '../lib/useAction';
import { useAsync } from '../lib/useAsync';

export const accountLabel = (a: AccountEntry) => (a.kind === 'local' ? 'This computer' : a.serviceUrl.replace(/^https?:\/\//, ''));

/**
 * Where to sign in: this computer's own service, a service signed in to before, or a new address,
 * which main checks answers as the interface does before the password step. Choosing one makes
 * it the active account; auth.changed then shows its sign-in (or the app, when still signed in).
 */
export function ServiceChoice({ state, disabled }: { state: AuthState; disabled: boolean }) {
  const known = useAsync(() => call('accounts.list', {}), [state.serviceUrl]);
  const [adding, setAdding] = useState(false);
  const [url, setUrl] = useState('');
  const action = useAction();
  const { busy, problem } = action;
  // A service chosen or added closes the address field.
  const run = (work: () => Promise<unknown>) =>
    action.run(async () => {
      await work();
      setAdding(false);
    });

  function add(e: { preventDefault(): void; stopPropagation(): void }) {
    e.preventDefault();
    e.stopPropagation();
    void run(() => call('accounts.add', { url }));
  }

  const list = known.value;
  if (!list) return null;
  return (
    <div className="service-choice" role="radiogroup" aria-label="Service">
      {list.accounts.map((a) => (
        <label className="check" key={a.id}>
          <input type="radio" name="service" checked={!adding && a.id === list.active} disabled={disabled || busy} onChange={() => void run(() => call('accounts.switch', { id: a.id }))} />
          <span className="service-name">{accountLabel(a)}</span>
        </label>
      ))}
      <label className="check">
        <input type="radio" name="service" checked={adding} disabled={disabled || busy} onChange={() => setAdding(true)} /> Another service…
      </label>
      {adding && (
        <div className="service-url">
          <input aria-label="Service address" type="url" inputMode="url" placeholder="https://s2t.example.com" value={url} onChange={(e) => setUrl(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && add(e)} autoFocus />
          <button type="button" disabled={busy || !url.trim()} onClick={add}>
            {busy ? 'Checking…' : 'Check and continue'}
          </button>
        </div>
      )}
      {problem && <p className="error" role="alert">{problem}</p>}
    </div>
  );
}
