import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { segmentText, type Segment, type Speaker } from '../../../../common/transcript';
import { commandKey } from '../../lib/keys';
import { clock } from '../../lib/format';
import { SegmentWords } from './SegmentWords';
import { SpeakerPicker } from './SpeakerPicker';

/** What a segment row can ask of the editor; one stable object, so rows re-render only when their own data changes. */
export interface SegmentActions {
  seek(ms: number, play?: boolean): void;
  /** The word a split would happen before (the "cursor" when not typing). */
  placeCursor(segmentId: string, word: number): void;
  setText(segmentId: string, text: string): void;
  /** Split before word `atWord`, after taking `text` as the segment's text when given. */
  split(segmentId: string, atWord: number, text?: string): void;
  mergeWithNext(segmentId: string): void;
  assignSpeaker(segmentId: string, speakerId: string | null): void;
  /** The row being typed in hands over how to commit its draft (for Ctrl+S), or null when done. */
  registerDraft(flush: (() => void) | null): void;
}

interface Props {
  segment: Segment;
  index: number;
  isLast: boolean;
  speakers: Speaker[];
  /** The playing word, or -1. */
  nowWord: number;
  /** The word clicked last in this row, or -1. */
  cursorWord: number;
  /** Words inside find matches (null: none). */
  foundWords: ReadonlySet<number> | null;
  /** Words recognised with less confidence than this are marked (the setting). */
  threshold: number;
  /** A finished document: words still play and select, nothing edits. */
  readOnly: boolean;
  actions: SegmentActions;
}

/** How many whole words lie before the caret; a caret inside a word counts that word as after it. */
function wordsBefore(text: string, caret: number): number {
  const head = text.slice(0, caret);
  const count = head.split(/\s+/u).filter(Boolean).length;
  const insideWord = /\S$/u.test(head) && /^\S/u.test(text.slice(caret));
  return count - (insideWord ? 1 : 0);
}

/**
 * One transcript segment's contents (the list item around it is the virtualized list's): its time,
 * speaker, words lit in step with playback, and its edits. Memoized: typing, playback and find
 * re-render only the rows whose own props change.
 */
export const SegmentRow = memo(function SegmentRow({ segment, index, isLast, speakers, nowWord, cursorWord, foundWords, threshold, readOnly, actions }: Props) {
  const [editing, setEditing] = useState<{ caret: number } | null>(null);
  const n = index + 1;
  const splitWord = cursorWord > 0 ? segment.words[cursorWord]?.text : undefined;

  return (
    <>
      <div className="seg-meta">
        <button type="button" className="time" aria-label={`Play from ${clock(segment.start_ms)}`} onClick={() => actions.seek(segment.start_ms, true)}>
          {clock(segment.start_ms)}
        </button>
        {speakers.length > 0 && (
          <SpeakerPicker n={n} speakerId={segment.speaker_id ?? null} speakers={speakers} disabled={readOnly} onPick={(id) => actions.assignSpeaker(segment.id, id)} />
        )}
      </div>
      <div className="seg-body">
        {editing ? (
          <SegmentTextEditor segment={segment} caret={editing.caret} actions={actions} onDone={() => setEditing(null)} />
        ) : (
          <SegmentWords
            segment={segment}
            nowWord={nowWord}
            cursorWord={cursorWord}
            foundWords={foundWords}
            threshold={threshold}
            readOnly={readOnly}
            onWord={(i) => {
              actions.seek(segment.words[i].start_ms);
              actions.placeCursor(segment.id, i);
            }}
            onEdit={(caret) => setEditing({ caret })}
          />
        )}
        {!editing && !readOnly && (
          <div className="row-actions">
            <button type="button" onClick={() => setEditing({ caret: segmentText(segment).length })} aria-label={`Edit text of segment ${n}`}>Edit</button>
            {splitWord !== undefined && (
              <button type="button" onClick={() => actions.split(segment.id, cursorWord)}>Split before “{splitWord}”</button>
            )}
            {!isLast && <button type="button" onClick={() => actions.mergeWithNext(segment.id)}>Merge with next</button>}
          </div>
        )}
      </div>
    </>
  );
});

/**
 * The segment's text in a textarea. Enter or leaving the field keeps the edit (word timings are
 * re-aligned by replaceSegmentText), Escape drops it, Shift+Enter splits at the caret.
 */
function SegmentTextEditor({ segment, caret, actions, onDone }: { segment: Segment; caret: number; actions: SegmentActions; onDone: () => void }) {
  const original = segmentText(segment);
  const [draft, setDraft] = useState(original);
  const box = useRef<HTMLTextAreaElement>(null);
  const finished = useRef(false);
  const draftRef = useRef(draft);
  draftRef.current = draft;

  useLayoutEffect(() => {
    box.current?.focus();
    box.current?.setSelectionRange(caret, caret);
  }, [caret]);

  // While typing, Ctrl+S must save this draft too: hand the editor a way to commit it.
  useEffect(() => {
    actions.registerDraft(() => {
      if (draftRef.current !== segmentText(segment)) actions.setText(segment.id, draftRef.current);
    });
    return () => actions.registerDraft(null);
  }, [actions, segment]);

  const finish = (keep: boolean) => {
    if (finished.current) return;
    finished.current = true;
    if (keep && draftRef.current !== original) actions.setText(segment.id, draftRef.current);
    onDone();
  };

  return (
    <>
      <textarea
        ref={box}
        className="seg-text"
        aria-label="Segment text"
        aria-describedby={`hint-${segment.id}`}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => finish(true)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') finish(false);
          else if (e.key === 'Enter' && e.shiftKey) {
            finished.current = true;
            actions.split(segment.id, wordsBefore(draft, e.currentTarget.selectionStart), draft);
            onDone();
          } else if (e.key === 'Enter' && !commandKey(e)) finish(true);
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
      />
      <p id={`hint-${segment.id}`} className="muted small edit-hint">Enter keeps · Escape cancels · Shift+Enter splits at the cursor</p>
    </>
  );
}
