/**
 * The benchmarks' record and their page. Each run of a module replaces that module's rows in
 * bench/results.json (committed: the latest figures, with the machine and the date they were
 * taken on), and docs/benchmarks.md is written from it, so the page is never edited by hand.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { z } from 'zod';
import type { BenchRow } from './harness';

const Each = z.object({ ours: z.number(), peer: z.number().nullable(), ratio: z.number().nullable(), met: z.boolean().nullable() });
const Row = z.object({
  name: z.string(),
  unit: z.string(),
  ours: z.number().nullable(),
  peer: z.number().nullable(),
  ratio: z.number().nullable(),
  target: z.string(),
  met: z.boolean().nullable(),
  runs: z.number().optional(),
  each: z.array(Each).optional(),
});
const ModuleResult = z.object({ module: z.string(), date: z.string(), machine: z.string(), loaded: z.boolean(), rows: z.array(Row) });
const Results = z.array(ModuleResult);
export type ModuleResult = z.infer<typeof ModuleResult>;

export function machineName(): string {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${process.platform}`;
}

export function readResults(file: string): ModuleResult[] {
  return existsSync(file) ? Results.parse(JSON.parse(readFileSync(file, 'utf8'))) : [];
}

/** The record with these modules' new rows in place of their old ones, in the modules' order. */
export function mergeResults(old: ModuleResult[], fresh: ModuleResult[], order: string[]): ModuleResult[] {
  const byName = new Map(old.map((m) => [m.module, m]));
  for (const m of fresh) byName.set(m.module, m);
  return [...byName.values()].sort((a, b) => order.indexOf(a.module) - order.indexOf(b.module));
}

const fmt = (v: number | null) => (v === null || Number.isNaN(v) ? '' : Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3));
const cell = (s: string) => s.replace(/\|/g, '\\|');

function metCell(r: BenchRow | z.infer<typeof Row>): string {
  if (r.met === null) return 'reported';
  const runs = r.runs ?? 1;
  const held = r.each ? r.each.filter((e) => e.met).length : r.met ? 1 : 0;
  return `${r.met ? '✓' : '✗'} ${held} of ${runs}`;
}

export function benchmarksPage(results: ModuleResult[], intro: string): string {
  const parts = [
    '# Benchmarks',
    '',
    '<!-- Written by `npm run bench` from bench/results.json; do not edit by hand. -->',
    '',
    intro.trim(),
    '',
  ];
  for (const m of results) {
    parts.push(`## ${m.module}`, '', `${m.date.slice(0, 10)} on ${m.machine}${m.loaded ? ', with one core kept busy (`--loaded`)' : ''}.`, '');
    parts.push('| benchmark | unit | ours | peer | ratio | target | held | each run |', '|---|---|---|---|---|---|---|---|');
    for (const r of m.rows) {
      const each = r.each && r.each.length > 1 ? r.each.map((e) => fmt(e.ratio ?? e.ours)).join(' ') : '';
      parts.push(`| ${cell(r.name)} | ${cell(r.unit)} | ${fmt(r.ours)} | ${fmt(r.peer)} | ${fmt(r.ratio)} | ${cell(r.target)} | ${metCell(r)} | ${each} |`);
    }
    parts.push('');
  }
  return `${parts.join('\n')}\n`;
}

export function writeBenchmarksPage(resultsFile: string, introFile: string, pageFile: string): void {
  writeFileSync(pageFile, benchmarksPage(readResults(resultsFile), readFileSync(introFile, 'utf8')));
}
