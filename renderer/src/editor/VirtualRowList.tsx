import type { ReactNode, Ref } from 'react';
import { useVirtualRows, type RowScroller } from './useVirtualRows';

/**
 * A long list of rows (segments, cues) with a screenful of them in the DOM (useVirtualRows). Each
 * drawn row carries its id (data-item) and its place in the whole list (aria-posinset/-setsize),
 * since the rows around it are not there.
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
    <ol className={`${className} virtual-rows`} aria-label={label} ref={v.listRef} style={{ height: v.totalSize }} {...v.focusProps}>
      {v.items.map((item) => (
        <li
          key={ids[item.index]}
          ref={v.measure}
          data-index={item.index}
          data-item={ids[item.index]}
          aria-posinset={item.index + 1}
          aria-setsize={ids.length}
          className={rowClass(item.index)}
          // top, not a transform: a transform gives every row a compositing node of its own, which each scrolled frame paid for.
          style={{ top: v.offset(item) }}
        >
          {row(item.index)}
        </li>
      ))}
    </ol>
  );
}
