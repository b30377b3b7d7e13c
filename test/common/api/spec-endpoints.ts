/**
 * The endpoints the spec names, read from its text: the rows of its endpoint tables, the list-only
 * endpoints and admin lists, and the /api/v3/batch family of the Versioning section.
 * test/common/api/spec-endpoints.json is this list, kept in the repository so the contract test runs
 * without ../shared; regenerate it when the spec changes:
 *
 *   npx tsx test/common/api/spec-endpoints.ts > test/common/api/spec-endpoints.json
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SpecEndpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** As the spec writes it, without a query string; path parameters keep their spec names. */
  path: string;
  /** The spec section it came from, so a mismatch says where to look. */
  section: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));
export const SPEC_PATH = resolve(HERE, '../../../../shared/spec/speech-to-text-interface.md');
export const SNAPSHOT_PATH = join(HERE, 'spec-endpoints.json');

function sectionOf(spec: string, index: number): string {
  const heads = [...spec.slice(0, index).matchAll(/^#{2,3} (.+)$/gm)];
  return heads.at(-1)?.[1] ?? '';
}

export function extractEndpoints(spec: string): SpecEndpoint[] {
  const out: SpecEndpoint[] = [];
  const docBase = /Base path: (\S+)/.exec(spec)?.[1];
  if (!docBase) throw new Error('spec: no "Base path:" line in the Documents section');
  for (const m of spec.matchAll(/^\| (GET|POST|PUT|DELETE) \| ([^|]+) \|/gm)) {
    const path = m[2].trim().replace(/^base path/, docBase).replace(' + ', '').replace(/\s.*$/, '').replace(/\?.*$/, '');
    out.push({ method: m[1] as SpecEndpoint['method'], path, section: sectionOf(spec, m.index) });
  }

  const para = /### Other list endpoints\n([^\n]+)/.exec(spec)?.[1];
  if (!para) throw new Error('spec: no "Other list endpoints" paragraph');
  const [lists, admin] = para.split('Admin list endpoints:');
  for (const m of lists.matchAll(/(\/api\/v\d\/[\w/{}-]+)/g)) out.push({ method: 'GET', path: m[1], section: 'Other list endpoints' });
  const adminNames = /^\s*\/api\/v3\/admin\/([^.]+)\./.exec(admin ?? '')?.[1];
  if (!adminNames) throw new Error('spec: no admin list endpoints');
  for (const name of adminNames.split(',')) out.push({ method: 'GET', path: `/api/v3/admin/${name.trim()}`, section: 'Other list endpoints' });

  const family = /describe a \/api\/v3\/batch family: ([^\n]+)/.exec(spec)?.[1];
  if (!family) throw new Error('spec: no /api/v3/batch family in Versioning');
  for (const m of family.matchAll(/\b(GET|POST|PUT|DELETE) ([\w/{}]+)/g)) out.push({ method: m[1] as SpecEndpoint['method'], path: `/api/v3/batch/${m[2]}`, section: 'Versioning' });
  return out;
}

export function readSnapshot(): SpecEndpoint[] {
  return JSON.parse(readFileSync(SNAPSHOT_PATH, 'utf8')) as SpecEndpoint[];
}

// Run directly: print the snapshot for the spec beside this repository.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${JSON.stringify(extractEndpoints(readFileSync(SPEC_PATH, 'utf8')), null, 2)}\n`);
}
