/**
 * Sends 10,000 random malformed requests across every route of the route table and the SSO
 * identity page, concurrently over keep-alive connections, and checks the service answers each
 * with a non-5xx status (errors in one of the spec's shapes) and is still alive afterwards.
 *
 * So that the fuzzer reaches past the doors, half of the requests fill path parameters with real
 * ids (a folder, a glossary, a team, a session with documents, its job, a share link, a tus upload,
 * an SSO flow), and the credentials include a SYSOP+RESELLER user of the same organization.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, routes, TUS_PATH, type RouteDef } from '../../../common/api';
import { cleanup, startService, type RunningService } from '../../helpers/service';
import { must } from '../answers';
import { call, mustAddUser, tokenFor } from './client';

const REQUESTS = 10_000;
const CONCURRENCY = 48;
const IDENTITY_PATH = '/api/v3/auth/sso/identity';

let svc: RunningService;
const creds = { jwt: '', admin: '', batch: '', realtime: '' };
/** Real ids in the fuzzer's organization, by what they name. */
const seeds = { folder: '', glossary: '', group: '', session: '', document: '', job: '', share: '', download: '', tus: '', flow: '' };

async function seedSession(): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob(['1\n00:00:01,000 --> 00:00:02,000\nHello there.\n']), 'seed.srt');
  const auth = { authorization: `Bearer ${creds.jwt}` };
  const up = (await (await fetch(`${svc.url}/api/v3/batch/upload`, { method: 'POST', headers: auth, body: form })).json()) as { file_id: string };
  const job = await call(svc.url, 'batch.transcribe', '/api/v3/batch/transcribe', { token: creds.jwt, json: { file_id: up.file_id, language: 'en', session_mode: 'upload' } });
  seeds.job = job.body.job_id;
  for (let i = 0; i < 300; i++) {
    const j = await call(svc.url, 'batch.job', `/api/v3/batch/jobs/${seeds.job}`, { token: creds.jwt });
    if (j.body.status === 'completed') {
      seeds.session = j.body.metadata.session_id;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!seeds.session) throw new Error('the seed session did not complete');
  const docs = await call(svc.url, 'documents.list', `/api/v3/speech-to-text/session/${seeds.session}/document`, { token: creds.jwt });
  seeds.document = docs.body.result[0].id;
  const doc = `/api/v3/speech-to-text/session/${seeds.session}/document/${seeds.document}`;
  seeds.share = (await call(svc.url, 'documents.share', `${doc}/share`, { token: creds.jwt, json: { allow_editing: true, allow_export: true } })).body.token;
  const direct = await call(svc.url, 'documents.get', `${doc}?direct_download=true`, { token: creds.jwt });
  seeds.download = String(direct.body.download_url).split('/').pop()!;
}

