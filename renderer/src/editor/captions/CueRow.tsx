import { memo, useId, useLayoutEffect, useRef, useState } from 'react';
import type { CaptionViolation, Cue } from '../../../../common/transcript';
import { cueTimeProblem } from './cueTiming';
import { parseClock, preciseClock, sentence } from '../../lib/format';
import { useDraft } from '../../lib/useDraft';
import { useFieldAsText } from '../../lib/useFieldAsText';

export interface CueActions {
  seek(ms: number, play?: boolean): void;
  setLines(cueId: string, lines: string[]): void;
  setTimes(cueId: string, start: number, end: number): void;
  /** Split at a character offset of the text, after taking `lines` as the cue's text. */
  split(cueId: string, atChar: number, lines: string[]): void;
  mergeWithNext(cueId: string): void;
  registerDraft(flush: (() => void) | null): void;
}

interface Props {
  cue: Cue;
  index: number;
  /** Neighbours' times, for refusing an overlap; null at either end. */
  prevEnd: number | null;
  nextStart: number | null;
  violations: CaptionViolation[] | null;
  /** The name of the cue's speaker, when it has one (told apart by the service or given by hand). */
  speaker?: string;
  /** A finished document (FinishedLock): text and times shown to read and copy, nothing edits. */
  readOnly: boolean;
  actions: CueActions;
}

/** Violation messages read "cue 3: reads at …"; the row (or the problem's own "Cue 3" link) already says which cue. */
export function ruleText(v: CaptionViolation): string {
  return sentence(v.message.replace(/^cue \d+: /, ''));
}

/**
 * One caption cue's contents (the list item around it is the virtualized list's): its times
 * (checked before they are taken), its lines, its rule problems. Memoized, so typing re-renders only this row.
 */
