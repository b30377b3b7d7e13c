/**
 * "Open Preferences", from wherever it is asked (the header button, Ctrl/Cmd+, , the app menu),
 * to the one PreferencesLayer that owns the dialog.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function requestPreferences(): void {
  listeners.forEach((l) => l());
}

export function onPreferencesRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
