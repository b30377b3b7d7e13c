import { memo, useCallback, useMemo, type Ref } from 'react';
import type { CaptionContent, CaptionViolation, Cue, FindMatch } from '../../../../common/transcript';
import type { RowScroller } from '../useVirtualRows';
import { VirtualRowList } from '../VirtualRowList';
import { CueRow, type CueActions } from './CueRow';
import { RebuildNotice } from './RebuildNotice';
import './captions.css';

/** A first guess at a cue row's height before it is drawn: its text lines or the times and actions column, whichever is taller. */
function estimateHeight(cue: Cue, problems: number): number {
  return 16 + Math.max(62, cue.lines.length * 21 + 12 + (problems ? 24 : 0));
}

/** The captions' cues, rendered a screenful at a time (VirtualRowList): a 3-hour recording has some 2,700. */
export const CaptionView = memo(function CaptionView(props: {
  content: CaptionContent;
  currentCue: number;
  violations: CaptionViolation[];
  matches: FindMatch[];
  selectedMatch: FindMatch | null;
  actions: CueActions;
  scroller: HTMLElement | null;
  rows: Ref<RowScroller>;
  /** A finished document (FinishedLock): rows show no editing controls. */
  readOnly?: boolean;
}) {
  const { content, currentCue, violations, matches, selectedMatch, actions, scroller, rows, readOnly = false } = props;
  const cues = content.cues;
  const speakerNames = new Map(content.speakers.map((s) => [s.id, s.name]));
  const byCue = useMemo(() => {
    const m = new Map<string, CaptionViolation[]>();
    for (const v of violations) m.set(v.cue_id, [...(m.get(v.cue_id) ?? []), v]);
    return m;
  }, [violations]);
  const found = useMemo(() => new Set(matches.map((m) => m.item_id)), [matches]);
  const ids = useMemo(() => cues.map((q) => q.id), [cues]);
  // Worked out once per edit, not each time the virtualizer lays out the rows below a measured one.
  const heights = useMemo(() => cues.map((q) => estimateHeight(q, byCue.get(q.id)?.length ?? 0)), [cues, byCue]);
  const estimate = useCallback((i: number) => heights[i], [heights]);
  return (
    <>
      <RebuildNotice content={content} />
      <VirtualRowList
        label="Captions"
        className="cues"
        scroller={scroller}
        ids={ids}
        estimate={estimate}
        handle={rows}
        rowClass={(i) => `cue${i === currentCue ? ' current' : ''}${found.has(cues[i].id) ? ' found' : ''}${selectedMatch?.item_id === cues[i].id ? ' found-here' : ''}`}
        row={(i) => (
          <CueRow
            cue={cues[i]}
            index={i}
            prevEnd={i > 0 ? cues[i - 1].end_ms : null}
            nextStart={i < cues.length - 1 ? cues[i + 1].start_ms : null}
            violations={byCue.get(cues[i].id) ?? null}
            speaker={speakerNames.get(cues[i].speaker_id ?? '')}
            readOnly={readOnly}
            actions={actions}
          />
        )}
      />
    </>
  );
});
