import { useState } from 'react';
import type { AuthState } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useAsync } from '../lib/useAsync';
import { PromptDialog } from '../ui/Dialog';
import { accountLabel } from './ServiceChoice';

const ADD = '+add';

/**
 * The header's account menu: the accounts this app knows (this computer, services by address),
 * each with its own cache. Switching reloads the window, so every view reads the other account.
 */
export function AccountSwitcher({ auth }: { auth: AuthState }) {
  const known = useAsync(() => call('accounts.list', {}), [auth.serviceUrl]);
  const [adding, setAdding] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const list = known.value;
  if (!list) return null;

  const go = (work: () => Promise<unknown>) =>
    work().then(
      () => location.reload(),
      (err: Error) => setProblem(err.message),
    );

  return (
    <>
      <select
        className="account-switcher"
        aria-label="Account"
        value={list.active}
        onChange={(e) => (e.target.value === ADD ? setAdding(true) : void go(() => call('accounts.switch', { id: e.target.value })))}
      >
        {list.accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {accountLabel(a)}
            {a.email && a.id !== list.active ? ` (${a.email})` : ''}
          </option>
        ))}
        <option value={ADD}>Add a service…</option>
      </select>
      {problem && (
        <span className="error small" role="alert">
          {problem}
        </span>
      )}
      {adding && (
        <PromptDialog
          title="Add a service"
          label="Service address"
          initial=""
          hint="The address of a speech-to-text service, for example https://s2t.example.com. The app checks it before you sign in."
          confirmLabel="Check and continue"
          onSubmit={(url) => void go(() => call('accounts.add', { url }))}
          onClose={() => setAdding(false)}
        />
      )}
    </>
  );
}
