import { useMemo } from 'react';
import type { FindMatch, TranscriptContent } from '../../../../common/transcript';
import { SegmentRow, type SegmentActions } from './SegmentRow';
import type { TranscriptPosition } from '../playback';
import './transcript.css';

/** Words of each segment that lie inside a find match, from the matches' character offsets. */
function wordsInMatches(t: TranscriptContent, matches: FindMatch[]): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  if (matches.length === 0) return out;
  const byId = new Map(t.segments.map((s) => [s.id, s]));
  for (const m of matches) {
    const seg = byId.get(m.item_id);
    if (!seg) continue;
    const set = out.get(seg.id) ?? new Set<number>();
    let at = 0;
    seg.words.forEach((w, i) => {
      const end = at + w.text.length;
      if (at < m.offset + m.length && end > m.offset) set.add(i);
      at = end + 1;
    });
    out.set(seg.id, set);
  }
  return out;
}

export function TranscriptView(props: {
  content: TranscriptContent;
  position: TranscriptPosition;
  cursor: { segmentId: string; word: number } | null;
  matches: FindMatch[];
  selectedMatch: FindMatch | null;
  actions: SegmentActions;
}) {
  const { content, position, cursor, matches, selectedMatch, actions } = props;
  const found = useMemo(() => wordsInMatches(content, matches), [content, matches]);
  return (
    <ol className="segments" aria-label="Transcript">
      {content.segments.map((seg, i) => (
        <SegmentRow
          key={seg.id}
          segment={seg}
          index={i}
          isLast={i === content.segments.length - 1}
          speakers={content.speakers}
          current={i === position.segment}
          nowWord={i === position.segment ? position.word : -1}
          cursorWord={cursor?.segmentId === seg.id ? cursor.word : -1}
          foundWords={found.get(seg.id) ?? null}
          foundHere={selectedMatch?.item_id === seg.id}
          actions={actions}
        />
      ))}
    </ol>
  );
}
