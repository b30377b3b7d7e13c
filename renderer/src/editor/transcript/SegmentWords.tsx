import { useMemo, useRef, useState, type ReactNode } from 'react';
import { segmentText, type Segment } from '../../../../common/transcript';
import { hoverWord, useWordMarks } from './wordMarks';
import { wordAtPoint, wordStarts } from './wordText';

interface Props {
  segment: Segment;
  /** The playing word, or -1. */
  nowWord: number;
  /** The word clicked last in this row, or -1. */
  cursorWord: number;
  /** Words inside find matches (null: none). */
  foundWords: ReadonlySet<number> | null;
  /** Words recognised with less confidence than this are marked. */
  threshold: number;
  readOnly: boolean;
  /** A word was clicked. */
  onWord(i: number): void;
  /** A double-click asks to edit, the caret at this character. */
  onEdit(caret: number): void;
}

const HINT = { readOnly: 'Click a word to go there', editable: 'Click a word to go there; double-click to edit' };

/**
 * A segment's words, drawn as text: the playing and the selected word are elements of their own
 * (aria-current, the outline a split cuts at), every other word is part of the text around them,
 * and find matches, low-confidence words and the word under the pointer are marked with CSS
 * highlights (wordMarks.ts). A click is taken to its word by where it lands in the text. An element
 * for every word made each row some twenty elements more to create, lay out and paint, and
 * scrolling a long transcript draws a few new rows every frame (docs/editor-performance.md).
 */
export function SegmentWords({ segment, nowWord, cursorWord, foundWords, threshold, readOnly, onWord, onEdit }: Props) {
  const text = useRef<HTMLParagraphElement>(null);
  const [pointed, setPointed] = useState(-1);
  const starts = useMemo(() => wordStarts(segment), [segment]);
  const found = useMemo(() => (foundWords ? [...foundWords] : []), [foundWords]);
  const unsure = useMemo(() => segment.words.flatMap((w, i) => (w.confidence < threshold ? [i] : [])), [segment, threshold]);
  const drawn = `${nowWord} ${cursorWord}`;
  useWordMarks(text, 'found', segment, starts, found, drawn);
  useWordMarks(text, 'unsure', segment, starts, unsure, drawn);

  const wordAt = (e: React.MouseEvent<HTMLElement>) => {
    const own = (e.target as HTMLElement).closest<HTMLElement>('[data-word]');
    return own ? Number(own.dataset.word) : wordAtPoint(e.currentTarget, segment, starts, e.clientX, e.clientY);
  };
  const point = (e: React.MouseEvent<HTMLElement> | null) => {
    const i = e ? wordAt(e) : -1;
    if (i === pointed) return;
    hoverWord(e?.currentTarget ?? null, segment, starts, i);
    setPointed(i);
  };
  const doubt = pointed >= 0 && segment.words[pointed]?.confidence < threshold ? segment.words[pointed].confidence : null;

  return (
    <p
      ref={text}
      className={`seg-text${pointed >= 0 ? ' over-word' : ''}`}
      title={doubt !== null ? `Low confidence (${Math.round(doubt * 100)}%)` : readOnly ? HINT.readOnly : HINT.editable}
      onMouseMove={point}
      onMouseLeave={() => point(null)}
      onClick={(e) => {
        const i = wordAt(e);
        if (i >= 0) onWord(i);
      }}
      onDoubleClick={(e) => {
        if (readOnly) return;
        const i = wordAt(e);
        onEdit(i >= 0 ? starts[i] : segmentText(segment).length);
      }}
    >
      {segment.words.length === 0 ? <span className="muted">(empty)</span> : runs(segment, nowWord, cursorWord)}
    </p>
  );
}

/** The words as text, with the playing and selected ones as elements; each word followed by a space, outside its element so its highlight ends with the word. */
function runs(segment: Segment, nowWord: number, cursorWord: number): ReactNode[] {
  const out: ReactNode[] = [];
  let plain = '';
  segment.words.forEach((w, i) => {
    if (i !== nowWord && i !== cursorWord) {
      plain += `${w.text} `;
      return;
    }
    if (plain) out.push(plain);
    out.push(
      <span key={`w${i}`} data-word={i} data-start={w.start_ms} data-end={w.end_ms} aria-current={i === nowWord ? 'time' : undefined} className={`word${i === nowWord ? ' now' : ''}${i === cursorWord ? ' cursor' : ''}`}>
        {w.text}
      </span>,
    );
    plain = ' ';
  });
  if (plain) out.push(plain);
  return out;
}
