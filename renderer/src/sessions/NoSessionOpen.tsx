import { requestNewTranscription } from '../imports/requests';
import { useChannel } from '../lib/useChannel';

/**
 * The content pane when no session is open. With no sessions at all, "choose a session" would
 * point at nothing: it says how to make the first one instead.
 */
export function NoSessionOpen({ note = null, listShown, onShowList }: { note?: string | null; listShown: boolean; onShowList: () => void }) {
  const any = useChannel('sessions.list', { offset: 0, limit: 1 }, (c) => !!c.sessions?.length || !c.documents);
  if (any.value?.total === 0)
    return (
      <div className="empty">
        {note && <span role="status">{note} </span>}
        No sessions yet.{' '}
        <button className="link" onClick={() => requestNewTranscription()}>
          New transcription
        </button>{' '}
        makes one from a recording; you can also drop recordings anywhere on this window.
      </div>
    );
  return (
    <div className="empty">
      {note && (
        <>
          <span role="status">{note}</span>{' '}
        </>
      )}
      Choose a session to open its transcript and captions.
      {/* The list is put away in a narrow window: say where it is. */}
      {!listShown && (
        <>
          {' '}
          <button className="link" onClick={onShowList}>
            Open the session list
          </button>
        </>
      )}
    </div>
  );
}
