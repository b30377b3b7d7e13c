/**
 * The caption showing at the playhead, from the open caption document to the player (MediaBar)
 * that draws it over the video: the two sit apart in the page, so a small store joins them.
 */
import { useEffect, useSyncExternalStore } from 'react';

let showing: readonly string[] | null = null;
const listeners = new Set<() => void>();

function set(lines: readonly string[] | null): void {
  if (lines === showing) return;
  showing = lines;
  for (const l of listeners) l();
}

/** The editor says which lines show now (null: none); they go when it closes. */
export function useShowCaption(lines: readonly string[] | null): void {
  useEffect(() => set(lines), [lines]);
  useEffect(() => () => set(null), []);
}

/** The lines showing now, for the player. */
export function useCaptionShowing(): readonly string[] | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => showing,
  );
}
