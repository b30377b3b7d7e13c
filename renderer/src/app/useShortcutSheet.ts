import { useCallback, useState } from 'react';
import { isTypingTarget } from '../lib/keys';
import { useCommand } from '../ui/useCommand';

/** Opens the shortcut sheet on ? (not while typing) or F1, and on the menu's Shortcuts command. */
export function useShortcutSheet(): { open: boolean; show: () => void; close: () => void } {
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  // "?" types a question mark in a field; F1 is never text.
  useCommand('shortcuts', 'shortcuts', show, (e) => e.key !== 'F1' && isTypingTarget(e.target));
  return { open, show, close };
}
