import { defaultRangeExtractor, useVirtualizer, type Range, type VirtualItem } from '@tanstack/react-virtual';
import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useState, type Ref } from 'react';

/** What the editor can ask of a row list whose rows are mostly not in the DOM. */
export interface RowScroller {
  /**
   * Brings the row with this id into view (rendering it if it was not); false when there is no such
   * row. 'if-hidden': centred only when it is not wholly in view already, so nothing moves otherwise.
   */
  reveal(itemId: string, align?: 'center' | 'auto' | 'if-hidden'): boolean;
  /** The index of the first row wholly in view (its top not scrolled past; 0 before the list is laid out). */
  firstInView(): number;
}

/**
 * Rows to render beyond the visible ones, above and below, so a fast scroll shows text, not blanks:
 * four rows (some 300 px) are more than a frame of fast scrolling, and each row more is mounted on
 * every jump (find's first match, following playback) in the frame that shows it.
 */
const OVERSCAN = 4;

export interface VirtualRows {
  items: VirtualItem[];
  /** Room above the first row drawn in the flow: the rows before it, which are not in the DOM. */
  leading: number;
  /** A row kept for its focus away from the others (not beside any of them), placed on its own. */
  detached(index: number): boolean;
  /** The list element's ref: where the rows start inside the scroller, and whose height the virtualizer sets. */
  listRef: (el: HTMLElement | null) => void;
  /** Each rendered row's ref, so its real height replaces the estimate. */
  measure: (el: Element | null) => void;
  /** Focus handlers for the list: the row holding focus stays rendered while it is scrolled away. */
  focusProps: { onFocus: (e: React.FocusEvent) => void; onBlur: (e: React.FocusEvent) => void };
}

/**
 * A long row list (segments, cues) rendered a screenful at a time with TanStack Virtual inside the
 * editor's scrolling element: rows have varying heights, estimated from their text and measured once
 * drawn. The row being edited (holding focus) stays mounted, so scrolling never drops a draft.
 */
export function useVirtualRows(opts: {
  scroller: HTMLElement | null;
  ids: readonly string[];
  estimate: (index: number) => number;
  handle: Ref<RowScroller> | undefined;
}): VirtualRows {
  const { scroller, ids, estimate, handle } = opts;
  const [list, setList] = useState<HTMLElement | null>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const [pinnedId, setPinnedId] = useState<string | null>(null);
  const indexOf = useMemo(() => new Map(ids.map((id, i) => [id, i])), [ids]);
  const pinned = pinnedId === null ? -1 : (indexOf.get(pinnedId) ?? -1);

  // Whatever sits above the list in the scroller (the summary) moves where the rows start.
  useLayoutEffect(() => {
    if (!list || !scroller) return;
    const place = () => setScrollMargin(list.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop);
    place();
    const watch = new ResizeObserver(place);
    for (const el of Array.from(scroller.children)) if (el !== list && !el.contains(list)) watch.observe(el);
    return () => watch.disconnect();
  }, [list, scroller]);

  // Stable while the ids are: the virtualizer redoes every row's offset (from the first) whenever
  // its key function changes, which a new function on each scrolled frame's render made it do.
  const getItemKey = useCallback((i: number) => ids[i], [ids]);
  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scroller,
    estimateSize: estimate,
    getItemKey,
    overscan: OVERSCAN,
    gap: 2,
    scrollMargin,
    // The list's height is written to the DOM by the virtualizer, and the list re-renders only when
    // the range of rows changes: a re-render on every scroll event cost about 1 ms a frame. The rows
    // are in the flow below `leading` (the virtualizer's `top` applies only to a detached one).
    directDomUpdates: true,
    directDomUpdatesMode: 'position',
    // A focused element that is removed (an edit finished, a merge) fires no blur: on the next scroll,
    // a pinned row that no longer holds focus is let go.
    onChange: () => {
      if (pinnedId === null) return;
      const focused = document.activeElement?.closest<HTMLElement>('[data-item]');
      if (!focused || focused.dataset.item !== pinnedId || !list?.contains(focused)) setPinnedId(null);
    },
    // A new function when the pinned row changes, so the virtualizer works out its rows again.
    rangeExtractor: useCallback(
      (range: Range) => {
        const out = defaultRangeExtractor(range);
        if (pinned >= 0 && pinned < range.count && !out.includes(pinned)) {
          out.push(pinned);
          out.sort((a, b) => a - b);
        }
        return out;
      },
      [pinned],
    ),
  });

  const wholeInView = (i: number) => {
    const row = virtualizer.measurementsCache[i];
    const top = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    return !!row && row.start >= top && row.end <= top + height;
  };

  useImperativeHandle(
    handle,
    () => ({
      reveal(itemId, align = 'center') {
        const i = indexOf.get(itemId);
        if (i === undefined) return false;
        if (align !== 'if-hidden') virtualizer.scrollToIndex(i, { align });
        else if (!wholeInView(i)) virtualizer.scrollToIndex(i, { align: 'center' });
        return true;
      },
      firstInView: () => {
        const top = virtualizer.scrollOffset ?? 0;
        const row = virtualizer.getVirtualItemForOffset(top);
        if (!row) return 0;
        return row.start < top && row.index + 1 < ids.length ? row.index + 1 : row.index;
      },
    }),
    [indexOf, virtualizer],
  );

  // Focus landing anywhere outside the list unpins.
  useEffect(() => {
    if (!list) return;
    const onFocusIn = (e: FocusEvent) => {
      if (!(e.target instanceof Node) || !list.contains(e.target)) setPinnedId(null);
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, [list]);

  const items = virtualizer.getVirtualItems();
  const drawn = new Set(items.map((item) => item.index));
  const detached = (i: number) => i === pinned && !drawn.has(i - 1) && !drawn.has(i + 1) && items.length > 1;
  const first = items.find((item) => !detached(item.index));
  const rowId = (e: React.FocusEvent) => (e.target as HTMLElement).closest<HTMLElement>('[data-item]')?.dataset.item ?? null;
  return {
    items,
    leading: first ? first.start - scrollMargin : 0,
    detached,
    listRef: useCallback(
      (el: HTMLElement | null) => {
        setList(el);
        virtualizer.containerRef(el);
      },
      [virtualizer],
    ),
    measure: virtualizer.measureElement,
    focusProps: {
      onFocus: (e) => setPinnedId(rowId(e)),
      onBlur: (e) => {
        // Focus moving to another row is handled by its onFocus; leaving the list unpins.
        if (!(e.relatedTarget instanceof Node) || !e.currentTarget.contains(e.relatedTarget)) setPinnedId(null);
      },
    },
  };
}
