import { useState } from 'react';
import { SessionName, type SessionSummary } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { clock, when } from '../lib/format';
import { ConfirmDialog, PromptDialog } from '../ui/Dialog';
import { engineName } from '../imports/EngineSelect';
import { useModels } from '../imports/useModels';
import { MODE_LABEL } from './modes';
import { useOnline } from '../lib/useSyncState';
import { deletedWhere } from './deletedWhere';
import { StatusBadge, useLiveProgress } from './StatusBadge';

/** The session's fields, its state (with the error when it failed) and the session-wide actions: rename and delete. */
export function SessionHead({ session, engine, documentCount, onDeleted }: { session: SessionSummary; /** What made its transcript, as the service recorded it. */ engine: string | null; documentCount: number; onDeleted: () => void }) {
  const [asking, setAsking] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const live = useLiveProgress().get(session.session_id);
  const online = useOnline();
  // By name, as New transcription and the uploads view say it; the code when the service does not list it.
  const languageName = useModels().models.find((m) => m.key === session.language)?.name;
  const name = session.filename || '(untitled)';

  async function remove() {
    try {
      await call('sessions.delete', { sessionIds: [session.session_id] });
      onDeleted();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  async function rename(filename: string) {
    setError(null);
    try {
      if (filename !== session.filename) await call('sessions.rename', { sessionId: session.session_id, filename });
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <div className="session-head">
      <div className="session-title">
        <h2 title={name}>{name}</h2>
        {/* A small button beside the name it changes: the head keeps one row beside a video in a small window. */}
        <button type="button" className="icon rename-session" aria-label="Rename session…" title="Rename session…" onClick={() => setRenaming(true)}>
          <span aria-hidden="true">✎</span>
        </button>
        <StatusBadge session={session} live={live} />
        <span className="spacer" />
        <button type="button" className="danger" onClick={() => setAsking(true)}>Delete session…</button>
      </div>
      <dl className="session-fields">
        <div><dt>Language</dt><dd title={session.language || undefined}>{languageName || session.language || '—'}</dd></div>
        <div><dt>Mode</dt><dd>{session.session_mode ? MODE_LABEL[session.session_mode] : '—'}</dd></div>
        <div><dt>Duration</dt><dd>{clock(session.duration * 1000)}</dd></div>
        <div><dt>Uploaded</dt><dd>{when(session.date_upload ?? session.last_modified)}</dd></div>
        {session.date_finished && <div><dt>Finished</dt><dd>{when(session.date_finished)}</dd></div>}
        <div><dt>Media</dt><dd>{session.media_type || '—'}{session.keep_media === false ? ' (not kept on the service)' : ''}</dd></div>
        {engine && <div><dt>Engine</dt><dd>{engineName(engine)}</dd></div>}
        <div><dt>Speakers</dt><dd>{session.diarization ? 'told apart' : 'not told apart'}</dd></div>
      </dl>
      {session.error && <p className="error session-error" role="alert">{session.error}</p>}
      {session.delete_refused && <p className="error" role="alert">The service refused to delete this session: {session.delete_refused}</p>}
      {error && <p className="error" role="alert">{error}</p>}
      {renaming && (
        <PromptDialog
          title="Rename session"
          label="Name"
          initial={session.filename}
          confirmLabel="Rename"
          hint={online ? undefined : 'Renamed here at once; the service gets the new name when it is reached again.'}
          check={(value) => SessionName.safeParse(value).error?.issues[0]?.message ?? null}
          onClose={() => setRenaming(false)}
          onSubmit={(filename) => void rename(filename)}
        />
      )}
      {asking && (
        <ConfirmDialog
          title="Delete this session?"
          message={`“${name}” and its ${documentCount} document${documentCount === 1 ? '' : 's'} are ${deletedWhere(online)}. This cannot be undone.`}
          confirmLabel="Delete session"
          danger
          onClose={() => setAsking(false)}
          onConfirm={() => void remove()}
        />
      )}
    </div>
  );
}
