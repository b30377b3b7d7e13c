/** BENCH_RUNS=N: a module's N runs become one row each, with every run's figure and whether the target held in all of them. */
import { describe, expect, it } from 'vitest';
import { row, runRepeated, type BenchModule } from '../../bench/harness';

/** A module whose rows' figures come from `runs` in turn; the first row's name carries the run's own size, as the first-sync row's does. */
function moduleOf(runs: { sync: number; list: number }[]): BenchModule {
  let i = 0;
  return {
    name: 'fake',
    run: async () => {
      const r = runs[i++];
      return [
        row({ name: `first sync (${(3.6 + i / 100).toFixed(2)} GB)`, unit: 'ms', ours: r.sync, peer: 10, target: 'ratio <= 1.5', met: r.sync <= 15 }),
        row({ name: 'list', unit: 'ms', ours: r.list, peer: 10, target: 'info', met: null }),
      ];
    },
  };
}

describe('repeated bench runs', () => {
  it('keeps every run of a row whose name differs between runs, and holds its target only if every run did', async () => {
    const rows = await runRepeated(moduleOf([{ sync: 12, list: 5 }, { sync: 21, list: 7 }, { sync: 14, list: 6 }]), 3);
    expect(rows).toHaveLength(2);
    const [sync, list] = rows;
    expect(sync.runs).toBe(3);
    expect(sync.each?.map((e) => e.ratio)).toEqual([1.2, 2.1, 1.4]);
    expect(sync.ours).toBe(14); // the median
    expect(sync.met).toBe(false);
    expect(list.runs).toBe(3);
    expect(list.ours).toBe(6);
    expect(list.met).toBeNull();
  });

  it('holds a target met in every run', async () => {
    const [sync] = await runRepeated(moduleOf([{ sync: 12, list: 5 }, { sync: 13, list: 5 }]), 2);
    expect(sync.runs).toBe(2);
    expect(sync.met).toBe(true);
  });
});
