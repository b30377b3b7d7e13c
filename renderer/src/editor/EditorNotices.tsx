import type { DocumentRecord } from '../../../common/ipc';
import { UnsentNotice } from './UnsentNotice';

/** Above the document: changes the service would not take, a conflict that was merged, or a newer stored version. */
export function EditorNotices({ record, incoming, onAcceptIncoming, onDiscarded }: { record: DocumentRecord; incoming: boolean; onAcceptIncoming: () => void; onDiscarded: (gone: boolean) => void }) {
  return (
    <>
      {record.unsent_reason ? (
        <UnsentNotice documentId={record.id} filename={record.filename} reason={record.unsent_reason} onDiscarded={onDiscarded} />
      ) : (
        record.local_state === 'conflict' && (
          <p className="notice warn" role="status">
            The service changed this document while you edited it. Where you both changed the same place, your version is here and the other is kept as a conflict copy beside it.
          </p>
        )
      )}
      {incoming && (
        <p className="notice" role="status">
          A newer version of this document arrived (from a sync or another window).{' '}
          <button type="button" className="link" onClick={onAcceptIncoming}>Show it and drop my unsaved edits</button>
        </p>
      )}
    </>
  );
}
