/** The import rule holds: a forbidden import makes lint or typecheck fail (and a clean file passes). */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/service';

const probes: string[] = [];
function probe(rel: string, text: string): string {
  const file = join(ROOT, rel);
  writeFileSync(file, text);
  probes.push(file);
  return file;
}
afterEach(() => probes.splice(0).forEach((f) => rmSync(f, { force: true })));

function run(cmd: string, args: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' }) };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { code: e.status, out: `${e.stdout}${e.stderr}` };
  }
}
const eslint = (file: string) => run(process.execPath, [join(ROOT, 'node_modules/eslint/bin/eslint.js'), '--no-warn-ignored', file]);

describe('import boundaries', () => {
  it('lint refuses node:fs in common/', () => {
    const r = eslint(probe('common/__probe_fs.ts', "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n"));
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/no-restricted-imports/);
  });

  it('lint refuses bare built-ins without node: (events, buffer, fs/promises) in common/', () => {
    const r = eslint(probe('common/__probe_bare.ts', "import { EventEmitter } from 'events';\nimport { Buffer } from 'buffer';\nimport { readFile } from 'fs/promises';\nexport const f = [EventEmitter, Buffer, readFile];\n"));
    expect(r.code).not.toBe(0);
    expect(r.out.match(/no-restricted-imports/g)?.length).toBe(3);
  });

  // common/ is typechecked without node types too, but the `docx` package's typings reference
  // them, so there the lint rule above is what holds; the renderer has no such dependency.
  it('typecheck refuses node:fs in renderer/ (no node types there)', () => {
    probe('renderer/src/__probe_fs.ts', "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n");
    const r = run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'renderer/tsconfig.json', '--noEmit', '--composite', 'false', '--declaration', 'false', '--emitDeclarationOnly', 'false']);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/node:fs/);
  });

  it('lint refuses main/ from renderer/', () => {
    const r = eslint(probe('renderer/src/__probe_main.ts', "import { startBackend } from '../../main/backend';\nexport const f = startBackend;\n"));
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/import-x\/no-restricted-paths/);
  });

  it('lint refuses service/ from main/ and electron from renderer/', () => {
    const a = eslint(probe('main/__probe_service.ts', "import { openDb } from '../service/db';\nexport const f = openDb;\n"));
    expect(a.code).not.toBe(0);
    const b = eslint(probe('renderer/src/__probe_electron.ts', "import { shell } from 'electron';\nexport const f = shell;\n"));
    expect(b.code).not.toBe(0);
    expect(b.out).toMatch(/Only main\/ and preload\/ may import electron/);
  });

  it('lint accepts common/ from renderer/', () => {
    const r = eslint(probe('renderer/src/__probe_ok.ts', "import { routes } from '../../common/api';\nexport const n = Object.keys(routes).length;\n"));
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });
});
