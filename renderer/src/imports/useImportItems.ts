import { useCallback, useEffect, useState } from 'react';
import type { ImportItem, ImportState } from '../../../common/ipc';
import { call, subscribe } from '../lib/bridge';

export const ACTIVE: readonly ImportState[] = ['queued', 'uploading', 'transcribing'];
export const isActive = (i: ImportItem) => ACTIVE.includes(i.state);

/** The upload queue, newest first, kept live by imports.progress (each event carries the whole item). */
export function useImportItems(): { items: ImportItem[]; total: number; error: string | null; reload: () => void; put: (item: ImportItem) => void } {
  const [items, setItems] = useState<ImportItem[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(() => {
    call('imports.list', { limit: 500 }).then(
      (r) => {
        setItems(r.items.slice().sort((a, b) => b.itemId - a.itemId));
        setTotal(r.total);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  }, []);

  const put = useCallback((item: ImportItem) => {
    setItems((now) => {
      const at = now.findIndex((i) => i.itemId === item.itemId);
      if (at >= 0) return now.map((i) => (i.itemId === item.itemId ? item : i));
      return [item, ...now].sort((a, b) => b.itemId - a.itemId);
    });
  }, []);

  useEffect(() => {
    reload();
    return subscribe('imports.progress', put);
  }, [reload, put]);

  return { items, total, error, reload, put };
}
