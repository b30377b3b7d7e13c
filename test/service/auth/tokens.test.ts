import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../common/api';
import { cleanup, DEMO, startService, type RunningService } from '../../helpers/service';
import { errorOf, must } from '../answers';
import { call, mustAddUser, tokenFor } from './client';

let svc: RunningService;
let jwt: string;

beforeAll(async () => {
  svc = await startService();
  jwt = await tokenFor(svc.url, DEMO.email, DEMO.password);
});
afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

const create = (token: string, body: unknown) => call(svc.url, 'tokens.create', '/api/v3/tokens', { token, json: body });
const JSON_TYPE = { 'content-type': 'application/json' };

describe('API tokens', () => {
  it('creates a token whose full value is shown once; the list shows only the non-secret key', async () => {
    const res = await create(jwt, { name: 'ci runner', type: 'batch', years_valid: 2 });
    expect(res.status).toBe(201);
    const t = res.body;
    const value = must(t.token_value, 'token_value');
    expect(t).toMatchObject({ name: 'ci runner', type: 'batch' });
    expect(value.startsWith(t.key)).toBe(true);
    expect(value.length).toBeGreaterThan(t.key.length + 30);
    const years = (Date.parse(t.expires) - Date.now()) / (365.25 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(1.99);
    expect(years).toBeLessThan(2.01);
    const list = await call(svc.url, 'tokens.list', '/api/v3/tokens', { token: jwt });
    expect(list.status).toBe(200);
    const listed = list.body.result.result.find((x) => x.id === t.id);
    expect(listed).toEqual({ id: t.id, name: 'ci runner', key: t.key, type: 'batch', expires: t.expires });
    expect(list.text).not.toContain(t.token_value);
    // The database holds a hash, never the value.
    const db = new Database(join(svc.dataDir, 'service.db'), { readonly: true });
    const dump = JSON.stringify(db.prepare('SELECT * FROM api_tokens').all());
    db.close();
    expect(dump).not.toContain(value.slice(t.key.length));
  });

  it('refuses years_valid other than 1, 2 or 5, a bad type and a wrong content type', async () => {
    for (const years_valid of [0, 3, 10, -1, 1.5, '1']) {
      const res = await create(jwt, { name: 'x', type: 'batch', years_valid });
      expect(res.status).toBe(422);
      expect(errorOf(res).error).toBe('years_valid: must be 1, 2 or 5');
    }
    expect((await create(jwt, { name: 'x', type: 'streaming', years_valid: 1 })).status).toBe(422);
    expect((await create(jwt, { name: '', type: 'batch', years_valid: 1 })).status).toBe(422);
    const form = await call(svc.url, 'POST', '/api/v3/tokens', { token: jwt, form: { name: 'x', type: 'batch', years_valid: '1' } });
    expect(form.status).toBe(415);
    const broken = await call(svc.url, 'POST', '/api/v3/tokens', { token: jwt, headers: JSON_TYPE, json: undefined, form: undefined });
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);
  });

  it('lists with paging, q and sort; a page past the end has count 0', async () => {
    const other = await tokenFor(svc.url, DEMO.email, DEMO.password);
    for (const name of ['alpha', 'bravo', 'charlie']) expect((await create(other, { name: `list-${name}`, type: 'realtime', years_valid: 1 })).status).toBe(201);
    const q = await call(svc.url, 'tokens.list', '/api/v3/tokens?q=list-&sort=name&direction=asc', { token: jwt });
    expect(q.body.result.result.map((t) => t.name)).toEqual(['list-alpha', 'list-bravo', 'list-charlie']);
    expect(q.body.result.total_results).toBe(3);
    const desc = await call(svc.url, 'tokens.list', '/api/v3/tokens?q=list-&sort=name&direction=desc&limit=2', { token: jwt });
    expect(desc.body.result).toMatchObject({ count: 2, total_results: 3 });
    expect(desc.body.result.result.map((t) => t.name)).toEqual(['list-charlie', 'list-bravo']);
    const past = await call(svc.url, 'tokens.list', '/api/v3/tokens?offset=50', { token: jwt });
    expect(past.body.result.count).toBe(0);
    expect(past.body.result.result).toEqual([]);
    expect((await call(svc.url, 'tokens.list', '/api/v3/tokens?sort=password', { token: jwt })).status).toBe(422);
    expect((await call(svc.url, 'tokens.list', '/api/v3/tokens?direction=sideways', { token: jwt })).status).toBe(422);
    expect((await call(svc.url, 'tokens.list', '/api/v3/tokens?limit=101', { token: jwt })).status).toBe(422);
    expect((await call(svc.url, 'tokens.list', '/api/v3/tokens?limit=100', { token: jwt })).status).toBe(200);
  });

  it('any token works as Bearer; batch in x-svc-s2t-key works, realtime there gets 401', async () => {
    const batch = must((await create(jwt, { name: 'b', type: 'batch', years_valid: 1 })).body.token_value, 'token_value');
    const realtime = must((await create(jwt, { name: 'r', type: 'realtime', years_valid: 5 })).body.token_value, 'token_value');
    for (const t of [batch, realtime]) {
      const me = await call(svc.url, 'account.me', '/api/v3/account/me', { token: t });
      expect(me.status).toBe(200);
      expect(me.body.result.email).toBe(DEMO.email);
    }
    expect((await call(svc.url, 'models.list', '/api/v3/speech-to-text/models', { s2tKey: batch, headers: JSON_TYPE })).status).toBe(200);
    const rt = await call(svc.url, 'GET', '/api/v3/speech-to-text/models', { s2tKey: realtime, headers: JSON_TYPE });
    expect(rt.status).toBe(401);
    expect(errorOf(rt).error).toMatch(/batch/);
    // A session JWT is not an API token: the legacy header refuses it.
    expect((await call(svc.url, 'models.list', '/api/v3/speech-to-text/models', { s2tKey: jwt, headers: JSON_TYPE })).status).toBe(401);
    expect((await call(svc.url, 'models.list', '/api/v3/speech-to-text/models', { headers: JSON_TYPE })).status).toBe(401);
    // Logout with an API token ends that token.
    expect((await call(svc.url, 'auth.logout', '/api/v3/auth/logout', { token: batch })).status).toBe(200);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: batch })).status).toBe(401);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: realtime })).status).toBe(200);
  });

  it('a realtime token gets 401 on every route that takes x-svc-s2t-key; a batch token gets past the check', async () => {
    const realtime = must((await create(jwt, { name: 'rt-everywhere', type: 'realtime', years_valid: 1 })).body.token_value, 'token_value');
    const batch = must((await create(jwt, { name: 'batch-everywhere', type: 'batch', years_valid: 1 })).body.token_value, 'token_value');
    const keyRoutes = Object.entries(routes).filter(([, r]) => r.auth === 's2t-key');
    expect(keyRoutes.map(([id]) => id).sort()).toEqual(['models.list', 'sessions.align', 'sessions.create', 'sessions.delete', 'sessions.result', 'sessions.upload']);
    for (const [id, r] of keyRoutes) {
      const path = r.path.replace(/\{\w+\}/g, 'no-such-session');
      // A bodiless DELETE must not claim a JSON body (Fastify refuses an empty one with 400).
      const send = (key: string) => call(svc.url, r.method, path, { s2tKey: key, ...(r.method === 'DELETE' ? {} : { headers: JSON_TYPE }), ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { json: {} }) });
      const refused = await send(realtime);
      expect(refused.status, id).toBe(401);
      expect(errorOf(refused).error, id).toMatch(/type batch/);
      // The same request with a batch token is judged on its merits (200, 404 or 422), so the 401 was the token's type.
      expect([200, 404, 422], id).toContain((await send(batch)).status);
    }
  });

  it('a deleted token gets 401; deleting another user\'s token is 404 and leaves it working', async () => {
    const t = (await create(jwt, { name: 'short-lived', type: 'batch', years_valid: 1 })).body;
    await mustAddUser(svc.dataDir, 'mallory@example.com', 'mallory-password', ['CUSTOMER', 'DEVELOPER']);
    const mallory = await tokenFor(svc.url, 'mallory@example.com', 'mallory-password');
    const steal = await call(svc.url, 'DELETE', `/api/v3/tokens/${t.id}`, { token: mallory });
    expect(steal.status).toBe(404);
    expect(steal.body).toMatchObject({ error: 'not_found', status: 404 });
    expect((await call(svc.url, 'tokens.list', '/api/v3/tokens', { token: mallory })).body.result.total_results).toBe(0);
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: t.token_value })).status).toBe(200);
    const del = await call(svc.url, 'tokens.delete', `/api/v3/tokens/${t.id}`, { token: jwt });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: t.token_value })).status).toBe(401);
    expect((await call(svc.url, 'models.list', '/api/v3/speech-to-text/models', { s2tKey: t.token_value, headers: JSON_TYPE })).status).toBe(401);
    expect((await call(svc.url, 'tokens.delete', `/api/v3/tokens/${t.id}`, { token: jwt })).status).toBe(404);
    expect((await call(svc.url, 'tokens.delete', '/api/v3/tokens/not-a-number', { token: jwt })).status).toBe(404);
  });

  it('an expired token gets 401', async () => {
    const t = (await create(jwt, { name: 'expiring', type: 'batch', years_valid: 1 })).body;
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: t.token_value })).status).toBe(200);
    // Move its expiry into the past in the live database (WAL lets a second writer in).
    const db = new Database(join(svc.dataDir, 'service.db'));
    db.pragma('busy_timeout = 5000');
    db.prepare('UPDATE api_tokens SET expires_at = ? WHERE id = ?').run(new Date(Date.now() - 1000).toISOString(), t.id);
    db.close();
    expect((await call(svc.url, 'account.me', '/api/v3/account/me', { token: t.token_value })).status).toBe(401);
    expect((await call(svc.url, 'models.list', '/api/v3/speech-to-text/models', { s2tKey: t.token_value, headers: JSON_TYPE })).status).toBe(401);
  });
});

