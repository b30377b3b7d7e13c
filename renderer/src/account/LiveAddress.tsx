/**
 * A service added by address may stream live audio on a host of its own (the vendor serves
 * realtime apart from its API): the address is set here, checked by main (wss:, no inward
 * hosts), and the notice always names the address in use.
 */
import { useState } from 'react';
import type { LiveAddress as Address } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useAsync } from '../lib/useAsync';

export function LiveAddress() {
  const current = useAsync(() => call('live.address', {}), []);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Address | null>(null);
  const a = saved ?? current.value;
  if (!a?.editable) return null;
  const value = draft ?? a.custom ?? '';
  const save = async (url: string | null) => {
    setError(null);
    try {
      setSaved(await call('live.setAddress', { url }));
      setDraft(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section className="account-section" aria-labelledby="live-address-title">
      <h3 id="live-address-title">Live transcription address</h3>
      <p className="small muted">Where Live streams audio for this service. Leave it empty for the service's own address.</p>
      <form
        className="token-form live-address-form"
        aria-label="Live transcription address"
        onSubmit={(e) => {
          e.preventDefault();
          void save(value);
        }}
      >
        <label>
          Address
          <input type="url" value={value} placeholder={a.usual} onChange={(e) => setDraft(e.target.value)} spellCheck={false} maxLength={2048} />
        </label>
        <button type="submit" className="primary" disabled={draft === null}>
          Save
        </button>
        {a.custom && (
          <button type="button" onClick={() => void save(null)}>
            Use the service's own
          </button>
        )}
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="small" role="status">
        Live uses <code className="live-address-url">{a.url}</code>
        {a.custom ? ' (set for this account).' : " (the service's own)."}
      </p>
    </section>
  );
}
