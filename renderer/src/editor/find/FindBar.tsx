import { useEffect, useId, useRef } from 'react';
import type { FindOptions } from '../../../../common/transcript';
import './find.css';

export interface FindState extends Required<FindOptions> {
  query: string;
  replacement: string;
  /** Steps taken with Previous / Next from the first match at or after `from`. */
  at: number;
  /** The first row in view when the query or its options last changed: finding starts there, as in a browser, rather than at the top. */
  from: number;
}

export const NO_FIND: FindState = { query: '', replacement: '', caseSensitive: false, wholeWord: false, at: 0, from: 0 };

/**
 * Find and replace within the open document. Matching and replacing are common/transcript's
 * findText and replaceText; this bar only holds the query and shows how many places it found.
 * On a read-only document (marked finished) it only finds: replace is not offered.
 */
export function FindBar(props: {
  state: FindState;
  count: number;
  /** The selected match's place among them (0 = the first in the document). */
  selected: number;
  readOnly?: boolean;
  /** The first row in view now, where a new query starts finding. */
  firstInView: () => number;
  onChange: (next: FindState) => void;
  onStep: (delta: number) => void;
  onReplaceAll: () => void;
  onClose: () => void;
}) {
  const { state, count, selected, onChange, readOnly = false } = props;
  const input = useRef<HTMLInputElement>(null);
  const countId = useId();
  useEffect(() => input.current?.focus(), []);
  const set = (patch: Partial<FindState>) => onChange({ ...state, ...patch, at: 0, from: props.firstInView() });
  const summary = !state.query ? '' : count === 0 ? 'Not found' : `${count} found${count > 1 ? ` · ${selected + 1} of ${count}` : ''}`;

  return (
    <div role="search" className="find-bar" aria-label={readOnly ? 'Find' : 'Find and replace'}>
      <input
        ref={input}
        type="search"
        aria-label="Find"
        aria-describedby={countId}
        placeholder="Find"
        value={state.query}
        onChange={(e) => set({ query: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter') props.onStep(e.shiftKey ? -1 : 1);
          else if (e.key === 'Escape') props.onClose();
          else return;
          e.preventDefault();
        }}
      />
      <span id={countId} className="find-count muted" role="status">{summary}</span>
      <button type="button" className="icon" aria-label="Previous match" title="Previous match (Shift+Enter)" disabled={count < 2} onClick={() => props.onStep(-1)}><span aria-hidden="true">↑</span></button>
      <button type="button" className="icon" aria-label="Next match" title="Next match (Enter)" disabled={count < 2} onClick={() => props.onStep(1)}><span aria-hidden="true">↓</span></button>
      <label className="check"><input type="checkbox" checked={state.wholeWord} onChange={(e) => set({ wholeWord: e.target.checked })} /> Whole words</label>
      <label className="check"><input type="checkbox" checked={state.caseSensitive} onChange={(e) => set({ caseSensitive: e.target.checked })} /> Match case</label>
      {!readOnly && (
        <>
          <input
            type="text"
            aria-label="Replace with"
            placeholder="Replace with"
            value={state.replacement}
            onChange={(e) => onChange({ ...state, replacement: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Escape') props.onClose();
              else if (e.key === 'Enter' && count > 0) props.onReplaceAll();
              else return;
              e.preventDefault();
            }}
          />
          <button type="button" disabled={count === 0} onClick={props.onReplaceAll}>Replace all</button>
        </>
      )}
      <button type="button" className="icon" aria-label="Close find" title="Close (Escape)" onClick={props.onClose}><span aria-hidden="true">×</span></button>
    </div>
  );
}
