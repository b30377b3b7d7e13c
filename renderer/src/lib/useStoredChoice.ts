import { useCallback, useState } from 'react';

/** A small preference remembered across sessions in localStorage (the caption rules profile, say). */
export function useStoredChoice<T extends string>(key: string, fallback: T, allowed: readonly T[]): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => {
    // A value stored by another version may no longer exist.
    const stored = localStorage.getItem(key) as T | null;
    return stored !== null && allowed.includes(stored) ? stored : fallback;
  });
  const set = useCallback(
    (next: T) => {
      localStorage.setItem(key, next);
      setValue(next);
    },
    [key],
  );
  return [value, set];
}
