import { useCallback, useEffect, useState } from 'react';
import { subscribe } from '../lib/bridge';
import { isTypingTarget, modalOpen } from '../lib/keys';
import { matches } from '../ui/shortcuts';

/** Opens the shortcut sheet on ? (not while typing) or F1, and on the menu's Shortcuts command. */
export function useShortcutSheet(): { open: boolean; show: () => void; close: () => void } {
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !matches('shortcuts', e) || modalOpen()) return;
      // "?" types a question mark in a field; F1 is never text.
      if (e.key !== 'F1' && isTypingTarget(e.target)) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    const off = subscribe('app.command', ({ command }) => command === 'shortcuts' && setOpen(true));
    return () => {
      window.removeEventListener('keydown', onKey);
      off();
    };
  }, []);
  return { open, show, close };
}
