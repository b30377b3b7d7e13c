import { memo, useCallback, useMemo, type Ref } from 'react';
import type { CaptionContent, CaptionViolation, Cue, FindMatch } from '../../../../common/transcript';
import { useVirtualRows, type RowScroller } from '../useVirtualRows';
import { CueRow, type CueActions } from './CueRow';
import { RebuildNotice } from './RebuildNotice';
import './captions.css';

/** A first guess at a cue row's height before it is drawn: its text lines or the times and actions column, whichever is taller. */
function estimateHeight(cue: Cue, problems: number): number {
  return 16 + Math.max(62, cue.lines.length * 21 + 12 + (problems ? 24 : 0));
}

/** The captions' cues, rendered a screenful at a time (useVirtualRows): a 3-hour recording has some 2,700. */
export const CaptionView = memo(function CaptionView(props: {
  content: CaptionContent;
  currentCue: number;
  violations: CaptionViolation[];
  matches: FindMatch[];
  selectedMatch: FindMatch | null;
  actions: CueActions;
  scroller: HTMLElement | null;
  rows: Ref<RowScroller>;
}) {
  const { content, currentCue, violations, matches, selectedMatch, actions, scroller, rows } = props;
  const cues = content.cues;
  const byCue = useMemo(() => {
    const m = new Map<string, CaptionViolation[]>();
    for (const v of violations) m.set(v.cue_id, [...(m.get(v.cue_id) ?? []), v]);
    return m;
  }, [violations]);
  const found = useMemo(() => new Set(matches.map((m) => m.item_id)), [matches]);
  const ids = useMemo(() => cues.map((q) => q.id), [cues]);
  const estimate = useCallback((i: number) => estimateHeight(cues[i], byCue.get(cues[i].id)?.length ?? 0), [cues, byCue]);
  const v = useVirtualRows({ scroller, ids, estimate, handle: rows });
  return (
    <>
    <RebuildNotice content={content} />
    <ol className="cues virtual-rows" aria-label="Captions" ref={v.listRef} style={{ height: v.totalSize }} {...v.focusProps}>
      {v.items.map((item) => {
        const i = item.index;
        const cue = cues[i];
        return (
          <li
            key={cue.id}
            ref={v.measure}
            data-index={i}
            data-item={cue.id}
            aria-posinset={i + 1}
            aria-setsize={cues.length}
            className={`cue${i === currentCue ? ' current' : ''}${found.has(cue.id) ? ' found' : ''}${selectedMatch?.item_id === cue.id ? ' found-here' : ''}`}
            style={{ transform: `translateY(${v.offset(item)}px)` }}
          >
            <CueRow
              cue={cue}
              index={i}
              prevEnd={i > 0 ? cues[i - 1].end_ms : null}
              nextStart={i < cues.length - 1 ? cues[i + 1].start_ms : null}
              violations={byCue.get(cue.id) ?? null}
              actions={actions}
            />
          </li>
        );
      })}
    </ol>
    </>
  );
});
