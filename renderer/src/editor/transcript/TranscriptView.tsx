import { memo, useCallback, useImperativeHandle, useMemo, useRef, type Ref } from 'react';
import type { FindMatch, Segment, TranscriptContent } from '../../../../common/transcript';
import type { RowScroller } from '../useVirtualRows';
import { VirtualRowList } from '../VirtualRowList';
import { nearestLowConfidence, useLowConfidenceKeys, useLowConfidenceThreshold } from './lowConfidence';
import { SegmentRow, type SegmentActions } from './SegmentRow';
import type { TranscriptPosition } from '../playback';
import './transcript.css';

/**
 * Words of a segment that lie inside a find match, from the matches' character offsets, worked out
 * when the segment's row is drawn and kept while the matches are (the same set each time, so a
 * memoized row does not redraw): a one-letter query matches thousands of times in 3 hours, and
 * walking every segment's words for the first key cost more than the search. A segment's words are
 * walked once for all its matches (findText gives them in order), not once a match.
 */
function foundWordsOf(matches: FindMatch[]): (seg: Segment) => ReadonlySet<number> | null {
  if (matches.length === 0) return () => null;
  const bySegment = new Map<string, FindMatch[]>();
  for (const m of matches) {
    const list = bySegment.get(m.item_id);
    if (list) list.push(m);
    else bySegment.set(m.item_id, [m]);
  }
  const sets = new Map<string, Set<number>>();
  return (seg) => {
    const found = bySegment.get(seg.id);
    if (!found) return null;
    let set = sets.get(seg.id);
    if (set) return set;
    set = new Set<number>();
    let k = 0;
    let at = 0;
    for (let i = 0; i < seg.words.length && k < found.length; i++) {
      const end = at + seg.words[i].text.length;
      // Matches that end before this word cannot reach a later one.
      while (k < found.length && found[k].offset + found[k].length <= at) k++;
      for (let j = k; j < found.length && found[j].offset < end; j++) {
        if (found[j].offset + found[j].length > at) {
          set.add(i);
          break;
        }
      }
      at = end + 1;
    }
    sets.set(seg.id, set);
    return set;
  };
}

/** A first guess at a row's height before it is drawn: the time and speaker column, or the text's lines at ~90 characters a line, plus the actions row. */
function estimateHeight(seg: Segment): number {
  let chars = 0;
  for (const w of seg.words) chars += w.text.length + 1;
  return 24 + Math.max(52, Math.ceil(chars / 90) * 26 + 26);
}

/**
 * The transcript's segments, rendered a screenful at a time (VirtualRowList): a 3-hour recording
 * has 1,500 segments and 27,000 words, which as one page made every keystroke a layout of all of them.
 */
export const TranscriptView = memo(function TranscriptView(props: {
  content: TranscriptContent;
  position: TranscriptPosition;
  cursor: { segmentId: string; word: number } | null;
  matches: FindMatch[];
  selectedMatch: FindMatch | null;
  actions: SegmentActions;
  scroller: HTMLElement | null;
  rows: Ref<RowScroller>;
  /** A finished document (FinishedLock): rows show no editing controls. */
  readOnly?: boolean;
}) {
  const { content, position, cursor, matches, selectedMatch, actions, scroller, rows, readOnly = false } = props;
  const segments = content.segments;
  // An edit makes new segments, and new matches with them (useFind), so the sets follow the words.
  const found = useMemo(() => foundWordsOf(matches), [matches]);
  const ids = useMemo(() => segments.map((s) => s.id), [segments]);
  // Worked out once per edit, not each time the virtualizer lays out the rows below a measured one.
  const heights = useMemo(() => segments.map(estimateHeight), [segments]);
  const estimate = useCallback((i: number) => heights[i], [heights]);
  // The list's scroller is the editor's (find, playback-follow) and this view's own (low-confidence jumps).
  const own = useRef<RowScroller>(null);
  useImperativeHandle(rows, () => ({ reveal: (id, align) => own.current?.reveal(id, align) ?? false, firstInView: () => own.current?.firstInView() ?? 0 }), []);

  // N / Shift+N: from the selected word (else the playing one), to the next word under the threshold,
  // scrolled to even when its row is not rendered, played from, and selected.
  const threshold = useLowConfidenceThreshold();
  useLowConfidenceKeys((dir) => {
    const from = cursor ? { segment: ids.indexOf(cursor.segmentId), word: cursor.word } : position;
    const to = nearestLowConfidence(content, from.segment < 0 ? { segment: -1, word: -1 } : from, dir, threshold);
    if (!to) return;
    const seg = segments[to.segment];
    actions.placeCursor(seg.id, to.word);
    own.current?.reveal(seg.id);
    actions.seek(seg.words[to.word].start_ms);
  });
  return (
    <VirtualRowList
      label="Transcript"
      className="segments"
      scroller={scroller}
      ids={ids}
      estimate={estimate}
      handle={own}
      rowClass={(i) => `segment${i === position.segment ? ' current' : ''}${selectedMatch?.item_id === segments[i].id ? ' found-here' : ''}`}
      row={(i) => (
        <SegmentRow
          segment={segments[i]}
          index={i}
          isLast={i === segments.length - 1}
          speakers={content.speakers}
          nowWord={i === position.segment ? position.word : -1}
          cursorWord={cursor?.segmentId === segments[i].id ? cursor.word : -1}
          foundWords={found(segments[i])}
          threshold={threshold}
          readOnly={readOnly}
          actions={actions}
        />
      )}
    />
  );
});
