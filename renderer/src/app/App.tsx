import { useEffect, useRef, useState } from 'react';
import type { AuthState } from '../../../common/ipc';
import { call, subscribe } from '../lib/bridge';
import { GlobalSearch } from '../search/GlobalSearch';
import { SessionList } from '../sessions/SessionList';
import { SessionView, type Jump } from '../sessions/SessionView';
import { NoSessionOpen } from '../sessions/NoSessionOpen';
import { SignIn } from '../account/SignIn';
import { AccountPage } from '../account/AccountPage';
import { AccountSwitcher } from '../account/AccountSwitcher';
import { SyncBadge } from './SyncBadge';
import { PreferencesButton } from '../settings/PreferencesButton';
import { PreferencesLayer } from '../settings/PreferencesLayer';
import { WatchFolders } from '../watch/WatchFolders';
import { ImportLayer } from '../imports/ImportLayer';
import { NewTranscriptionButton } from '../imports/NewTranscriptionButton';
import { LiveButton } from '../live/LiveButton';
import { LiveView } from '../live/LiveView';
import { useLiveRecording } from '../live/useLiveRecording';
import { UploadsButton } from '../imports/UploadsButton';
import { UploadsView } from '../imports/UploadsView';
import { ShortcutSheet } from '../ui/ShortcutSheet';
import { useShortcutSheet } from './useShortcutSheet';
import { AboutDialog } from './AboutDialog';
import { useAppliedTheme } from './theme';
import { useNarrow } from './useNarrow';
import { UpdateNotice } from '../updates/UpdateNotice';
import './app.css';
import './fit.css';

