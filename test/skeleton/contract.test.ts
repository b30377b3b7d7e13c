/**
 * The route table holds every endpoint of the spec: the spec's endpoint tables, its list-only
 * endpoints, the admin lists and the batch family are read from the spec itself and looked up.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes, TUS_PATH } from '../../common/api';
import { ROOT } from '../helpers/service';

const SPEC = join(ROOT, '../shared/spec/speech-to-text-interface.md');
const table = Object.values(routes).map((r) => `${r.method} ${r.path.replace(/\{\w+\}/g, '{}')}`);
const has = (method: string, path: string) => table.includes(`${method} ${path.replace(/\{\w+\}/g, '{}').replace(/\?.*$/, '')}`);

describe.runIf(existsSync(SPEC))('route table against the spec', () => {
  const spec = readFileSync(SPEC, 'utf8');

  it('has every row of the endpoint tables', () => {
    const docBase = /Base path: (\S+)/.exec(spec)![1];
    const rows = [...spec.matchAll(/^\| (GET|POST|PUT|DELETE) \| ([^|]+) \|/gm)].map(([, m, p]) => {
      let path = p.trim().replace(/^base path/, docBase).replace(' + ', '');
      path = path.replace(/\s.*$/, '');
      return [m, path] as const;
    });
    expect(rows.length).toBeGreaterThan(30);
    const missing = rows.filter(([m, p]) => !has(m, p)).map(([m, p]) => `${m} ${p}`);
    expect(missing).toEqual([]);
  });

  it('has every list-only endpoint and admin list', () => {
    const para = /### Other list endpoints\n([^\n]+)/.exec(spec)![1];
    const paths = [...para.matchAll(/(\/api\/v\d\/[\w/{}-]+)/g)].map((m) => m[1]);
    const admin = /Admin list endpoints: \/api\/v3\/admin\/([^.]+)\./.exec(para)![1].split(', ').map((s) => `/api/v3/admin/${s.trim()}`);
    const missing = [...paths, ...admin].filter((p) => !has('GET', p));
    expect(paths.length).toBeGreaterThan(12);
    expect(missing).toEqual([]);
  });

  it('has the batch v3 family', () => {
    expect(has('POST', '/api/v3/batch/upload')).toBe(true);
    expect(TUS_PATH).toBe('/api/v3/batch/upload/tus');
    expect(has('POST', '/api/v3/batch/transcribe')).toBe(true);
    expect(has('GET', '/api/v3/batch/jobs/{job_id}')).toBe(true);
    expect(has('GET', '/api/v3/batch/jobs/{job_id}/result')).toBe(true);
  });

  it('gives every route an auth kind, and the spec\'s special ones the right kind', () => {
    const byId = routes as Record<string, { auth: string }>;
    expect(byId['auth.login'].auth).toBe('none');
    expect(byId['models.list'].auth).toBe('s2t-key');
    expect(byId['sessions.create'].auth).toBe('s2t-key');
    expect(byId['sessions.result'].auth).toBe('s2t-key');
    expect(byId['sessions.shared'].auth).toBe('magic-link');
    expect(byId['sessions.list'].auth).toBe('bearer');
  });
});
