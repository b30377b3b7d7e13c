import type { Segment } from '../../../../common/transcript';

/**
 * A segment's words drawn as text (joined by single spaces) rather than an element each: the
 * character offset where each word starts, and the ways from a place in the drawn text (a caret,
 * a point on screen) to a word and back.
 */

/** Where each word starts in the segment's text. */
export function wordStarts(segment: Segment): number[] {
  const out: number[] = [];
  let at = 0;
  for (const w of segment.words) {
    out.push(at);
    at += w.text.length + 1;
  }
  return out;
}

/** The word holding character `offset` (a caret just after a word's last letter is still in it). */
export function wordAtOffset(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return starts.length ? lo : -1;
}

/** The character offset inside `el`'s text of a caret at `node`/`offset`, or -1 when the caret is not in `el`. */
function offsetIn(el: Element, node: Node, offset: number): number {
  if (!el.contains(node)) return -1;
  let at = 0;
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    if (t === node) return at + offset;
    at += t.textContent?.length ?? 0;
  }
  // A caret between elements (offset counts child nodes): the text before that child.
  return node === el ? (el.childNodes[offset] ? offsetIn(el, el.childNodes[offset], 0) : at) : -1;
}

/** A range over characters `start`..`end` of `el`'s text, across the text nodes it is split into. */
export function textRange(el: Element, start: number, end: number): Range | null {
  const range = document.createRange();
  let at = 0;
  let started = false;
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const len = t.textContent?.length ?? 0;
    if (!started && start <= at + len) {
      range.setStart(t, start - at);
      started = true;
    }
    if (started && end <= at + len) {
      range.setEnd(t, end - at);
      return range;
    }
    at += len;
  }
  return null;
}

/** The word drawn under the point (x, y) of `el`, or -1 when the point is not on a word (a gap, past a line's end). */
export function wordAtPoint(el: Element, segment: Segment, starts: readonly number[], x: number, y: number): number {
  const caret = document.caretPositionFromPoint?.(x, y);
  const offset = caret ? offsetIn(el, caret.offsetNode, caret.offset) : -1;
  if (offset < 0) return -1;
  const i = wordAtOffset(starts, offset);
  if (i < 0) return -1;
  const rects = textRange(el, starts[i], starts[i] + segment.words[i].text.length)?.getClientRects() ?? [];
  for (const r of Array.from(rects)) if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return i;
  return -1;
}
