import { requestPreferences } from './open';

/** The header's "Preferences" button. */
export function PreferencesButton() {
  const mac = /Mac/.test(navigator.platform);
  return (
    <button type="button" className="link" onClick={requestPreferences} aria-keyshortcuts={mac ? 'Meta+,' : 'Control+,'} title={`Preferences (${mac ? '⌘,' : 'Ctrl+,'})`}>
      Preferences
    </button>
  );
}
