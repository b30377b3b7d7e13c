/**
 * node/ is shared by main and service only: lint refuses an import of it from the renderer, the
 * preload or common, and an import of main from node/; an import of it from main or service passes.
 */
import { describe, expect, it } from 'vitest';
import { eslint, probe } from './lint-probe';

const importer = (from: string) => `import { mediaType } from '${from}';\nexport const f = mediaType;\n`;

describe('the node/ layer', () => {
  it.each([
    ['renderer/src/__probe_node.ts', '../../node/content-type', /renderer\/ may import only common/],
    ['preload/__probe_node.ts', '../node/content-type', /preload\/ may import only common/],
    ['common/__probe_node.ts', '../node/content-type', /common\/ imports nothing but common/],
  ])('lint refuses %s importing node/', (file, from, message) => {
    const r = eslint(probe(file, importer(from)));
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/import-x\/no-restricted-paths/);
    expect(r.out).toMatch(message);
  });

  it('lint refuses node/ importing main/', () => {
    const r = eslint(probe('node/__probe_main.ts', "import { startBackend } from '../main/backend';\nexport const f = startBackend;\n"));
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/node\/ may import only common/);
  });

  it.each([
    ['main/__probe_node.ts', '../node/content-type'],
    ['service/__probe_node.ts', '../node/content-type'],
  ])('lint passes %s importing node/', (file, from) => {
    const r = eslint(probe(file, importer(from)));
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });
});
