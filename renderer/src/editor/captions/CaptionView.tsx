import { useMemo } from 'react';
import type { CaptionContent, CaptionViolation, FindMatch } from '../../../../common/transcript';
import { CueRow, type CueActions } from './CueRow';
import './captions.css';

export function CaptionView(props: {
  content: CaptionContent;
  currentCue: number;
  violations: CaptionViolation[];
  matches: FindMatch[];
  selectedMatch: FindMatch | null;
  actions: CueActions;
}) {
  const { content, currentCue, violations, matches, selectedMatch, actions } = props;
  const byCue = useMemo(() => {
    const m = new Map<string, CaptionViolation[]>();
    for (const v of violations) m.set(v.cue_id, [...(m.get(v.cue_id) ?? []), v]);
    return m;
  }, [violations]);
  const found = useMemo(() => new Set(matches.map((m) => m.item_id)), [matches]);
  return (
    <ol className="cues" aria-label="Captions">
      {content.cues.map((cue, i) => (
        <CueRow
          key={cue.id}
          cue={cue}
          index={i}
          prevEnd={i > 0 ? content.cues[i - 1].end_ms : null}
          nextStart={i < content.cues.length - 1 ? content.cues[i + 1].start_ms : null}
          current={i === currentCue}
          found={found.has(cue.id)}
          foundHere={selectedMatch?.item_id === cue.id}
          violations={byCue.get(cue.id) ?? null}
          actions={actions}
        />
      ))}
    </ol>
  );
}
