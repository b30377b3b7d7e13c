import { useEffect, useState } from 'react';
import { useCommand } from '../ui/useCommand';
import { onPreferencesRequest } from './open';
import { Preferences } from './Preferences';

/** Owns the Preferences dialog: opened by the header button, Ctrl/Cmd+, and the menu's Preferences command. */
export function PreferencesLayer() {
  const [open, setOpen] = useState(false);
  useCommand('preferences', 'preferences', () => setOpen(true));
  useEffect(() => onPreferencesRequest(() => setOpen(true)), []);
  return open ? <Preferences onClose={() => setOpen(false)} /> : null;
}
