import { useEffect, useState } from 'react';
import type { AuthState } from '../../common/ipc';
import { call, subscribe } from './bridge';
import { SessionList } from './SessionList';
import { SessionView } from './SessionView';
import { SignIn } from './SignIn';
import { SyncBadge } from './SyncBadge';

export function App() {
  const [auth, setAuth] = useState<AuthState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  useEffect(() => {
    call('auth.state', {}).then(setAuth, (e: Error) => setError(e.message));
    return subscribe('auth.changed', setAuth);
  }, []);

  if (error) return <div className="fatal" role="alert">{error}</div>;
  if (!auth) return <div className="loading">Starting…</div>;
  if (!auth.signedIn) return <SignIn state={auth} onSignedIn={setAuth} />;

  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">S2T Desktop</span>
        <span className="where" title={auth.serviceUrl}>{auth.mode === 'local' ? 'Local service' : auth.serviceUrl}</span>
        <SyncBadge />
        <span className="user">{auth.user?.email}</span>
        <button className="link" onClick={() => call('auth.logout', {}).then(setAuth)}>Sign out</button>
      </header>
      <aside className="sidebar">
        <SessionList selected={selected} onSelect={setSelected} />
      </aside>
      <main className="content">
        {selected ? <SessionView sessionId={selected} /> : <div className="empty">Choose a session to open its transcript and captions.</div>}
      </main>
    </div>
  );
}
