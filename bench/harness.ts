/**
 * The benchmark harness: each bench module returns rows that put our figure beside a peer's
 * measured in the same run. `npm run bench` prints them as a table and writes them as JSON.
 */
export interface BenchRow {
  name: string;
  unit: string;
  ours: number;
  peer: number | null;
  /** ours / peer (for times and sizes: lower is better; the target says which way). */
  ratio: number | null;
  /** Human-readable target, e.g. "ratio <= 1.5" or "p95 < 50 ms". */
  target: string;
  met: boolean | null;
}

export interface BenchModule {
  name: string;
  run(): Promise<BenchRow[]>;
}

export function row(r: Omit<BenchRow, 'ratio'> & { ratio?: number | null }): BenchRow {
  const ratio = r.ratio !== undefined ? r.ratio : r.peer ? r.ours / r.peer : null;
  return { ...r, ratio: ratio === null ? null : Math.round(ratio * 1000) / 1000 };
}

/** Wall-clock time of fn in milliseconds. */
export async function timeMs(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