beforeAll(async () => {
  // The fuzzer stands in for a reverse proxy in front of many clients (see x-forwarded-for below).
  svc = await startService({ demo: false, args: ['--rate-limit', '100000000', '--trust-proxy', 'loopback'] });
  await mustAddUser(svc.dataDir, 'fuzz@example.com', 'fuzz-password-1', ['CUSTOMER', 'DEVELOPER', 'ORGADMIN']);
  await mustAddUser(svc.dataDir, 'fuzz-admin@example.com', 'fuzz-password-2', ['SYSOP', 'RESELLER'], ['--org-of', 'fuzz@example.com']);
  creds.jwt = await tokenFor(svc.url, 'fuzz@example.com', 'fuzz-password-1');
  creds.admin = await tokenFor(svc.url, 'fuzz-admin@example.com', 'fuzz-password-2');
  for (const type of ['batch', 'realtime'] as const) {
    creds[type] = must((await call(svc.url, 'tokens.create', '/api/v3/tokens', { token: creds.jwt, json: { name: type, type, years_valid: 1 } })).body.token_value, 'token_value');
  }
  seeds.folder = String((await call(svc.url, 'folders.create', '/api/v3/folders', { token: creds.jwt, json: { name: 'seed' } })).body.result.id);
  seeds.glossary = String((await call(svc.url, 'glossaries.create', '/api/v4/glossaries', { token: creds.jwt, json: { name: 'seed', source_language: 'en', entries: [{ source: 'a', target: 'b' }] } })).body.result.id);
  const db = new Database(join(svc.dataDir, 'service.db'));
  db.pragma('busy_timeout = 5000');
  const org = (db.prepare('SELECT org_id FROM users WHERE email = ?').get('fuzz@example.com') as { org_id: number }).org_id;
  seeds.group = String(db.prepare("INSERT INTO org_groups (org_id, name, created_at) VALUES (?, 'seed', '2026-01-01T00:00:00Z')").run(org).lastInsertRowid);
  db.prepare('INSERT INTO org_group_members (group_id, user_id) SELECT ?, id FROM users WHERE org_id = ?').run(seeds.group, org);
  db.close();
  await seedSession();
  const tus = await fetch(`${svc.url}${TUS_PATH}`, { method: 'POST', headers: { authorization: `Bearer ${creds.jwt}`, 'Tus-Resumable': '1.0.0', 'Upload-Length': '1000' } });
  seeds.tus = tus.headers.get('location')!.split('/').pop()!;
  const sso = await call(svc.url, 'GET', `/api/v3/auth/login/microsoft?redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}`);
  seeds.flow = new URL(sso.headers.get('location')!, svc.url).searchParams.get('flow')!;
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

interface Target {
  id: string;
  method: string;
  path: string;
}

interface FuzzRequest extends Target {
  headers: Record<string, string>;
  body?: Buffer;
}

/** The route table, plus the SSO identity page the service serves outside it. */
const TARGETS: Target[] = [
  ...Object.entries(routes).map(([id, r]) => ({ id, method: r.method, path: (r as RouteDef).path })),
  { id: 'sso.identityPage', method: 'GET', path: IDENTITY_PATH },
  { id: 'sso.identitySubmit', method: 'POST', path: IDENTITY_PATH },
];
/** Routes whose good credentials would end the fuzzer's own session or tokens; they get only bad ones. */
const SELF_HARM = new Set(['auth.logout', 'tokens.delete']);
/** Deleting the seeds would turn the rest of the run into 404s; these routes get random ids only. */
const DESTRUCTIVE = new Set(Object.entries(routes).filter(([, r]) => r.method === 'DELETE').map(([id]) => id));

/** The real id for a path parameter of a route (undefined: none fits, a random value is used). */
function seedFor(routeId: string, param: string): string | undefined {
  if (param === 'sessionId') return seeds.session;
  if (param === 'documentId') return seeds.document;
  if (param === 'jobId') return seeds.job;
  if (param === 'format') return 'srt';
  if (param === 'token') return routeId === 'documents.download' ? seeds.download : seeds.share;
  if (param === 'tokenId') return undefined;
  if (routeId.startsWith('folders.')) return seeds.folder;
  if (routeId.startsWith('glossaries.')) return seeds.glossary;
  if (routeId.startsWith('organization.')) return seeds.group;
  if (routeId.startsWith('batch.tus')) return seeds.tus;
  return undefined;
}

const weird = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '0', '-1', '1', '2', '99999999999999999999', '1e3', 'NaN', 'true', 'null', '..', '%00', '%ZZ', '💥', 'a'.repeat(3000), '[]', '{}', "' OR 1=1 --", '<script>'),
  fc.integer().map(String),
);

/** Values a header may carry (no control characters), numeric and not. */
const headerJunk = fc.constantFrom('', '-1', 'abc', '1e3', '1.5', '99999999999999999999', ' 7 ', '0x10', 'NaN');

