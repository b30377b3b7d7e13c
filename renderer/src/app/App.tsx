import { useEffect, useState } from 'react';
import type { AuthState } from '../../../common/ipc';
import { call, subscribe } from '../lib/bridge';
import { GlobalSearch } from '../search/GlobalSearch';
import { SessionList } from '../sessions/SessionList';
import { SessionView, type Jump } from '../sessions/SessionView';
import { SignIn } from '../account/SignIn';
import { AccountPage } from '../account/AccountPage';
import { SyncBadge } from './SyncBadge';
import { PreferencesButton } from '../settings/PreferencesButton';
import { PreferencesLayer } from '../settings/PreferencesLayer';
import { WatchFolders } from '../watch/WatchFolders';
import { ImportLayer } from '../imports/ImportLayer';
import { NewTranscriptionButton } from '../imports/NewTranscriptionButton';
import { UploadsButton } from '../imports/UploadsButton';
import { UploadsView } from '../imports/UploadsView';
import './app.css';

export function App() {
  const [auth, setAuth] = useState<AuthState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [view, setView] = useState<'sessions' | 'watch' | 'account' | 'uploads'>('sessions');
  const [jump, setJump] = useState<Jump | null>(null);

  useEffect(() => {
    call('auth.state', {}).then(setAuth, (e: Error) => setError(e.message));
    return subscribe('auth.changed', setAuth);
  }, []);

  if (error) return <div className="fatal" role="alert">{error}</div>;
  if (!auth) return <div className="loading">Starting…</div>;
  if (!auth.signedIn) return <SignIn state={auth} onSignedIn={setAuth} />;

  const openSession = (id: string) => {
    setSelected(id);
    setView('sessions');
    setJump(null);
  };

  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">S2T Desktop</span>
        <span className="where" title={auth.serviceUrl}>{auth.mode === 'local' ? 'Local service' : auth.serviceUrl}</span>
        <NewTranscriptionButton />
        <GlobalSearch
          onOpen={(hit) => {
            setSelected(hit.session_id);
            setView('sessions');
            setJump({ sessionId: hit.session_id, documentId: hit.document_id, timeMs: hit.time_ms, seq: (jump?.seq ?? 0) + 1 });
          }}
        />
        <button className={`link ${view === 'watch' ? 'active' : ''}`} aria-pressed={view === 'watch'} onClick={() => setView(view === 'watch' ? 'sessions' : 'watch')}>
          Watch folders
        </button>
        <SyncBadge />
        <UploadsButton pressed={view === 'uploads'} onClick={() => setView(view === 'uploads' ? 'sessions' : 'uploads')} />
        <button className={`link user ${view === 'account' ? 'active' : ''}`} aria-current={view === 'account' ? 'page' : undefined} title="Your account: API tokens and two-factor sign-in" onClick={() => setView('account')}>
          {auth.user?.email}
        </button>
        <PreferencesButton />
        <button className="link" onClick={() => call('auth.logout', {}).then(setAuth)}>Sign out</button>
      </header>
      <aside className="sidebar">
        <SessionList
          selected={selected}
          onSelect={(id) => {
            setSelected(id);
            setView('sessions');
            setJump(null);
          }}
        />
      </aside>
      <main className="content">
        {view === 'account' ? <AccountPage /> : view === 'watch' ? <WatchFolders onOpenSession={openSession} /> : view === 'uploads' ? <UploadsView onOpenSession={openSession} /> : selected ? <SessionView key={selected} sessionId={selected} jump={jump} /> : <div className="empty">Choose a session to open its transcript and captions.</div>}
      </main>
      <PreferencesLayer />
      <ImportLayer onQueued={() => setView('uploads')} />
    </div>
  );
}
