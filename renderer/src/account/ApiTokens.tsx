import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AccountToken } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { day } from '../lib/format';
import { useAction } from '../lib/useAction';
import { useAsync } from '../lib/useAsync';
import { ConfirmDialog } from '../ui/Dialog';
import { CopyButton } from '../ui/CopyButton';

/** The form's words for a token's type, not the service's lower-case name. */
const TYPE_LABEL: Record<AccountToken['type'], string> = { batch: 'Batch', realtime: 'Realtime' };

/** API tokens: the list (keys only), a new token's value shown once, deletion after a confirmation. */
export function ApiTokens() {
  const list = useAsync(() => call('account.tokens', {}), []);
  const [name, setName] = useState('');
  const [type, setType] = useState<'batch' | 'realtime'>('batch');
  const [years, setYears] = useState<1 | 2 | 5>(1);
  const [created, setCreated] = useState<{ token: AccountToken; value: string } | null>(null);
  const [deleting, setDeleting] = useState<AccountToken | null>(null);
  const { busy, problem, run } = useAction(() => list.reload());
  // The value is what to act on next (the create button had the focus and is disabled meanwhile): its Copy button takes the focus.
  const once = useRef<HTMLDivElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  useEffect(() => once.current?.querySelector('button')?.focus(), [created]);

  function create(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      setCreated(await call('account.createToken', { name, type, yearsValid: years }));
      setName('');
    });
  }

  return (
    <section className="account-section" aria-labelledby="tokens-title">
      <h3 id="tokens-title">API tokens</h3>
      <p className="muted small">Programs use these to send media to the service for you. Each token works until it expires or you delete it.</p>
      {created && (
        <div ref={once} className="token-once" role="region" aria-label="New token">
          <p>
            <strong>Copy the token “{created.token.name}” now.</strong> It will not be shown again: after you close this, only its key is listed.
          </p>
          <div className="token-value">
            <code aria-label="Token value">{created.value}</code>
            <CopyButton text={created.value} />
          </div>
          {/* The region and its button go: the focus goes on to the form for the next token, not to the page. */}
          <button
            type="button"
            onClick={() => {
              setCreated(null);
              nameField.current?.focus();
            }}
          >
            I have copied it
          </button>
        </div>
      )}
      {list.error && <p className="error" role="alert">{list.error}</p>}
      {list.value && list.value.tokens.length === 0 && <p className="muted">No tokens yet.</p>}
      {list.value && list.value.tokens.length > 0 && (
        <table className="tokens" aria-label="API tokens">
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th>Key</th>
              <th>Expires</th>
              <th><span className="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {list.value.tokens.map((t) => (
              <tr key={t.id}>
                <td>
                  {t.name}
                  {t.madeByApp && <span className="muted small"> (this app's uploads use it)</span>}
                </td>
                <td>{TYPE_LABEL[t.type]}</td>
                <td><code>{t.key}</code></td>
                <td>{day(t.expires)}</td>
                <td>
                  <button type="button" className="link danger" disabled={busy} onClick={() => setDeleting(t)} aria-label={`Delete token ${t.name}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="token-form" onSubmit={create} aria-label="New API token">
        <label>
          Name
          <input ref={nameField} name="token-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Nightly import" />
        </label>
        <label>
          Type
          <select value={type} onChange={(e) => setType(e.target.value as 'batch' | 'realtime')}>
            <option value="batch">Batch (files)</option>
            <option value="realtime">Realtime (live audio)</option>
          </select>
        </label>
        <label>
          Valid for
          <select value={years} onChange={(e) => setYears(Number(e.target.value) as 1 | 2 | 5)}>
            <option value={1}>1 year</option>
            <option value={2}>2 years</option>
            <option value={5}>5 years</option>
          </select>
        </label>
        <button type="submit" disabled={busy || !name.trim()}>
          Create token
        </button>
      </form>
      {problem && <p className="error" role="alert">{problem}</p>}
      {deleting && (
        <ConfirmDialog
          title={`Delete the token “${deleting.name}”?`}
          message={
            deleting.madeByApp
              ? 'This app uses it for uploads; it will make a new one when it next needs it. Other programs using this token stop working at once.'
              : 'Programs using this token stop working at once. This cannot be undone.'
          }
          confirmLabel="Delete token"
          danger
          onConfirm={() => void run(() => call('account.deleteToken', { tokenId: deleting.id }).then(() => undefined))}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
