import { useState } from 'react';

/**
 * One action at a time from a form: `run` marks it busy, clears the last problem, and shows the
 * message of whatever the work throws; `settled` runs after each attempt, failed or not.
 */
export function useAction(settled?: () => void) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(false);
      settled?.();
    }
  }

  return { busy, problem, setProblem, run };
}
