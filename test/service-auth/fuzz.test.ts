/**
 * Sends 10,000 random malformed requests across every route of the route table, concurrently over
 * keep-alive connections, and checks the service answers each with a non-5xx status (errors in
 * one of the spec's shapes) and is still alive and well afterwards.
 */
import fc from 'fast-check';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, routes, type RouteDef } from '../../common/api';
import { cleanup, startService, type RunningService } from '../helpers/service';
import { call, mustAddUser, tokenFor } from './client';

const REQUESTS = 10_000;
const CONCURRENCY = 48;

let svc: RunningService;
const creds = { jwt: '', batch: '', realtime: '' };

beforeAll(async () => {
  svc = await startService({ demo: false, args: ['--rate-limit', '100000000'] });
  await mustAddUser(svc.dataDir, 'fuzz@example.com', 'fuzz-password-1', ['CUSTOMER', 'DEVELOPER', 'ORGADMIN']);
  creds.jwt = await tokenFor(svc.url, 'fuzz@example.com', 'fuzz-password-1');
  for (const type of ['batch', 'realtime'] as const) {
    creds[type] = (await call(svc.url, 'POST', '/api/v3/tokens', { token: creds.jwt, json: { name: type, type, years_valid: 1 } })).body.token_value;
  }
});
afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

interface FuzzRequest {
  routeId: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const ROUTE_IDS = Object.keys(routes) as (keyof typeof routes)[];
/** Routes whose good credentials would end the fuzzer's own session or tokens; they get only bad ones. */
const SELF_HARM = new Set(['auth.logout', 'tokens.delete']);

const weird = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '0', '-1', '1', '2', '99999999999999999999', '1e3', 'NaN', 'true', 'null', '..', '%00', '%ZZ', '💥', 'a'.repeat(3000), '[]', '{}', "' OR 1=1 --", '<script>'),
  fc.integer().map(String),
);

function fillPath(path: string, values: string[]): string {
  let i = 0;
  return path.replace(/\{(\w+)\}/g, () => encodeURIComponent(values[i++ % values.length] ?? 'x'));
}

const bodyArb = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v))),
  fc.dictionary(fc.constantFrom('name', 'type', 'years_valid', 'username', 'password', 'totp_code', 'backup_code', 'entries', 'parent_id', 'source_language', 'language', 'file_id', 'document'), fc.jsonValue({ maxDepth: 2 })).map((o) => Buffer.from(JSON.stringify(o))),
  fc.dictionary(fc.constantFrom('username', 'password', 'remember_me', 'totp_code', 'backup_code', 'flow', 'action'), weird).map((o) => Buffer.from(new URLSearchParams(o).toString())),
  fc.string({ maxLength: 200 }).map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
  fc.constant(Buffer.from('{"a":'.repeat(2000))),
);

const requestArb: fc.Arbitrary<FuzzRequest> = fc
  .record({
    routeId: fc.constantFrom(...ROUTE_IDS),
    methodPick: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') }),
    pathValues: fc.array(weird, { minLength: 1, maxLength: 3 }),
    query: fc.array(fc.tuple(fc.oneof(fc.constantFrom('limit', 'offset', 'q', 'sort', 'direction', 'filter', 'token', 'totp_code', 'backup_code', 'redirect_uri', 'state', 'login_type', 'include_entries', 'include_content', 'exp', 'sig', 'status', 'format'), fc.string({ maxLength: 8 })), weird), { maxLength: 5 }),
    auth: fc.constantFrom('none', 'jwt', 'batch', 'realtime', 'garbage', 'basic', 'dots', 'empty'),
    s2tKey: fc.constantFrom('none', 'batch', 'realtime', 'jwt', 'garbage'),
    contentType: fc.constantFrom(undefined, 'application/json', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=zzz', 'application/json; charset=utf-16', 'audio/wav', '%%%', 'application/octet-stream'),
    body: bodyArb,
  })
  .map((r) => {
    const def = routes[r.routeId] as RouteDef;
    const headers: Record<string, string> = {};
    const safeAuth = SELF_HARM.has(r.routeId) && r.auth !== 'garbage' ? 'garbage' : r.auth;
    const authValue = { none: undefined, jwt: `Bearer ${creds.jwt}`, batch: `Bearer ${creds.batch}`, realtime: `Bearer ${creds.realtime}`, garbage: 'Bearer s2t_nonsense', basic: 'Basic Zm9vOmJhcg==', dots: 'Bearer a.b.c', empty: 'Bearer ' }[safeAuth];
    if (authValue !== undefined) headers.authorization = authValue;
    const keyValue = { none: undefined, batch: creds.batch, realtime: creds.realtime, jwt: creds.jwt, garbage: 'zzz' }[r.s2tKey];
    if (keyValue !== undefined) headers['x-svc-s2t-key'] = keyValue;
    if (r.contentType) headers['content-type'] = r.contentType;
    const qs = r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    const method = r.methodPick ?? def.method;
    const body = method === 'GET' || method === 'HEAD' ? undefined : r.body;
    return { routeId: r.routeId, method, path: fillPath(def.path, r.pathValues) + (qs ? `?${qs}` : ''), headers, body };
  });

function send(agent: Agent, base: URL, r: FuzzRequest): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: base.hostname, port: base.port, method: r.method, path: r.path, headers: { ...r.headers, ...(r.body ? { 'content-length': String(r.body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${r.method} ${r.path}`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

describe('fuzz', () => {
  it(`answers ${REQUESTS} random malformed requests without a 5xx, and stays up`, async () => {
    const samples = fc.sample(requestArb, { numRuns: REQUESTS, seed: Number(process.env.FUZZ_SEED ?? 20261122) });
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const base = new URL(svc.url);
    const failures: string[] = [];
    const byStatus = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < samples.length) {
        const r = samples[next++];
        const res = await send(agent, base, r);
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
        // 501: translation without an installed engine is a documented answer, not a failure.
        const serverError = res.status >= 500 && !(res.status === 501 && r.routeId === 'documents.translate');
        const badShape = res.status >= 400 && r.method !== 'HEAD' && res.type.includes('json') && !ErrorBody.safeParse(JSON.parse(res.body)).success;
        if (serverError || badShape || res.status === 0) failures.push(`${res.status} ${r.routeId} ${r.method} ${r.path.slice(0, 120)} ${JSON.stringify(r.headers).slice(0, 200)} -> ${res.body.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    expect(failures.slice(0, 20)).toEqual([]);
    expect([...byStatus.values()].reduce((a, b) => a + b, 0)).toBe(REQUESTS);
    // Not everything was refused at the door: some requests got through to real work.
    expect(byStatus.get(200) ?? 0).toBeGreaterThan(100);
    expect(svc.child.exitCode).toBeNull();
    const me = await call(svc.url, 'GET', '/api/v3/account/me', { token: creds.jwt });
    expect(me.status).toBe(200);
    expect(svc.stderr()).not.toMatch(/unhandled error/);
  }, 120_000);
});
