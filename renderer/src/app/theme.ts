import { useCallback, useEffect, useState } from 'react';
import type { Settings, ThemeChoice } from '../../../common/ipc';
import { call, subscribe } from '../lib/bridge';

/**
 * The theme lives in settings (`theme`); a copy in localStorage lets public/theme-boot.js set it
 * before the first paint, when the bridge is not up yet. "system" sets no attribute: base.css then
 * follows prefers-color-scheme, live.
 */
export const THEME_MIRROR_KEY = 's2t.theme';
const CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

function mirrored(): ThemeChoice {
  const stored = localStorage.getItem(THEME_MIRROR_KEY) as ThemeChoice | null;
  return stored && CHOICES.includes(stored) ? stored : 'system';
}

export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
  localStorage.setItem(THEME_MIRROR_KEY, choice);
}

/** The theme choice and its setter; follows changes made in settings from anywhere. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [theme, setTheme] = useState<ThemeChoice>(mirrored);
  useEffect(() => {
    const take = (s: Settings) => {
      applyTheme(s.theme);
      setTheme(s.theme);
    };
    // An older main without settings keeps the mirrored choice.
    call('settings.get', {}).then(take, () => {});
    return subscribe('settings.changed', take);
  }, []);
  const choose = useCallback((choice: ThemeChoice) => {
    applyTheme(choice);
    setTheme(choice);
    call('settings.set', { theme: choice }).catch(() => {});
  }, []);
  return [theme, choose];
}