export function App() {
  const [auth, setAuth] = useState<AuthState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  /** What became of the session that was open, said where it was (a deleted one leaves nothing to show). */
  const [closedNote, setClosedNote] = useState<string | null>(null);
  const [view, setView] = useState<'sessions' | 'watch' | 'account' | 'uploads' | 'live'>('sessions');
  const liveRecording = useLiveRecording();
  const [jump, setJump] = useState<Jump | null>(null);
  useAppliedTheme();
  const sheet = useShortcutSheet();
  const narrow = useNarrow();
  // The sidebar is a column in a wide window and an overlay in a narrow one; each remembers its own state.
  const [sidebarWide, setSidebarWide] = useState(true);
  const [sidebarNarrow, setSidebarNarrow] = useState(false);
  const sidebarOpen = narrow ? sidebarNarrow : sidebarWide;
  const setSidebar = narrow ? setSidebarNarrow : setSidebarWide;
  const [moreOpen, setMoreOpen] = useState(false);
  const [aboutOpen, setAboutOpen] = useState(false);

  useEffect(() => {
    call('auth.state', {}).then(setAuth, (e: Error) => setError(e.message));
    return subscribe('auth.changed', setAuth);
  }, []);
  useEffect(() => {
    if (!moreOpen) return;
    const outside = (e: PointerEvent) => !(e.target as Element).closest('.topbar-actions, .more-toggle') && setMoreOpen(false);
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [moreOpen]);

  // A view chosen from the menu or a row's button: the button that had the focus is gone, so the
  // focus goes to the new view (not the page), and the next Tab continues from there.
  const content = useRef<HTMLElement>(null);
  const shownView = useRef(view);
  useEffect(() => {
    if (shownView.current === view) return;
    shownView.current = view;
    const had = document.activeElement;
    if (!had || had === document.body || had.getClientRects().length === 0) content.current?.focus({ preventScroll: true });
  }, [view]);

  const sheetView = sheet.open && <ShortcutSheet onClose={sheet.close} />;
  if (error) return <div className="fatal" role="alert">{error}</div>;
  if (!auth) return <div className="loading">Starting…</div>;
  if (!auth.signedIn) return (
    <>
      <SignIn state={auth} onSignedIn={setAuth} />
      {sheetView}
    </>
  );

  const openSession = (id: string) => {
    setSelected(id);
    setClosedNote(null);
    setView('sessions');
    setJump(null);
    if (narrow) setSidebarNarrow(false);
  };

  return (
    <div className={`shell${sidebarOpen ? '' : ' sidebar-closed'}${narrow ? ' narrow' : ''}`}>
      <header className="topbar">
        <button
          type="button"
          className="icon sidebar-toggle"
          aria-expanded={sidebarOpen}
          aria-controls="sidebar"
          aria-label={sidebarOpen ? 'Hide sessions' : 'Show sessions'}
          title={sidebarOpen ? 'Hide sessions' : 'Show sessions'}
          onClick={() => setSidebar(!sidebarOpen)}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <span className="brand">S2T Desktop</span>
        <span className="where" title={auth.serviceUrl}>{auth.mode === 'local' ? 'Local service' : auth.serviceUrl}</span>
        <NewTranscriptionButton />
        <LiveButton pressed={view === 'live'} recording={liveRecording} onClick={() => setView(view === 'live' ? 'sessions' : 'live')} />
        <GlobalSearch
          onOpen={(hit) => {
            setSelected(hit.session_id);
            setView('sessions');
            setJump({ sessionId: hit.session_id, documentId: hit.document_id, timeMs: hit.time_ms, seq: (jump?.seq ?? 0) + 1 });
          }}
        />
        <SyncBadge />
        <UploadsButton pressed={view === 'uploads'} onClick={() => setView(view === 'uploads' ? 'sessions' : 'uploads')} />
        {/* The less used actions fold behind "Menu", so the bar stays one row at any width. */}
        <button type="button" className="more-toggle" aria-expanded={moreOpen} aria-controls="topbar-actions" onClick={() => setMoreOpen(!moreOpen)}>
          Menu <span aria-hidden="true">▾</span>
        </button>
        <div
          id="topbar-actions"
          className={`topbar-actions${moreOpen ? ' open' : ''}`}
          onClick={(e) => (e.target as Element).closest('button') && setMoreOpen(false)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && moreOpen) {
              setMoreOpen(false);
              document.querySelector<HTMLElement>('.more-toggle')?.focus();
            }
          }}
        >
          <button className={`link ${view === 'watch' ? 'active' : ''}`} aria-pressed={view === 'watch'} onClick={() => setView(view === 'watch' ? 'sessions' : 'watch')}>
            Watch folders
          </button>
          <button type="button" className="link" onClick={sheet.show} title="Keyboard shortcuts (? or F1)">
            Shortcuts
          </button>
          <button type="button" className="link" onClick={() => setAboutOpen(true)}>
            Help and about
          </button>
          <AccountSwitcher auth={auth} />
          <button className={`link user ${view === 'account' ? 'active' : ''}`} aria-current={view === 'account' ? 'page' : undefined} title="Your account: API tokens and two-factor sign-in" onClick={() => setView('account')}>
            {auth.user?.email}
          </button>
          <PreferencesButton />
          <button className="link" onClick={() => call('auth.logout', {}).then(setAuth)}>Sign out</button>
        </div>
      </header>
      <aside
        id="sidebar"
        className="sidebar"
        aria-label="Sessions"
        hidden={!sidebarOpen}
        onKeyDown={(e) => {
          // Over the content (a narrow window), Escape puts the sidebar away like any overlay.
          if (e.key !== 'Escape' || !narrow || e.defaultPrevented) return;
          setSidebarNarrow(false);
          document.querySelector<HTMLElement>('.sidebar-toggle')?.focus();
        }}
      >
        <SessionList selected={selected} onSelect={openSession} />
      </aside>
      {narrow && sidebarOpen && <div className="scrim" aria-hidden="true" onClick={() => setSidebarNarrow(false)} />}
      <main className="content" ref={content} tabIndex={-1}>
        {/* Kept while hidden: it holds the microphone while a live recording runs. */}
        <LiveView hidden={view !== 'live'} onOpenSession={openSession} onShowUploads={() => setView('uploads')} />
        {view === 'live' ? null : view === 'account' ? <AccountPage /> : view === 'watch' ? <WatchFolders onOpenSession={openSession} /> : view === 'uploads' ? <UploadsView onOpenSession={openSession} /> : selected ? (
          <SessionView key={selected} sessionId={selected} jump={jump} onClosed={(note) => (setSelected(null), setClosedNote(note ?? null))} />
        ) : (
          <NoSessionOpen note={closedNote} listShown={sidebarOpen} onShowList={() => setSidebar(true)} />
        )}
      </main>
      <PreferencesLayer />
      <ImportLayer onQueued={() => setView('uploads')} />
      <UpdateNotice />
      {aboutOpen && <AboutDialog onClose={() => setAboutOpen(false)} onShortcuts={() => (setAboutOpen(false), sheet.show())} />}
      {sheetView}
    </div>
  );
}
