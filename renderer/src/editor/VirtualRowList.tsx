import type { ReactNode, Ref } from 'react';
import { useVirtualRows, type RowScroller } from './useVirtualRows';

/**
 * A long list of rows (segments, cues) with a screenful of them in the DOM (useVirtualRows). Each
 * drawn row carries its id (data-item) and its place in the whole list (aria-posinset/-setsize),
 * since the rows around it are not there. The rows sit in the flow below room for those before
 * them, not each placed on its own: an absolutely placed row is a paint layer of its own, and every
 * scrolled frame painted, pre-painted and layerized each of them.
 */
export function VirtualRowList(props: {
  label: string;
  className: string;
  scroller: HTMLElement | null;
  ids: readonly string[];
  estimate: (index: number) => number;
  handle: Ref<RowScroller>;
  rowClass: (index: number) => string;
  row: (index: number) => ReactNode;
}) {
  const { label, className, scroller, ids, estimate, handle, rowClass, row } = props;
  const v = useVirtualRows({ scroller, ids, estimate, handle });
  return (
    <ol className={`${className} virtual-rows`} aria-label={label} ref={v.listRef} style={{ paddingTop: v.leading }} {...v.focusProps}>
      {v.items.map((item) => (
        <li
          key={ids[item.index]}
          ref={v.measure}
          data-index={item.index}
          data-item={ids[item.index]}
          aria-posinset={item.index + 1}
          aria-setsize={ids.length}
          className={`${rowClass(item.index)}${v.detached(item.index) ? ' detached' : ''}`}
        >
          {row(item.index)}
        </li>
      ))}
    </ol>
  );
}
