import { useLayoutEffect, type RefObject } from 'react';
import type { Segment } from '../../../../common/transcript';
import { textRange } from './wordText';

/**
 * Marks on words drawn as plain text, through the CSS Custom Highlight API (`::highlight(word-…)`
 * in transcript.css): words inside find matches, words recognised with low confidence, and the word
 * under the pointer. A mark is a range over the row's text, so marking adds no element to a row.
 */
export type WordMark = 'found' | 'unsure' | 'hover';

const marks = new Map<WordMark, Highlight>();

function highlight(mark: WordMark): Highlight {
  let h = marks.get(mark);
  if (!h) {
    h = new Highlight();
    // Drawn over one another in this order: the hover's tint over a find match's.
    h.priority = mark === 'hover' ? 2 : mark === 'found' ? 1 : 0;
    marks.set(mark, h);
    CSS.highlights.set(`word-${mark}`, h);
  }
  return h;
}

/** The range of word `i` in `el`, the row's drawn text. */
const wordRange = (el: Element, segment: Segment, starts: readonly number[], i: number) => textRange(el, starts[i], starts[i] + segment.words[i].text.length);

/** Marks `words` of the row drawn in `el` with `mark` while it is drawn and they stay the same. */
export function useWordMarks(el: RefObject<HTMLElement | null>, mark: WordMark, segment: Segment, starts: readonly number[], words: readonly number[], drawn: unknown): void {
  useLayoutEffect(() => {
    const at = el.current;
    if (!at || words.length === 0) return;
    const h = highlight(mark);
    const ranges = words.map((i) => wordRange(at, segment, starts, i)).filter((r): r is Range => r !== null);
    for (const r of ranges) h.add(r);
    return () => {
      for (const r of ranges) h.delete(r);
    };
    // `drawn` changes whenever the row's text nodes are replaced (the playing or selected word moved).
  }, [el, mark, segment, starts, words, drawn]);
}

let hovered: Range | null = null;

/** The word under the pointer (-1: none) in the row drawn in `el`, tinted as a word's element was on hover. */
export function hoverWord(el: Element | null, segment: Segment, starts: readonly number[], i: number): void {
  const h = highlight('hover');
  if (hovered) h.delete(hovered);
  hovered = el && i >= 0 ? wordRange(el, segment, starts, i) : null;
  if (hovered) h.add(hovered);
}
