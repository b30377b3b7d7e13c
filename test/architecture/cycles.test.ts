/** No import cycles, inside a part either: lint refuses two modules that import each other, and passes a one-way pair. */
import { describe, expect, it } from 'vitest';
import { eslint, probe } from './lint-probe';

describe('import cycles', () => {
  it.each(['main', 'renderer/src', 'service'])('lint refuses a cycle inside %s/', (dir) => {
    const a = probe(`${dir}/__probe_cycle_a.ts`, "import { b } from './__probe_cycle_b';\nexport const a = () => b;\n");
    probe(`${dir}/__probe_cycle_b.ts`, "import { a } from './__probe_cycle_a';\nexport const b = () => a;\n");
    const r = eslint(a);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/Dependency cycle detected\s+import-x\/no-cycle/);
  });

  it('lint passes the same pair importing one way', () => {
    const a = probe('main/__probe_oneway_a.ts', "import { b } from './__probe_oneway_b';\nexport const a = () => b;\n");
    const b = probe('main/__probe_oneway_b.ts', 'export const b = 1;\n');
    expect(eslint(a, b)).toEqual({ code: 0, out: '' });
  });
});
