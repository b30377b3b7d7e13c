/**
 * `npm run bench [-- name ...] [-- --loaded]`: runs every bench module (or the named ones), prints
 * one table, writes every row as JSON to $BENCH_OUT (default bench/out/latest.json), and puts the
 * modules' rows into bench/results.json, from which docs/benchmarks.md is written.
 * `--loaded` keeps one core busy with unrelated work for the whole run, as a person's computer is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { runRepeated, type BenchModule, type BenchRow } from './harness';
import { modules } from './modules';
import { machineName, mergeResults, readResults, writeBenchmarksPage, type ModuleResult } from './results-doc';

const args = process.argv.slice(2);
const loaded = args.includes('--loaded');
const only = args.filter((a) => !a.startsWith('--'));
const out = resolve(process.env.BENCH_OUT ?? 'bench/out/latest.json');
const resultsFile = resolve('bench/results.json');

let busy: ChildProcess | undefined;
if (loaded) {
  // A busy loop in a process of its own: one core's worth of load that ends with the run.
  busy = spawn(process.execPath, ['-e', 'for (;;) Math.sqrt(Math.random());'], { stdio: 'ignore' });
  process.stderr.write('bench: one core kept busy for the whole run (--loaded)\n');
}

const rows: BenchRow[] = [];
const fresh: ModuleResult[] = [];
try {
  for (const m of modules as BenchModule[]) {
    if (only.length && !only.includes(m.name)) continue;
    process.stderr.write(`bench ${m.name} ...\n`);
    try {
      const moduleRows = await runRepeated(m);
      rows.push(...moduleRows);
      fresh.push({ module: m.name, date: new Date().toISOString(), machine: machineName(), loaded, rows: moduleRows });
    } catch (err) {
      process.stderr.write(`bench ${m.name} failed: ${(err as Error).stack}\n`);
      process.exitCode = 1;
    }
  }
} finally {
  busy?.kill('SIGKILL');
}

const fmt = (v: number | null) => (v === null ? '-' : Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3));
const table = rows.map((r) => ({
  name: r.name, unit: r.unit, ours: fmt(r.ours), peer: fmt(r.peer), ratio: fmt(r.ratio), target: r.target, met: r.met === null ? '-' : r.met ? 'yes' : 'NO',
  runs: r.runs ?? 1, 'each run': r.each && r.each.length > 1 ? r.each.map((e) => fmt(e.ratio ?? e.ours)).join(' ') : '',
}));
console.table(table);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(rows, null, 2));
console.log(`wrote ${rows.length} rows to ${out}`);
if (fresh.length) {
  const merged = mergeResults(readResults(resultsFile), fresh, (modules as BenchModule[]).map((m) => m.name));
  writeFileSync(resultsFile, `${JSON.stringify(merged, null, 2)}\n`);
  writeBenchmarksPage(resultsFile, resolve('bench/ABOUT.md'), resolve('docs/benchmarks.md'));
  console.log(`updated ${resultsFile} and docs/benchmarks.md`);
}
