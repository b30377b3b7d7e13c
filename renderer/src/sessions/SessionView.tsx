import { useEffect, useRef, useState } from 'react';
import { DocumentEditor } from '../editor/DocumentEditor';
import { ConflictCopyBadge } from '../editor/conflicts/ConflictCopyBadge';
import { ConflictView } from '../editor/conflicts/ConflictView';
import { OpenConflictContext, useConflictPairs } from '../editor/conflicts/context';
import { MediaBar, type MediaLayout } from './MediaBar';
import { usePlaybackKeys, usePlayer } from './usePlayer';
import { useChannel } from '../lib/useChannel';
import { SessionHead } from './SessionHead';
import './sessions.css';
import './session-page.css';

/** Where to go when the session opens from a search hit: which document, and which moment. */
export interface Jump {
  sessionId: string;
  documentId: string;
  timeMs: number | null;
  /** Tells two jumps to the same place apart, so a second click on a hit still jumps. */
  seq: number;
}

/** Said where the session was after it is deleted here, or found gone (deleted elsewhere, or from the uploads view). */
export const SESSION_DELETED = 'Session deleted.';
export const SESSION_GONE = 'That session is no longer on this computer: it was deleted, here or on the service.';

export function SessionView({ sessionId, jump, onClosed }: { sessionId: string; jump?: Jump | null; onClosed?: (note?: string) => void }) {
  const detail = useChannel('sessions.get', { sessionId }, (c) => !c.sessions || c.sessions.includes(sessionId));
  const [docId, setDocId] = useState<string | null>(null);
  // A conflict copy (or its original) shown side by side instead of the editor.
  const [resolving, setResolving] = useState<string | null>(null);
  const [mediaLayout, setMediaLayout] = useState<MediaLayout>(null);
  const conflictPairs = useConflictPairs(sessionId);
  const player = usePlayer(sessionId);
  const { seek } = player;
  usePlaybackKeys(player);

  // A search hit opens its document at its moment (App keys this view by session, so it starts fresh).
  useEffect(() => {
    if (!jump || jump.sessionId !== sessionId) return;
    setDocId(jump.documentId);
    if (jump.timeMs !== null) seek(jump.timeMs);
  }, [jump, sessionId, seek]);

  const docs = detail.value?.documents ?? [];
  const current = docs.some((d) => d.id === docId) ? docId : (docs[0]?.id ?? null);
  const session = detail.value?.session;

  // Many or long document names scroll the tab row sideways: keep the selected tab in sight
  // (a click on a far tab's conflict badge, then Apply, lands on a tab scrolled off the left).
  const tabs = useRef<HTMLElement>(null);
  useEffect(() => {
    tabs.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [current, resolving]);

  if (detail.error) return <p className="error" role="alert">{detail.error}</p>;
  if (!detail.value) return detail.loading ? <div className="loading">Loading…</div> : <SessionGone onClosed={onClosed} />;

  return (
    <section className="session-view" data-media={mediaLayout ?? undefined} aria-label={session?.filename}>
      {session && <SessionHead session={session} engine={detail.value?.engine ?? null} documentCount={docs.length} onDeleted={() => onClosed?.(SESSION_DELETED)} />}
      <MediaBar player={player} onLayout={setMediaLayout} />
      <nav ref={tabs} className="tabs" role="tablist" aria-label="Documents">
        {docs.map((d) => (
          <button key={d.id} type="button" role="tab" aria-selected={d.id === current} className={d.id === current ? 'active' : ''} onClick={() => { setDocId(d.id); setResolving(null); }}>
            {d.type === 'caption' ? 'Captions' : 'Transcript'} · {d.filename}
            {d.finished && <span className="badge done" title="Marked as finished">finished</span>}
            {conflictPairs.some((p) => p.copyId === d.id) && <ConflictCopyBadge onOpen={() => setResolving(d.id)} />}
            {d.unsent_reason ? (
              <span className="badge warn">not sent</span>
            ) : (
              d.local_state !== 'synced' && <span className={`badge ${d.local_state === 'conflict' ? 'warn' : ''}`}>{d.local_state}</span>
            )}
          </button>
        ))}
      </nav>
      {resolving ? (
        <ConflictView documentId={resolving} onClose={(id) => { setResolving(null); if (id) setDocId(id); }} />
      ) : current ? (
        <OpenConflictContext.Provider value={setResolving}>
          <DocumentEditor key={current} documentId={current} captions={docs.find((d) => d.type === 'caption' && d.id !== current) ?? null} nowMs={player.nowMs} hasMedia={player.hasMedia} onSeek={seek} onOpenDocument={setDocId} onDeleted={() => setDocId(null)} />
        </OpenConflictContext.Provider>
      ) : (
        <p className="muted">No documents yet{session?.status && session.status !== 'completed' ? `: the session is ${session.status}` : ''}.</p>
      )}
    </section>
  );
}

/** The session asked for is not in the cache: what happened, and the way back to the list. */
function SessionGone({ onClosed }: { onClosed?: (note?: string) => void }) {
  return (
    <div className="empty" role="status">
      {SESSION_GONE}{' '}
      {onClosed && (
        <button type="button" className="link" onClick={() => onClosed()}>
          Back to the sessions
        </button>
      )}
    </div>
  );
}
