import { useEffect, useState } from 'react';
import type { Settings } from '../../../common/ipc';
import { call, subscribe } from '../lib/bridge';

/**
 * The settings as main holds them: read once, then kept current by settings.changed (a change
 * made in another window or by Preferences). `error` says why the first read failed.
 */
export function useSettings(): { settings: Settings | null; error: string | null; show: (s: Settings) => void } {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    call('settings.get', {}).then(setSettings, (e: Error) => setError(e.message));
    return subscribe('settings.changed', setSettings);
  }, []);
  return { settings, error, show: setSettings };
}
