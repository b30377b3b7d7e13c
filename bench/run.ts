/**
 * `npm run bench [-- name ...]`: runs every bench module (or the named ones), prints one table,
 * and writes every row as JSON to $BENCH_OUT (default bench/out/latest.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { runRepeated, type BenchModule, type BenchRow } from './harness';
import { modules } from './modules';

const only = process.argv.slice(2);
const out = resolve(process.env.BENCH_OUT ?? 'bench/out/latest.json');
const rows: BenchRow[] = [];
for (const m of modules as BenchModule[]) {
  if (only.length && !only.includes(m.name)) continue;
  process.stderr.write(`bench ${m.name} ...\n`);
  try {
    rows.push(...(await runRepeated(m)));
  } catch (err) {
    process.stderr.write(`bench ${m.name} failed: ${(err as Error).stack}\n`);
    process.exitCode = 1;
  }
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
