import type { DocumentRecord } from '../../../common/ipc';
import { useConflictPairs, useOpenConflict } from './conflicts/context';
import { UnsentNotice } from './UnsentNotice';

/** Above the document: changes the service would not take, a conflict copy waiting for a decision, or a newer stored version. */
export function EditorNotices({ record, incoming, onAcceptIncoming, onDiscarded }: { record: DocumentRecord; incoming: boolean; onAcceptIncoming: () => void; onDiscarded: (gone: boolean) => void }) {
  return (
    <>
      {record.unsent_reason ? (
        <UnsentNotice documentId={record.id} filename={record.filename} reason={record.unsent_reason} onDiscarded={onDiscarded} />
      ) : (
        <ConflictNotice record={record} />
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

/** This document is a conflict copy, or has one: what happened, and the way to decide. */
function ConflictNotice({ record }: { record: DocumentRecord }) {
  const pairs = useConflictPairs(record.session_id);
  const open = useOpenConflict();
  const asCopy = pairs.find((p) => p.copyId === record.id);
  const asOriginal = pairs.find((p) => p.originalId === record.id);
  const compare = (documentId: string) =>
    open && (
      <>
        {' '}
        <button type="button" className="link" onClick={() => open(documentId)}>Compare side by side and resolve</button>
      </>
    );
  if (asCopy) {
    return (
      <p className="notice warn" role="status">
        This is a conflict copy of “{asCopy.originalFilename}”: your version, kept aside because the same places were changed elsewhere while you edited.
        {compare(asCopy.copyId)}
      </p>
    );
  }
  if (asOriginal) {
    return (
      <p className="notice warn" role="status">
        This document was changed elsewhere while you edited it. Where both changed the same place, the other version is here and yours is in “{asOriginal.copyFilename}”.
        {compare(asOriginal.copyId)}
      </p>
    );
  }
  if (record.local_state !== 'conflict') return null;
  return (
    <p className="notice warn" role="status">
      The service changed this document while you edited it. Where you both changed the same place, the service's version is here and yours is kept as a conflict copy beside it.
    </p>
  );
}
