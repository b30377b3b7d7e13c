import { useCallback, useState } from 'react';
import { EditError, type DocumentContent } from '../../../common/transcript';
import type { History } from './useHistory';

export interface Status {
  text: string;
  error: boolean;
}

export type Edit = (label: string, fn: (c: DocumentContent) => DocumentContent, refusal?: string) => void;

/**
 * The editor's one way to change a document: apply a pure common/transcript operation to the
 * newest content and push it onto the undo history. `say` shows the outcome in the toolbar;
 * `refusal` explains an EditError in plain words.
 */
export function useEdit(history: History<DocumentContent>): { edit: Edit; status: Status | null; say: (text: string, error?: boolean) => void } {
  const { latest, push } = history;
  const [status, setStatus] = useState<Status | null>(null);
  const say = useCallback((text: string, error = false) => setStatus({ text, error }), []);
  const edit = useCallback<Edit>(
    (label, fn, refusal) => {
      const current = latest();
      if (!current) return;
      try {
        const next = fn(current);
        if (next === current) return;
        push(next, label);
        setStatus(null);
      } catch (e) {
        say(e instanceof EditError && refusal ? refusal : (e as Error).message, true);
      }
    },
    [latest, push, say],
  );
  return { edit, status, say };
}
