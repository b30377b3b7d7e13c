import { useCallback, useEffect, useRef, useState } from 'react';
import type { DocumentRecord } from '../../../common/ipc';
import type { DocumentContent } from '../../../common/transcript';
import { call } from '../lib/bridge';
import { useCacheChanged } from '../lib/useChannel';
import { sameValue } from '../lib/sameValue';
import { useHistory, type History } from './useHistory';

export interface EditableDocument {
  /** undefined while loading, null when the cache does not hold it. */
  record: DocumentRecord | null | undefined;
  loadError: string | null;
  history: History<DocumentContent>;
  /** A newer version stored elsewhere (a sync, another window) while this one has unsaved edits. */
  incoming: DocumentContent | null;
  acceptIncoming(): void;
  /** Reads the stored document again and starts over from it, dropping unsaved edits. */
  reloadDroppingEdits(): Promise<void>;
  /** Saves the newest content (committing a draft being typed first); false when nothing could be saved. */
  save(): Promise<boolean>;
  /** The row being typed in registers how to commit its draft. */
  registerDraft(flush: (() => void) | null): void;
  /** After a delete: never save this document again, not even when the editor closes. */
  discard(): void;
}

/**
 * A document loaded from the cache for editing: undo history, saving, and what to do when the
 * stored copy changes underneath (take it when there is nothing unsaved, else offer it).
 * Leaving the editor with unsaved edits saves them, so switching tabs or sessions loses nothing.
 */
export function useEditableDocument(documentId: string): EditableDocument {
  const history = useHistory<DocumentContent>();
  const { reset, saved, latest, markSaved } = history;
  const [record, setRecord] = useState<DocumentRecord | null | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [incoming, setIncoming] = useState<DocumentContent | null>(null);
  const draft = useRef<(() => void) | null>(null);
  const discarded = useRef(false);

  const load = useCallback(
    async (mode: 'open' | 'changed') => {
      try {
        const doc = await call('documents.get', { documentId });
        setRecord(doc);
        const content = doc?.body?.content;
        if (!content) return;
        const base = saved();
        if (mode === 'open' || base === null) return reset(content);
        if (sameValue(content, base)) return;
        if (latest() === base) reset(content);
        else setIncoming(content);
      } catch (e) {
        setLoadError((e as Error).message);
      }
    },
    [documentId, reset, saved, latest],
  );

  useEffect(() => void load('open'), [load]);
  useCacheChanged(() => void load('changed'), (c) => c.documents?.includes(documentId) ?? false);

  const save = useCallback(async () => {
    draft.current?.();
    const content = latest();
    if (!content || content === saved() || discarded.current) return true;
    const rec = await call('documents.save', { documentId, content });
    markSaved(content);
    setRecord(rec);
    return true;
  }, [documentId, latest, saved, markSaved]);

  // Closing the page with unsaved edits: let the browser ask (nothing async can run then).
  const { dirty } = history;
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Leaving the editor (another tab, another session) keeps the edits.
  useEffect(
    () => () => {
      draft.current?.();
      const content = latest();
      if (content && content !== saved() && !discarded.current) void call('documents.save', { documentId, content }).catch(() => {});
    },
    [documentId, latest, saved],
  );

  return {
    record,
    loadError,
    history,
    incoming,
    acceptIncoming: useCallback(() => {
      if (incoming) reset(incoming);
      setIncoming(null);
    }, [incoming, reset]),
    reloadDroppingEdits: useCallback(async () => {
      setIncoming(null);
      await load('open');
    }, [load]),
    save,
    registerDraft: useCallback((flush: (() => void) | null) => void (draft.current = flush), []),
    discard: useCallback(() => void (discarded.current = true), []),
  };
}
