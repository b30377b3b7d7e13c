import { useEffect, useState } from 'react';
import { subscribe } from '../lib/bridge';
import { modalOpen } from '../lib/keys';
import { matches } from '../ui/shortcuts';
import { onPreferencesRequest } from './open';
import { Preferences } from './Preferences';

/** Owns the Preferences dialog: opened by the header button, Ctrl/Cmd+, and the menu's Preferences command. */
export function PreferencesLayer() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const show = () => setOpen(true);
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !matches('preferences', e) || modalOpen()) return;
      e.preventDefault();
      show();
    };
    window.addEventListener('keydown', onKey);
    const offRequest = onPreferencesRequest(show);
    const offMenu = subscribe('app.command', ({ command }) => command === 'preferences' && show());
    return () => {
      window.removeEventListener('keydown', onKey);
      offRequest();
      offMenu();
    };
  }, []);
  return open ? <Preferences onClose={() => setOpen(false)} /> : null;
}
