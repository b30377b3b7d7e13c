import { useState } from 'react';
import { call } from '../lib/bridge';
import { ConfirmDialog } from '../ui/Dialog';

/**
 * Changes to this document that could not be sent (the service refused them, or they kept
 * failing): why, and the user's two ways out, sending them again or giving them up.
 */
export function UnsentNotice({ documentId, filename, reason, onDiscarded }: { documentId: string; filename: string; reason: string; onDiscarded: (gone: boolean) => void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <p className="notice warn" role="status">
      Your changes to this document could not be sent: {reason}. They are kept here.{' '}
      <button type="button" className="link" onClick={() => void call('sync.retryBlocked', { documentId: documentId }).catch(() => {})}>Send again</button>{' '}
      <button type="button" className="link" onClick={() => setConfirming(true)}>Discard my changes</button>
      {confirming && (
        <ConfirmDialog
          title="Discard your unsent changes?"
          message={`Your changes to “${filename}” that were not sent are dropped. The service's version comes back with the next sync; a document the service no longer has is removed here too.`}
          confirmLabel="Discard"
          danger
          onClose={() => setConfirming(false)}
          onConfirm={() => void call('documents.discardUnsent', { documentId: documentId }).then((r) => onDiscarded(r.documentId === null), () => {})}
        />
      )}
    </p>
  );
}
