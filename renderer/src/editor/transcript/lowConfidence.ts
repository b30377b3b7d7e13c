import { useEffect, useRef } from 'react';
import { DEFAULT_SETTINGS } from '../../../../common/ipc';
import type { TranscriptContent } from '../../../../common/transcript';
import { isTypingTarget, modalOpen } from '../../lib/keys';
import { useSettings } from '../../settings/useSettings';
import { matches } from '../../ui/shortcuts';

/** Below this confidence a word is marked for checking: the `lowConfidenceThreshold` setting, live. */
export function useLowConfidenceThreshold(): number {
  return useSettings().settings?.lowConfidenceThreshold ?? DEFAULT_SETTINGS.lowConfidenceThreshold;
}

export interface WordAt {
  segment: number;
  word: number;
}

/**
 * The next (dir 1) or previous (dir -1) word under `threshold` after `from` (a word, or
 * segment -1 for "before the start"), going round the end; null when there is none.
 */
export function nearestLowConfidence(t: TranscriptContent, from: WordAt, dir: 1 | -1, threshold: number): WordAt | null {
  const segs = t.segments;
  const n = segs.length;
  if (n === 0) return null;
  let s = from.segment < 0 ? (dir === 1 ? 0 : n - 1) : from.segment;
  let w = from.segment < 0 ? (dir === 1 ? -1 : segs[s].words.length) : from.word;
  // Every segment once, then the starting one again up to the starting word (going round).
  for (let visited = 0; visited <= n; visited++) {
    const words = segs[s].words;
    for (let i = w + dir; i >= 0 && i < words.length; i += dir) if (words[i].confidence < threshold) return { segment: s, word: i };
    s = (s + dir + n) % n;
    w = dir === 1 ? -1 : segs[s].words.length;
  }
  return null;
}

/** The "next/previous low-confidence word" keys (ui/shortcuts.ts), outside fields and dialogs. */
export function useLowConfidenceKeys(go: (dir: 1 | -1) => void): void {
  const latest = useRef(go);
  latest.current = go;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || modalOpen() || isTypingTarget(e.target)) return;
      if (matches('nextUnsure', e)) latest.current(1);
      else if (matches('previousUnsure', e)) latest.current(-1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
