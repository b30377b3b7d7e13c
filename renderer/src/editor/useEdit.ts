import { useCallback, useState } from 'react';
import { EditError, type DocumentContent } from '../../../common/transcript';
import type { History } from './useHistory';

/**
 * What a notice waits for, so it changes when that happens instead of staying true only until
 * then: the edits saved here reaching the service, or a requested summary arriving (`before` is
 * the summary shown when it was asked for, so a second request waits for the new one).
 */
export type Settles = { kind: 'sent' } | { kind: 'summary'; before: string | undefined };

export interface Status {
  text: string;
  error: boolean;
  until?: Settles;
}

export type Say = (text: string, error?: boolean, until?: Settles) => void;

export type Edit = (label: string, fn: (c: DocumentContent) => DocumentContent, refusal?: string) => void;

/**
 * The editor's one way to change a document: apply a pure common/transcript operation to the
 * newest content and push it onto the undo history. `say` shows the outcome in the toolbar;
 * `refusal` explains an EditError in plain words.
 */
export function useEdit(history: History<DocumentContent>): { edit: Edit; status: Status | null; say: Say } {
  const { latest, push } = history;
  const [status, setStatus] = useState<Status | null>(null);
  const say = useCallback<Say>((text, error = false, until) => setStatus({ text, error, ...(until ? { until } : {}) }), []);
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
