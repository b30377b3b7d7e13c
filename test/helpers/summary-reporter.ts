/**
 * Ends the run with the ten slowest test files (where the suite's time goes, so it stays within
 * CI's budget) and the plain closing line CI reads: `tests: N passed, N failed, N skipped`.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else skipped++;
      }
    }
    // A file that runs in two projects (the team server's pass) is named with its project.
    const projects = new Set(modules.map((m) => m.project.name));
    const slowest = [...modules]
      .map((m) => ({ file: relative(process.cwd(), m.moduleId) + (projects.size > 1 ? ` [${m.project.name}]` : ''), ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (slowest.length) {
      process.stdout.write('\nslowest test files:\n');
      for (const s of slowest) process.stdout.write(`  ${(s.ms / 1000).toFixed(1).padStart(6)} s  ${s.file}\n`);
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
