/** docs/benchmarks.md is written from bench/results.json: a module's new run replaces only its own rows. */
import { describe, expect, it } from 'vitest';
import { benchmarksPage, mergeResults, type ModuleResult } from '../../bench/results-doc';

const result = (module: string, ours: number, met: boolean, date = '2026-11-27T10:00:00Z'): ModuleResult => ({
  module,
  date,
  machine: 'Test CPU, 2 cores',
  loaded: false,
  rows: [{ name: `${module} row`, unit: 'ms', ours, peer: 10, ratio: ours / 10, target: 'ratio <= 1.5', met, runs: 3, each: [1, 2, 3].map(() => ({ ours, peer: 10, ratio: ours / 10, met })) }],
});

describe('the benchmarks page', () => {
  it('keeps other modules and replaces a re-run one, in the bench order', () => {
    const merged = mergeResults([result('formats', 5, true), result('peaks', 20, false)], [result('peaks', 12, true, '2026-11-28T09:00:00Z')], ['formats', 'peaks']);
    expect(merged.map((m) => [m.module, m.rows[0].ours])).toEqual([['formats', 5], ['peaks', 12]]);
  });

  it('shows each row with its peer, ratio, target and how many runs held, and says when the machine was loaded', () => {
    const page = benchmarksPage([result('peaks', 12, true), { ...result('editors', 30, false), loaded: true }], 'What each benchmark measures.');
    expect(page).toContain('Written by `npm run bench`');
    expect(page).toContain('| peaks row | ms | 12.0 | 10.0 | 1.20 | ratio <= 1.5 | ✓ 3 of 3 |');
    expect(page).toContain('| editors row | ms | 30.0 | 10.0 | 3.00 | ratio <= 1.5 | ✗ 0 of 3 |');
    expect(page).toMatch(/## editors\n\n2026-11-27 on Test CPU, 2 cores, with one core kept busy/);
  });
});
