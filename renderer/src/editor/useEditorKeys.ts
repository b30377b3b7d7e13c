import { useEffect, useRef } from 'react';
import { commandKey, isTypingTarget, modalOpen } from '../lib/keys';
import { matches } from '../ui/shortcuts';

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
      // The keys come from the shortcut sheet's list (ui/shortcuts.ts).
      const h = latest.current;
      if (matches('save', e)) h.save();
      else if (matches('find', e)) h.find();
      else if (isTypingTarget(e.target)) return;
      else if (matches('undo', e)) h.undo();
      else if (matches('redo', e)) h.redo();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
