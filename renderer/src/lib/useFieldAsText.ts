import { useLayoutEffect, useRef, useState } from 'react';

/**
 * A text field drawn as plain text until it is wanted: pressed, or reached by Tab, it becomes the
 * real control (focused, the caret where the press landed, else at the end), and plain text again
 * once focus leaves. A list creating a few rows every scrolled frame pays for form controls
 * (their inner editors, styles and layout) only in the row being typed in (docs/editor-performance.md).
 * A read-only field stays text, selectable to copy.
 */
export function useFieldAsText<T extends HTMLInputElement | HTMLTextAreaElement>(readOnly: boolean) {
  const [live, setLive] = useState(false);
  const control = useRef<T>(null);
  const caret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = control.current;
    if (!live || !el) return;
    el.focus();
    const at = Math.min(caret.current ?? el.value.length, el.value.length);
    el.setSelectionRange(at, at);
  }, [live]);

  const open = (at: number | null) => {
    if (readOnly) return;
    caret.current = at;
    setLive(true);
  };

  return {
    live: live && !readOnly,
    control,
    close: () => setLive(false),
    textProps: {
      role: 'textbox',
      tabIndex: 0,
      'aria-readonly': readOnly || undefined,
      onMouseDown: (e: React.MouseEvent<HTMLElement>) => {
        if (readOnly || e.button !== 0) return;
        // The control takes the focus and the caret itself, where the press landed.
        e.preventDefault();
        open(offsetAt(e.clientX, e.clientY, e.currentTarget));
      },
      onFocus: () => open(null),
    },
  };
}

/** The character offset in `box`'s text under a point, or null (past the end, or outside it). */
function offsetAt(x: number, y: number, box: HTMLElement): number | null {
  const at = document.caretPositionFromPoint?.(x, y);
  return at && at.offsetNode.nodeType === Node.TEXT_NODE && box.contains(at.offsetNode) ? at.offset : null;
}
