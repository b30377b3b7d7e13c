/** Probe files written into the parts for one test, and ESLint run over them as `npm run lint` runs. */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ROOT } from '../helpers/service';

const probes: string[] = [];
afterEach(() => probes.splice(0).forEach((f) => rmSync(f, { force: true })));

export function probe(rel: string, text: string): string {
  const file = join(ROOT, rel);
  writeFileSync(file, text);
  probes.push(file);
  return file;
}

export function eslint(...files: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(process.execPath, [join(ROOT, 'node_modules/eslint/bin/eslint.js'), '--no-warn-ignored', ...files], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' }) };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { code: e.status, out: `${e.stdout}${e.stderr}` };
  }
}
