import { useState } from 'react';

/**
 * Local text being typed that starts over from `source` whenever `source` changes (an undo, a
 * split, a rename elsewhere). The reset happens during render, not in an effect, so the stale
 * draft is never shown, not even for one frame.
 */
export function useDraft<T>(source: T): [T, (value: T) => void] {
  const [draft, setDraft] = useState(source);
  const [seen, setSeen] = useState(source);
  if (seen !== source) {
    setSeen(source);
    setDraft(source);
    return [source, setDraft];
  }
  return [draft, setDraft];
}
