/**
 * The route table holds every endpoint of the spec. The spec's endpoint list is kept in the
 * repository (spec-endpoints.json), so this runs on every machine; where ../shared is present the
 * snapshot is also checked against the spec itself, so it cannot go stale unnoticed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../common/api';
import { extractEndpoints, readSnapshot, SPEC_PATH } from './spec-endpoints';

/** `METHOD /path/{}/x`: path parameter names differ between the spec's tables ({session_id}, {sessionId}). */
const shape = (method: string, path: string) => `${method} ${path.replace(/\{\w+\}/g, '{}')}`;
const table = new Set(Object.values(routes).map((r) => shape(r.method, r.path)));
const snapshot = readSnapshot();

describe('route table against the spec', () => {
  it('the snapshot covers every part of the spec', () => {
    const sections = new Set(snapshot.map((e) => e.section));
    for (const s of ['Authentication and account', 'Language models', 'Sessions', 'Documents', 'Other list endpoints', 'Versioning']) expect(sections, s).toContain(s);
    expect(snapshot.length).toBeGreaterThan(60);
  });

  it('has a route for every endpoint the spec names', () => {
    const missing = snapshot.filter((e) => !table.has(shape(e.method, e.path))).map((e) => `${shape(e.method, e.path)} (${e.section})`);
    expect(missing).toEqual([]);
  });

  it('gives every route an auth kind, and the spec\'s special ones the right kind', () => {
    const byId = routes as Record<string, { auth: string }>;
    expect(byId['auth.login'].auth).toBe('none');
    expect(byId['models.list'].auth).toBe('s2t-key');
    expect(byId['sessions.create'].auth).toBe('s2t-key');
    expect(byId['sessions.result'].auth).toBe('s2t-key');
    expect(byId['sessions.shared'].auth).toBe('magic-link');
    expect(byId['sessions.list'].auth).toBe('bearer');
    // tus: creation plus HEAD/PATCH/DELETE on an upload, all with Bearer (README: tus).
    const tus = Object.values(routes).filter((r) => r.path.startsWith('/api/v3/batch/upload/tus'));
    expect(tus.map((r) => shape(r.method, r.path)).sort()).toEqual(['DELETE /api/v3/batch/upload/tus/{}', 'HEAD /api/v3/batch/upload/tus/{}', 'PATCH /api/v3/batch/upload/tus/{}', 'POST /api/v3/batch/upload/tus']);
    expect(tus.every((r) => r.auth === 'bearer')).toBe(true);
  });

  it('has no two routes on one method and path', () => {
    const seen = Object.values(routes).map((r) => shape(r.method, r.path));
    expect(seen.length).toBe(new Set(seen).size);
  });

  it.runIf(existsSync(SPEC_PATH))('the snapshot matches the spec beside the repository', () => {
    expect(extractEndpoints(readFileSync(SPEC_PATH, 'utf8'))).toEqual(snapshot);
  });
});
