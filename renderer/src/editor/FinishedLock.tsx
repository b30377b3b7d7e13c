import { useMemo, useState } from 'react';
import type { DocumentRecord } from '../../../common/ipc';
import { call } from '../lib/bridge';
import type { History } from './useHistory';

/**
 * A document marked finished is read-only until reopened. The lock sits on the history every
 * change goes through (edits, find's replace-all, caption fixes, undo and redo), so no control
 * can slip past it; the views hide or disable their editing controls as well.
 */
export function useFinishedLock<T>(history: History<T>, finished: boolean): History<T> {
  return useMemo(
    () => (finished ? { ...history, push: () => {}, undo: () => null, redo: () => null, undoLabel: null, redoLabel: null } : history),
    [history, finished],
  );
}

/** Says why nothing can be changed, with the way out. */
export function FinishedNotice({ record }: { record: DocumentRecord }) {
  const [error, setError] = useState<string | null>(null);
  const reopen = () => {
    setError(null);
    call('documents.mutate', { documentId: record.id, mutation: { op: 'finalize', finished: false } }).catch((e: Error) => setError(e.message));
  };
  return (
    <p className="notice" role="status">
      This document is marked finished, so it is read-only.{' '}
      <button type="button" className="link" onClick={reopen}>Reopen to edit</button>
      {error && <span className="error"> {error}</span>}
    </p>
  );
}
