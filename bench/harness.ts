/**
 * The benchmark harness: each bench module returns rows that put our figure beside a peer's
 * measured in the same run. `npm run bench` prints them as a table and writes them as JSON.
 */
import { readFileSync } from 'node:fs';

export interface BenchRow {
  name: string;
  unit: string;
  ours: number;
  peer: number | null;
  /** ours / peer (for times and sizes: lower is better; the target says which way). */
  ratio: number | null;
  /** Human-readable target, e.g. "ratio <= 1.5" or "p95 < 50 ms". */
  target: string;
  /** With several runs (BENCH_RUNS): true only when the target held in every one. */
  met: boolean | null;
  /** How many runs the row is made of (ours and peer are then medians), and each run's figure. */
  runs?: number;
  each?: { ours: number; peer: number | null; ratio: number | null; met: boolean | null }[];
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

/**
 * Ours and the peer timed `runs` times each in turns, which goes first alternating, so a collection
 * or a busy moment of the machine falls on both alike; answers both medians and every time.
 * `warmUp` runs each once untimed first (the JIT, lazy tables).
 */
export async function timedInTurns(runs: number, ours: () => unknown, peer: () => unknown, opts: { warmUp?: boolean } = {}): Promise<{ ours: number; peer: number; oursRuns: number[]; peerRuns: number[] }> {
  if (opts.warmUp) {
    await ours();
    await peer();
  }
  const oursRuns: number[] = [];
  const peerRuns: number[] = [];
  for (let i = 0; i < runs; i++) {
    const oursFirst = i % 2 === 1;
    if (oursFirst) oursRuns.push(await timeMs(ours));
    peerRuns.push(await timeMs(peer));
    if (!oursFirst) oursRuns.push(await timeMs(ours));
  }
  return { ours: percentile(oursRuns, 50), peer: percentile(peerRuns, 50), oursRuns, peerRuns };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * BENCH_RUNS=N runs a module N times in a row; each row then shows the medians, every run's
 * ratio, and whether its target held in all N (a target met in some runs only is not met).
 */
export async function runRepeated(m: BenchModule, runs = Number(process.env.BENCH_RUNS ?? 1)): Promise<BenchRow[]> {
  const all: BenchRow[][] = [];
  for (let i = 0; i < runs; i++) {
    if (runs > 1) process.stderr.write(`  ${m.name}: run ${i + 1} of ${runs}\n`);
    all.push(await m.run());
  }
  // A module gives its rows in the same order every run; a name can carry a run's own figures
  // (a size, a call count), so rows are matched by place, and by name only if the counts differ.
  const sameShape = all.every((rows) => rows.length === all[0].length);
  return all[0].map((first, i) => {
    const same = all.map((rows) => (sameShape ? rows[i] : rows.find((r) => r.name === first.name))).filter((r): r is BenchRow => !!r);
    const each = same.flatMap((r) => r.each ?? [{ ours: r.ours, peer: r.peer, ratio: r.ratio, met: r.met }]);
    const peers = each.map((e) => e.peer).filter((p): p is number => p !== null);
    const ours = percentile(each.map((e) => e.ours), 50);
    const peer = peers.length ? percentile(peers, 50) : null;
    const met = first.met === null ? null : each.every((e) => e.met === true);
    return { ...first, ours, peer, ratio: peer ? Math.round((ours / peer) * 1000) / 1000 : first.ratio, met, runs: each.length, each };
  });
}

/** CPU time (user + system, µs, every thread) the process has used so far; /proc counts in clock ticks of 10 ms. */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
