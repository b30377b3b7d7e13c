import { useEffect } from 'react';
import type { ThemeChoice } from '../../../common/ipc';
import { useSettings } from '../settings/useSettings';

/**
 * The theme lives in settings (`theme`); a copy in localStorage lets public/theme-boot.js set it
 * before the first paint, when the bridge is not up yet. "system" sets no attribute: base.css then
 * follows prefers-color-scheme, live.
 */
export const THEME_MIRROR_KEY = 's2t.theme';
export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
  localStorage.setItem(THEME_MIRROR_KEY, choice);
}

/** Applies the theme in settings now and on every change (Preferences sets it). */
export function useAppliedTheme(): void {
  // Until settings answer (or if they cannot), the copy the boot script applied stays.
  const theme = useSettings().settings?.theme;
  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);
}
