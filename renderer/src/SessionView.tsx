import { useEffect, useRef, useState } from 'react';
import { call, subscribe } from './bridge';
import { DocumentEditor } from './DocumentEditor';
import { clock } from './format';
import { useAsync } from './useAsync';

export function SessionView({ sessionId }: { sessionId: string }) {
  const detail = useAsync(() => call('sessions.get', { sessionId }), [sessionId]);
  const media = useAsync(() => call('media.url', { sessionId }), [sessionId]);
  const [docId, setDocId] = useState<string | null>(null);
  const player = useRef<HTMLMediaElement>(null);
  const [now, setNow] = useState(0);

  useEffect(() => subscribe('cache.changed', (c) => (!c.sessions || c.sessions.includes(sessionId)) && detail.reload()), [sessionId, detail.reload]);
  useEffect(() => setDocId(null), [sessionId]);

  const docs = detail.value?.documents ?? [];
  const current = docId ?? docs[0]?.id ?? null;
  const session = detail.value?.session;

  if (detail.error) return <p className="error" role="alert">{detail.error}</p>;
  if (!detail.value) return detail.loading ? <div className="loading">Loading…</div> : <p className="muted">This session is not in the local cache.</p>;

  const isVideo = session?.media_type.startsWith('video');
  const seek = (ms: number) => {
    if (player.current) {
      player.current.currentTime = ms / 1000;
      void player.current.play().catch(() => {});
    }
  };

  return (
    <section className="session-view" aria-label={session?.filename}>
      <div className="session-head">
        <h2>{session?.filename || '(untitled)'}</h2>
        <span className={`status ${session?.status ?? ''}`}>{session?.status}</span>
        <span className="muted">{session?.language} · {clock((session?.duration ?? 0) * 1000)}</span>
        {session?.error && <p className="error">{session.error}</p>}
      </div>
      {media.value?.url ? (
        isVideo ? (
          <video ref={player as React.RefObject<HTMLVideoElement>} className="player video" src={media.value.url} controls onTimeUpdate={(e) => setNow(e.currentTarget.currentTime * 1000)} />
        ) : (
          <audio ref={player as React.RefObject<HTMLAudioElement>} className="player" src={media.value.url} controls onTimeUpdate={(e) => setNow(e.currentTarget.currentTime * 1000)} />
        )
      ) : (
        <p className="muted small">No playable media is kept for this session (or you are offline).</p>
      )}
      <nav className="tabs" role="tablist">
        {docs.map((d) => (
          <button key={d.id} role="tab" aria-selected={d.id === current} className={d.id === current ? 'active' : ''} onClick={() => setDocId(d.id)}>
            {d.type === 'caption' ? 'Captions' : 'Transcript'} · {d.filename}
            {d.local_state !== 'synced' && <span className={`badge ${d.local_state === 'conflict' ? 'warn' : ''}`}>{d.local_state}</span>}
          </button>
        ))}
      </nav>
      {current ? <DocumentEditor key={current} documentId={current} nowMs={now} onSeek={seek} /> : <p className="muted">No documents yet{session?.status && session.status !== 'completed' ? `: the session is ${session.status}` : ''}.</p>}
    </section>
  );
}
