import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { SessionListView } from '../../../common/ipc';
import { BulkBar } from './BulkBar';
import { ListToolbar } from './ListToolbar';
import { SessionRow, ROW_HEIGHT } from './SessionRow';
import { useLiveProgress } from './StatusBadge';
import { useListView } from './useListView';
import { useSessionPages } from './useSessionPages';
import './sessions.css';
import './session-list.css';

const queryOf = (v: SessionListView) => ({
  q: v.q.trim() || undefined,
  sort: v.sort,
  direction: v.direction,
  status: v.status.length ? v.status : undefined,
  language: v.language ?? undefined,
  mode: v.mode ?? undefined,
});

/**
 * The session list: searched, sorted and filtered in SQLite, drawn virtualized (only the rows in
 * view exist), its view remembered. Click opens a session; Ctrl/Cmd-click and Shift-click select
 * several for the bulk bar.
 */
export function SessionList({ selected, onSelect }: { selected: string | null; onSelect: (id: string) => void }) {
  const { view, ready, update } = useListView();
  const [q, setQ] = useState(view.q);
  const query = useMemo(() => queryOf(view), [view]);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const anchor = useRef<number | null>(null);
  const live = useLiveProgress();

  // The saved view arrives after the first render: take its search text too.
  useEffect(() => setQ(view.q), [ready]);
  useEffect(() => {
    const t = setTimeout(() => q !== view.q && update({ q }), 200);
    return () => clearTimeout(t);
  }, [q]);

  const pages = useSessionPages(ready ? query : null);
  const scroller = useRef<HTMLDivElement>(null);
  const total = pages.total ?? 0;
  const virtual = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const items = virtual.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => pages.ensure(first, last), [first, last, pages.ensure]);

  // A new query starts at the top.
  useEffect(() => virtual.scrollToOffset(0), [JSON.stringify(query)]);

  // Stable for the memoized rows; what they need of the moment is read through refs.
  const latest = useRef({ idsBetween: pages.idsBetween, onSelect });
  latest.current = { idsBetween: pages.idsBetween, onSelect };
  const click = useCallback(async (e: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; preventDefault(): void }, index: number, id: string) => {
    if (e.shiftKey && anchor.current !== null) {
      e.preventDefault();
      const ids = await latest.current.idsBetween(Math.min(anchor.current, index), Math.max(anchor.current, index));
      setPicked((p) => new Set([...(e.ctrlKey || e.metaKey ? p : []), ...ids]));
      return;
    }
    anchor.current = index;
    if (e.ctrlKey || e.metaKey) {
      setPicked((p) => {
        const next = new Set(p);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
      return;
    }
    setPicked(new Set());
    latest.current.onSelect(id);
  }, []);
  const onRowClick = useCallback((e: MouseEvent, index: number, id: string) => void click(e, index, id), [click]);
  const onTogglePick = useCallback((index: number, id: string) => void click({ ctrlKey: true, metaKey: false, shiftKey: false, preventDefault() {} }, index, id), [click]);

  async function selectAll(on: boolean) {
    setPicked(on && total ? new Set(await pages.idsBetween(0, total - 1)) : new Set());
  }

  const filtered = !!(query.q || query.status || query.language || query.mode);
  return (
    <div className="sessions">
      <ListToolbar view={{ ...view, q }} onSearch={setQ} onChange={update} />
      <div className="list-head">
        {/* Selecting all of nothing is no choice: the box shows once there is a session. */}
        {total > 0 && (
          <label className="check select-all">
            <input
              type="checkbox"
              aria-label="Select all sessions"
              checked={picked.size === total}
              ref={(el) => {
                if (el) el.indeterminate = picked.size > 0 && picked.size < total;
              }}
              onChange={(e) => void selectAll(e.target.checked)}
            />
          </label>
        )}
        <span className="count muted" role="status">{pages.total === null ? '' : `${total.toLocaleString()} session${total === 1 ? '' : 's'}`}</span>
      </div>
      {picked.size > 0 && <BulkBar ids={[...picked]} onDone={() => setPicked(new Set())} />}
      {pages.error && <p className="error" role="alert">{pages.error}</p>}
      {/* Under the count, where the eye is, not below the list's empty space. */}
      {pages.total === 0 && <p className="muted empty-list">{filtered ? 'No session matches.' : 'No sessions yet. Choose New transcription, or drop recordings anywhere on this window.'}</p>}
      <div ref={scroller} className="session-scroller" role="list" aria-label="Sessions">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {items.map((v) => {
            const s = pages.row(v.index);
            return (
              <div key={v.key} className="session-slot" style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}>
                {s ? (
                  <SessionRow session={s} index={v.index} open={selected === s.session_id} picked={picked.has(s.session_id)} live={live.get(s.session_id)} onClick={onRowClick} onTogglePick={onTogglePick} />
                ) : (
                  <div className="session placeholder" aria-hidden="true" />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