describe('language models', () => {
  let key: string;
  beforeAll(async () => {
    key = must((await create(jwt, { name: 'models', type: 'batch', years_valid: 1 })).body.token_value, 'token_value');
  });

  it('lists models, with the locally installed engine language marked engine_supported', async () => {
    const res = await call(svc.url, 'models.list', '/api/v3/speech-to-text/models', { s2tKey: key, headers: JSON_TYPE });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(res.body.result.length);
    const en = must(res.body.result.find((m) => m.key === 'en-US'), 'en-US');
    // pocketsphinx-en-us is installed on this machine (/usr/share/pocketsphinx/model/en-us).
    expect(en).toMatchObject({ bcp47: 'en-US', engine_supported: true, is_private: false });
    expect(typeof en.id).toBe('number');
    const de = must(res.body.result.find((m) => m.key === 'de-DE'), 'de-DE');
    expect(de.engine_supported).toBe(false);
  });

  it('has_punctuation is false everywhere: pocketsphinx, the only engine here, writes no punctuation', async () => {
    const res = await call(svc.url, 'models.list', '/api/v3/speech-to-text/models', { s2tKey: key, headers: JSON_TYPE });
    expect(res.body.result.every((m) => m.has_punctuation === false)).toBe(true);
    const punctuated = await call(svc.url, 'models.list', '/api/v3/speech-to-text/models?filter=has_punctuation:eq:true', { s2tKey: key, headers: JSON_TYPE });
    expect(punctuated.body).toMatchObject({ count: 0, total_results: 0 });
    const supported = await call(svc.url, 'models.list', '/api/v3/speech-to-text/models?filter=engine_supported:eq:true,has_punctuation:eq:false', { s2tKey: key, headers: JSON_TYPE });
    expect(supported.body.result.map((m) => m.key)).toEqual(['en-US']);
  });

  it('needs content-type application/json (415) and filters is_trainable:eq:true; a malformed filter is 422', async () => {
    expect((await call(svc.url, 'models.list', '/api/v3/speech-to-text/models', { s2tKey: key })).status).toBe(415);
    expect((await call(svc.url, 'models.list', '/api/v3/speech-to-text/models', { s2tKey: key, headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    const all = (await call(svc.url, 'models.list', '/api/v3/speech-to-text/models', { s2tKey: key, headers: JSON_TYPE })).body.result;
    const trainable = await call(svc.url, 'models.list', '/api/v3/speech-to-text/models?filter=is_trainable:eq:true', { s2tKey: key, headers: JSON_TYPE });
    expect(trainable.status).toBe(200);
    expect(trainable.body.result.length).toBeGreaterThan(0);
    expect(trainable.body.result.length).toBeLessThan(all.length);
    expect(trainable.body.result.every((m) => m.is_trainable)).toBe(true);
    for (const bad of ['is_trainable', 'is_trainable:eq', 'is_trainable:gt:true', 'is_trainable:eq:yes', 'password:eq:x', ':::']) {
      const res = await call(svc.url, 'GET', `/api/v3/speech-to-text/models?filter=${encodeURIComponent(bad)}`, { s2tKey: key, headers: JSON_TYPE });
      expect(res.status, bad).toBe(422);
      expect(typeof errorOf(res).error).toBe('string');
    }
  });
});
