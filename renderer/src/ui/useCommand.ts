import { useEffect, useRef } from 'react';
import type { AppCommand } from '../../../common/ipc';
import { subscribe } from '../lib/bridge';
import { modalOpen } from '../lib/keys';
import { matches, type ShortcutId } from './shortcuts';

/**
 * A command of the shell, run on its keyboard shortcut (ui/shortcuts) and on the app menu's
 * command of the same purpose. The shortcut is left alone while a modal dialog owns the keyboard,
 * when an earlier handler took the key, and when `leaveKey` says the key is someone else's.
 */
export function useCommand(shortcut: ShortcutId, command: AppCommand, run: () => void, leaveKey?: (e: KeyboardEvent) => boolean): void {
  // The latest callbacks, so a caller's inline functions do not re-register on every render.
  const latest = useRef({ run, leaveKey });
  latest.current = { run, leaveKey };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !matches(shortcut, e) || modalOpen() || latest.current.leaveKey?.(e)) return;
      e.preventDefault();
      latest.current.run();
    };
    window.addEventListener('keydown', onKey);
    const off = subscribe('app.command', (c) => c.command === command && latest.current.run());
    return () => {
      window.removeEventListener('keydown', onKey);
      off();
    };
  }, [shortcut, command]);
}
