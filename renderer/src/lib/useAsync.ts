import { useCallback, useEffect, useState } from 'react';

/** Runs an async read, re-running when deps change or reload() is called; keeps the last value while reloading. */
export function useAsync<T>(fn: () => Promise<T>, deps: unknown[]): { value: T | undefined; error: string | null; loading: boolean; reload: () => void } {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    fn().then(
      (v) => {
        if (!live) return;
        setValue(v);
        setError(null);
        setLoading(false);
      },
      (e: Error) => {
        if (!live) return;
        setError(e.message);
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { value, error, loading, reload };
}
