import { useEffect, useRef } from 'react';
import { commandKey, isTypingTarget, modalOpen } from '../lib/keys';

export interface EditorKeyHandlers {
  save(): void;
  undo(): void;
  redo(): void;
  find(): void;
}

/**
 * Ctrl/Cmd+S saves (even while typing: the draft is committed first), Ctrl/Cmd+F finds,
 * Ctrl/Cmd+Z and Ctrl/Cmd+Shift+Z (or Ctrl+Y) undo and redo document edits, except while typing
 * in a field, where they belong to the field's own undo.
 */
export function useEditorKeys(handlers: EditorKeyHandlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!commandKey(e) || e.altKey || modalOpen()) return;
      const key = e.key.toLowerCase();
      const h = latest.current;
      if (key === 's') h.save();
      else if (key === 'f') h.find();
      else if (isTypingTarget(e.target)) return;
      else if (key === 'z' && !e.shiftKey) h.undo();
      else if ((key === 'z' && e.shiftKey) || key === 'y') h.redo();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
