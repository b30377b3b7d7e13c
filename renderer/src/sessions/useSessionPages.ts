import { useCallback, useEffect, useRef, useState } from 'react';
import type { SessionListQuery, SessionSummary } from '../../../common/ipc';
import { call } from '../lib/bridge';
import { useCacheChanged } from '../lib/useChannel';

export const PAGE = 100;
type Query = Omit<SessionListQuery, 'offset' | 'limit'>;

/**
 * The rows of a virtualized list, read a page at a time as they come into view. A change to the
 * query starts over; a change to the cache reads the pages in view again, keeping the old rows on
 * screen until the new ones arrive (no flash of empty rows).
 */
export function useSessionPages(query: Query | null) {
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [, setVersion] = useState(0);
  const pages = useRef(new Map<number, SessionSummary[]>());
  const loading = useRef(new Set<number>());
  const generation = useRef(0);
  const visible = useRef<[number, number]>([0, 0]);
  const key = query ? JSON.stringify(query) : null;

  const load = useCallback(
    (page: number, gen: number) => {
      if (!key || loading.current.has(page)) return;
      loading.current.add(page);
      call('sessions.list', { ...(JSON.parse(key) as Query), offset: page * PAGE, limit: PAGE }).then(
        (r) => {
          loading.current.delete(page);
          if (gen !== generation.current) return;
          pages.current.set(page, r.items);
          setTotal(r.total);
          setError(null);
          setVersion((v) => v + 1);
        },
        (e: Error) => {
          loading.current.delete(page);
          if (gen === generation.current) setError(e.message);
        },
      );
    },
    [key],
  );

  const refresh = useCallback(
    (keepRows: boolean) => {
      const gen = ++generation.current;
      loading.current.clear();
      const [first, last] = visible.current;
      const keep = keepRows ? new Map([...pages.current].filter(([p]) => p >= first && p <= last)) : new Map();
      pages.current = keep;
      for (let p = first; p <= Math.max(first, last); p++) load(p, gen);
    },
    [load],
  );

  useEffect(() => {
    visible.current = [0, 0];
    setTotal(null);
    refresh(false);
  }, [refresh]);

  useCacheChanged(() => refresh(true), (c) => !!c.sessions?.length || !c.documents);

  /** The rows the list shows now: loads their pages when missing. */
  const ensure = useCallback(
    (from: number, to: number) => {
      const first = Math.floor(from / PAGE);
      const last = Math.floor(Math.max(from, to) / PAGE);
      visible.current = [first, last];
      for (let p = first; p <= last; p++) if (!pages.current.has(p)) load(p, generation.current);
    },
    [load],
  );

  const row = (index: number): SessionSummary | undefined => pages.current.get(Math.floor(index / PAGE))?.[index % PAGE];

  /** The ids of rows from..to (inclusive), reading what is not loaded (for Shift-click and select all). */
  const idsBetween = useCallback(
    async (from: number, to: number): Promise<string[]> => {
      if (!key) return [];
      const ids: string[] = [];
      for (let offset = from; offset <= to; offset += 500) {
        const r = await call('sessions.list', { ...(JSON.parse(key) as Query), offset, limit: Math.min(500, to - offset + 1) });
        ids.push(...r.items.map((s) => s.session_id));
      }
      return ids;
    },
    [key],
  );

  return { total, error, row, ensure, idsBetween };
}
