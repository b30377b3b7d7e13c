import { useEffect, useRef, useState } from 'react';
import type { SessionListView } from '../../../common/ipc';
import { call } from '../lib/bridge';

const DEFAULT_VIEW: SessionListView = { q: '', sort: 'date', direction: 'desc', status: [], language: null, mode: null };

/**
 * The list's search, sort and filters, remembered per account in main's cache (so they survive a
 * restart in Electron and in browser mode alike, whose address changes every start).
 */
export function useListView(): { view: SessionListView; ready: boolean; update: (patch: Partial<SessionListView>) => void } {
  const [view, setView] = useState<SessionListView>(DEFAULT_VIEW);
  const [ready, setReady] = useState(false);
  const current = useRef(DEFAULT_VIEW);
  const touched = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    call('sessions.view', {}).then(
      (v) => {
        if (!touched.current) setView((current.current = v));
        setReady(true);
      },
      () => setReady(true),
    );
  }, []);

  const update = (patch: Partial<SessionListView>) => {
    touched.current = true;
    const next = { ...current.current, ...patch };
    current.current = next;
    setView(next);
    // A choice is saved at once; typing a search is saved a moment after the last key, so it writes once.
    clearTimeout(timer.current);
    const save = () => void call('sessions.setView', next).catch((e: Error) => console.warn('The list view was not saved:', e.message));
    if (Object.keys(patch).every((k) => k === 'q')) timer.current = setTimeout(save, 300);
    else save();
  };
  return { view, ready, update };
}