function requestArb(): fc.Arbitrary<FuzzRequest> {
  const seedValues = Object.values(seeds);
  /** Query and form values: mostly junk, sometimes a real id (a flow for the identity page, a share token, ...). */
  const value = fc.oneof({ weight: 4, arbitrary: weird }, { weight: 1, arbitrary: fc.constantFrom(...seedValues) });
  const bodyArb = fc.oneof(
    fc.constant(undefined),
    fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v))),
    fc.dictionary(fc.constantFrom('name', 'type', 'years_valid', 'username', 'password', 'totp_code', 'backup_code', 'entries', 'parent_id', 'source_language', 'language', 'file_id', 'document', 'filename', 'source_document_id', 'document_ids', 'target_language', 'allow_editing'), fc.jsonValue({ maxDepth: 2 })).map((o) => Buffer.from(JSON.stringify(o))),
    fc.dictionary(fc.constantFrom('username', 'password', 'remember_me', 'totp_code', 'backup_code', 'flow', 'action', 'email'), value).map((o) => Buffer.from(new URLSearchParams(o).toString())),
    fc.string({ maxLength: 200 }).map((s) => Buffer.from(s)),
    fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
    fc.constant(Buffer.from('{"a":'.repeat(2000))),
  );
  return fc
    .record({
      target: fc.constantFrom(...TARGETS),
      methodPick: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') }),
      useSeeds: fc.boolean(),
      pathValues: fc.array(weird, { minLength: 1, maxLength: 3 }),
      /** The query parameter the door checks (the identity page's flow, a magic link's token): half the time the real one. */
      doorKey: fc.record({ real: fc.boolean(), junk: weird }),
      query: fc.array(fc.tuple(fc.oneof(fc.constantFrom('limit', 'offset', 'q', 'sort', 'direction', 'filter', 'token', 'totp_code', 'backup_code', 'redirect_uri', 'state', 'login_type', 'include_entries', 'include_content', 'direct_download', 'exp', 'sig', 'status', 'format', 'flow'), fc.string({ maxLength: 8 })), value), { maxLength: 5 }),
      auth: fc.constantFrom('none', 'jwt', 'admin', 'batch', 'realtime', 'garbage', 'basic', 'dots', 'empty'),
      s2tKey: fc.constantFrom('none', 'batch', 'realtime', 'jwt', 'garbage'),
      contentType: fc.constantFrom(undefined, 'application/json', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=zzz', 'application/json; charset=utf-16', 'audio/wav', '%%%', 'application/octet-stream', 'application/offset+octet-stream'),
      tus: fc.record({ length: fc.oneof(fc.nat({ max: 4096 }).map(String), headerJunk), offset: fc.oneof(fc.constant('0'), fc.nat().map(String), headerJunk), resumable: fc.constantFrom('1.0.0', '0.2.2', '') }),
      body: bodyArb,
      /** The client a (trusted) proxy in front names: wrong magic-link tokens lock out one address, not the fuzzer. */
      client: fc.tuple(fc.nat({ max: 255 }), fc.nat({ max: 255 }), fc.nat({ max: 255 })),
    })
    .map((r) => {
      const { target } = r;
      const headers: Record<string, string> = { 'x-forwarded-for': `10.${r.client.join('.')}` };
      const safeAuth = SELF_HARM.has(target.id) && r.auth !== 'garbage' ? 'garbage' : r.auth;
      const authValue = { none: undefined, jwt: `Bearer ${creds.jwt}`, admin: `Bearer ${creds.admin}`, batch: `Bearer ${creds.batch}`, realtime: `Bearer ${creds.realtime}`, garbage: 'Bearer s2t_nonsense', basic: 'Basic Zm9vOmJhcg==', dots: 'Bearer a.b.c', empty: 'Bearer ' }[safeAuth];
      if (authValue !== undefined) headers.authorization = authValue;
      const keyValue = { none: undefined, batch: creds.batch, realtime: creds.realtime, jwt: creds.jwt, garbage: 'zzz' }[r.s2tKey];
      if (keyValue !== undefined) headers['x-svc-s2t-key'] = keyValue;
      if (r.contentType) headers['content-type'] = r.contentType;
      if (target.id.startsWith('batch.tus')) Object.assign(headers, { 'tus-resumable': r.tus.resumable, 'upload-length': r.tus.length, 'upload-offset': r.tus.offset });
      let i = 0;
      const path = target.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const seeded = r.useSeeds && !DESTRUCTIVE.has(target.id) ? seedFor(target.id, name) : undefined;
        return encodeURIComponent(seeded ?? r.pathValues[i++ % r.pathValues.length] ?? 'x');
      });
      const door = target.path === IDENTITY_PATH ? ['flow', seeds.flow] : (routes as Record<string, RouteDef>)[target.id]?.auth === 'magic-link' ? ['token', seeds.share] : undefined;
      // tus refuses any query string: with real ids it goes without, so real uploads are reached too.
      const query = target.id.startsWith('batch.tus') && r.useSeeds ? [] : r.query;
      const pairs: [string, string][] = door ? [[door[0], r.doorKey.real ? door[1] : r.doorKey.junk], ...query] : query;
      const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const method = r.methodPick ?? target.method;
      const body = method === 'GET' || method === 'HEAD' ? undefined : r.body;
      return { id: target.id, method, path: path + (qs ? `?${qs}` : ''), headers, body };
    });
}

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
  it('serves every route of the route table (no "no route" 404 for any of them)', async () => {
    for (const [id, r] of Object.entries(routes)) {
      const path = (r as RouteDef).path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'format' ? 'srt' : '1'));
      const res = await fetch(`${svc.url}${path}`, { method: r.method, redirect: 'manual' });
      const text = await res.text();
      // HEAD answers carry no body to tell the two 404s apart, so a HEAD route must not answer 404 at all.
      expect(r.method === 'HEAD' ? res.status !== 404 : !text.includes('no route for'), `${id}: ${res.status} ${text.slice(0, 120)}`).toBe(true);
    }
  });

  it(`answers ${REQUESTS} random malformed requests without a 5xx, reaching past auth, roles and ids, and stays up`, async () => {
    const samples = fc.sample(requestArb(), { numRuns: REQUESTS, seed: Number(process.env.FUZZ_SEED ?? 20261122) });
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const base = new URL(svc.url);
    const failures: string[] = [];
    const byStatus = new Map<number, number>();
    const okByRoute = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < samples.length) {
        const r = samples[next++];
        const res = await send(agent, base, r);
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
        if (res.status >= 200 && res.status < 300) okByRoute.set(r.id, (okByRoute.get(r.id) ?? 0) + 1);
        // 501: translation without an installed engine is a documented answer, not a failure.
        const serverError = res.status >= 500 && !(res.status === 501 && r.id === 'documents.translate');
        const badShape = res.status >= 400 && r.method !== 'HEAD' && res.type.includes('json') && !ErrorBody.safeParse(JSON.parse(res.body)).success;
        if (serverError || badShape || res.status === 0) failures.push(`${res.status} ${r.id} ${r.method} ${r.path.slice(0, 120)} ${JSON.stringify(r.headers).slice(0, 200)} -> ${res.body.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    expect(failures.slice(0, 20)).toEqual([]);
    expect([...byStatus.values()].reduce((a, b) => a + b, 0)).toBe(REQUESTS);
    // Not everything was refused at the door: role-gated lists, routes on real ids and the identity page did real work.
    const reached = ['admin.customers', 'admin.billing', 'admin.stranded', 'reseller.customers', 'reseller.plans', 'organization.groupUsers', 'folders.get', 'glossaries.get', 'sessions.get', 'sessions.shared', 'documents.get', 'documents.export', 'shared.document', 'batch.job', 'batch.tusOffset', 'sso.identityPage'];
    expect(reached.filter((id) => !okByRoute.get(id))).toEqual([]);
    expect(byStatus.get(200) ?? 0).toBeGreaterThan(500);
    expect(svc.child.exitCode).toBeNull();
    const me = await call(svc.url, 'GET', '/api/v3/account/me', { token: creds.jwt });
    expect(me.status).toBe(200);
    expect(svc.stderr()).not.toMatch(/unhandled error|tus request failed/);
  }, 180_000);
});