export const CueRow = memo(function CueRow({ cue, index, prevEnd, nextStart, violations, speaker, readOnly, actions }: Props) {
  const n = index + 1;
  const [timeProblem, setTimeProblem] = useState<string | null>(null);
  const problemId = useId();
  const rulesId = useId();
  const text = useCueDraft(cue, actions, readOnly);

  const commitTime = (which: 'start' | 'end', typed: string): boolean => {
    const ms = parseClock(typed);
    if (ms === null) {
      setTimeProblem('Write a time like 0:03.250 (minutes:seconds.milliseconds).');
      return false;
    }
    const start = which === 'start' ? ms : cue.start_ms;
    const end = which === 'end' ? ms : cue.end_ms;
    const why = cueTimeProblem(start, end, prevEnd, nextStart);
    setTimeProblem(why);
    if (why) return false;
    if (start !== cue.start_ms || end !== cue.end_ms) actions.setTimes(cue.id, start, end);
    return true;
  };

  return (
    <>
      <div className="cue-side">
        <div className="cue-times">
          <button type="button" className="play-cue" aria-label={`Play cue ${n}`} title="Play this cue" onClick={() => actions.seek(cue.start_ms, true)}>
            <span aria-hidden="true">▶</span>
          </button>
          <TimeField label={`Start of cue ${n}`} ms={cue.start_ms} readOnly={readOnly} invalid={timeProblem !== null} describedBy={problemId} onCommit={(t) => commitTime('start', t)} onReset={() => setTimeProblem(null)} />
          <span className="muted" aria-hidden="true">→</span>
          <TimeField label={`End of cue ${n}`} ms={cue.end_ms} readOnly={readOnly} invalid={timeProblem !== null} describedBy={problemId} onCommit={(t) => commitTime('end', t)} onReset={() => setTimeProblem(null)} />
        </div>
        {timeProblem && <p id={problemId} className="error small time-problem" role="alert">{timeProblem}</p>}
        {!readOnly && (
          <div className="row-actions">
            <button
              type="button"
              // Keep the caret where it is: the split happens there.
              onMouseDown={(e) => e.preventDefault()}
              onClick={text.split}
            >
              Split at cursor
            </button>
            {nextStart !== null && (
              <button type="button" onClick={() => actions.mergeWithNext(cue.id)}>
                Merge with next
              </button>
            )}
          </div>
        )}
      </div>
      <div className="cue-body">
        {speaker && <span className="cue-speaker muted small">{speaker}</span>}
        <CueText n={n} rows={text.rows} committed={cue.lines.join('\n')} describedBy={violations ? rulesId : undefined} field={text} />
        {violations && (
          <ul id={rulesId} className="violations" aria-label={`Rule problems in cue ${n}`}>
            {violations.map((v, k) => (
              <li key={k} className={`rule ${v.rule}`}>{ruleText(v)}</li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
});

/** A cue time, typed freely, checked on Enter or leaving the field, Escape puts it back; drawn as text until focused. */
function TimeField({ label, ms, readOnly, invalid, describedBy, onCommit, onReset }: { label: string; ms: number; readOnly: boolean; invalid: boolean; describedBy: string; onCommit: (text: string) => boolean; onReset: () => void }) {
  // Undo, redo or a split moved the time: show the new one.
  const [text, setText] = useDraft(preciseClock(ms));
  const field = useFieldAsText<HTMLInputElement>(readOnly);
  const changed = text !== preciseClock(ms);
  const shared = { className: 'time-field', 'aria-label': label, 'aria-invalid': invalid && changed, 'aria-describedby': invalid ? describedBy : undefined };
  if (!field.live) return <span {...shared} {...field.textProps}>{text}</span>;
  return (
    <input
      {...shared}
      ref={field.control}
      value={text}
      size={10}
      inputMode="decimal"
      onChange={(e) => setText(e.target.value)}
      onBlur={() => {
        if (changed) onCommit(text);
        field.close();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          if (onCommit(text)) e.currentTarget.blur();
        } else if (e.key === 'Escape') {
          setText(preciseClock(ms));
          onReset();
        } else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    />
  );
}

/** The cue's text: its textarea while focused, the same box drawn as text otherwise. */
function CueText({ n, rows, committed, describedBy, field }: { n: number; rows: number; committed: string; describedBy?: string; field: ReturnType<typeof useCueDraft> }) {
  const shared = { className: 'cue-text', 'aria-label': `Text of cue ${n}`, 'aria-describedby': describedBy };
  if (!field.box.live) {
    return <div {...shared} {...field.box.textProps} aria-multiline="true" style={{ '--rows': rows } as React.CSSProperties}>{committed}</div>;
  }
  return <textarea {...shared} rows={rows} {...field.props} />;
}

/**
 * The cue's lines as typed in its textarea (one line a row; there only while focused, CueText):
 * kept on leaving it, Escape puts them back, and split() cuts at the caret, taking the typed text first.
 *
 * The typed text lives in the textarea, not in React state, and its input events stop at it: after
 * every input event React sets the default value (the child text) of a textarea it manages, a DOM
 * change that made Chromium restyle the whole session view while app/fit.css chose the layout with
 * `:has()` (now `data-media`, set by SessionView). So a key changes no DOM and re-renders nothing
 * unless it changes the line count.
 */
function useCueDraft(cue: Cue, actions: CueActions, readOnly: boolean) {
  const committed = cue.lines.join('\n');
  const field = useFieldAsText<HTMLTextAreaElement>(readOnly);
  const box = field.control;
  const [rows, setRows] = useState(() => lineCount(committed));
  const caret = useRef<number | null>(null);
  const typed = () => box.current?.value ?? committed;

  // Show `text` (the cue as it now is, or as it was on Escape), as useDraft does for a controlled field.
  const show = (text: string) => {
    const el = box.current;
    if (el && el.value !== text) el.value = text;
    setRows(lineCount(text));
  };
  // Undo, redo, a split or a rebuild changed the cue: its new text replaces what was typed.
  useLayoutEffect(() => show(committed), [committed]);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const onInput = (e: Event) => {
      e.stopPropagation();
      setRows(lineCount(el.value));
    };
    el.addEventListener('input', onInput);
    return () => el.removeEventListener('input', onInput);
  }, [field.live]);

  const linesOf = (text: string) => text.replace(/\n+$/, '').split('\n');
  const commit = useRef(() => {});
  commit.current = () => {
    const text = typed();
    if (text !== committed) actions.setLines(cue.id, linesOf(text));
  };

  return {
    rows,
    box: field,
    split: () => actions.split(cue.id, caret.current ?? -1, linesOf(typed())),
    props: {
      ref: box,
      defaultValue: committed,
      // While typing, Ctrl+S must save this draft too: hand the editor a way to commit it.
      onFocus: () => actions.registerDraft(() => commit.current()),
      onBlur: () => {
        actions.registerDraft(null);
        commit.current();
        field.close();
      },
      onSelect: (e: React.SyntheticEvent<HTMLTextAreaElement>) => void (caret.current = e.currentTarget.selectionStart),
      onKeyDown: (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
        if (e.key !== 'Escape') return;
        show(committed);
        e.preventDefault();
        e.stopPropagation();
      },
    },
  };
}

function lineCount(text: string): number {
  return Math.max(1, text.split('\n').length);
}
