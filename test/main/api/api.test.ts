import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, Credentials, MalformedResponseError, batchTokenName, serverWaitMs, signPayload, verifySignature, type AuthSource } from '../../../main/api';
import { MemorySecretStore } from '../../../main/platform/secrets';
import { DEMO, cleanup, serviceLogin, startService, type RunningService } from '../../helpers/service';
import { fakeCloud, json } from '../helpers/fake-cloud';

const staticAuth = (token: string, onUnauthorized: (id: string) => void = () => {}): AuthSource => ({
  accessToken: async () => token,
  batchKey: async () => null,
  invalidateBatchKey: async () => {},
  unauthorized: onUnauthorized,
});

const session = (i: number) => ({ session_id: `s${i}`, duration: 1, error: null, filename: `f${i}.wav`, media_type: 'audio/wav', media_url: '', language: 'en' });

describe('api client against a misbehaving cloud', () => {
  it('turns a malformed response into a typed error naming the route and the field', async () => {
    const cloud = await fakeCloud((_r, res) => json(res, 200, { count: 1, total_results: 1, result: [{ ...session(1), duration: 'long' }] }));
    try {
      const client = new ApiClient({ baseUrl: cloud.url, auth: staticAuth('t') });
      const err = await client.call('sessions.list', { query: { limit: 10 } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MalformedResponseError);
      const m = err as MalformedResponseError;
      expect(m.routeId).toBe('sessions.list');
      expect(m.field).toBe('result.0.duration');
      expect(m.message).toContain('sessions.list');
      expect(m.message).toContain('result.0.duration');
      const notJson = await fakeCloud((_r, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('<html>oops'); });
      const e2 = await new ApiClient({ baseUrl: notJson.url, auth: staticAuth('t') }).call('account.me').catch((e: unknown) => e);
      expect(e2).toBeInstanceOf(MalformedResponseError);
      expect((e2 as ApiError).message).toMatch(/account\.me.*not JSON/);
      await notJson.close();
    } finally {
      await cloud.close();
    }
  });

  it('normalises the three error shapes into one ApiError', async () => {
    const bodies = [
      { error: 'limit: too big' },
      { error: 'not_found', error_description: 'document not found', status: 404 },
      { error: { code: 'INVALID_FILE_FORMAT', message: 'bad file', details: { supported_formats: ['wav'] } } },
    ];
    const cloud = await fakeCloud((_r, res, n) => json(res, [422, 404, 400][n - 1], bodies[n - 1]));
    try {
      const client = new ApiClient({ baseUrl: cloud.url, auth: staticAuth('t') });
      const errs = [];
      for (let i = 0; i < 3; i++) errs.push((await client.call('account.me').catch((e: unknown) => e)) as ApiError);
      expect(errs.map((e) => [e.status, e.code, e.message])).toEqual([
        [422, 'HTTP_422', 'limit: too big'],
        [404, 'not_found', 'document not found'],
        [400, 'INVALID_FILE_FORMAT', 'bad file'],
      ]);
      expect(errs[2].details).toEqual({ supported_formats: ['wav'] });
    } finally {
      await cloud.close();
    }
  });

  it('retries idempotent requests on 429/503 honouring Retry-After, but never a POST', async () => {
    const times: number[] = [];
    const cloud = await fakeCloud((r, res, n) => {
      times.push(Date.now());
      if (r.method === 'POST') return json(res, 503, { error: 'busy' });
      if (n === 1) return json(res, 429, { error: 'slow down' }, { 'retry-after': '1' });
      if (n === 2) return json(res, 503, { error: 'busy' });
      json(res, 200, { result: { email: 'a@b.c', first_name: '', last_name: '', newsletter: false, roles: [], two_factor_active: false, is_active: true, id: 1, identity_provider: 'local' } });
    });
    try {
      const client = new ApiClient({ baseUrl: cloud.url, auth: staticAuth('t'), backoffMs: 10 });
      const me = await client.call('account.me');
      expect(me.result.email).toBe('a@b.c');
      expect(cloud.seen).toHaveLength(3);
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(950); // waited for Retry-After: 1
      const before = cloud.seen.length;
      const err = (await client.call('documents.copy', { params: { sessionId: 's' }, body: { source_document_id: 'd', new_filename: 'x' } }).catch((e: unknown) => e)) as ApiError;
      expect(err.status).toBe(503);
      expect(cloud.seen.length - before).toBe(1);
    } finally {
      await cloud.close();
    }
  });

  it('reads X-RateLimit-Reset when the window is spent', () => {
    const now = 1_700_000_000_000;
    const h = new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 7) });
    expect(serverWaitMs(h, now)).toBe(7000);
    expect(serverWaitMs(new Headers({ 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': String(now / 1000 + 7) }), now)).toBeNull();
    expect(serverWaitMs(new Headers({ 'retry-after': new Date(now + 3000).toUTCString() }), now)).toBe(3000);
  });

  it('signs out on a Bearer 401 but not on a magic-link 401', async () => {
    const cloud = await fakeCloud((_r, res) => json(res, 401, { error: 'token expired' }));
    try {
      const signedOut: string[] = [];
      const client = new ApiClient({ baseUrl: cloud.url, auth: staticAuth('t', (id) => signedOut.push(id)) });
      await expect(client.call('account.me')).rejects.toMatchObject({ status: 401 });
      await expect(client.call('sessions.shared', { params: { sessionId: 's' }, query: { token: 'magic' } })).rejects.toMatchObject({ status: 401 });
      expect(signedOut).toEqual(['account.me']);
      expect(cloud.seen[1].url).toContain('token=magic');
      expect(cloud.seen[1].headers.authorization).toBeUndefined();
    } finally {
      await cloud.close();
    }
  });

  it('times out and can be cancelled', async () => {
    const cloud = await fakeCloud(() => {}); // never answers
    try {
      const client = new ApiClient({ baseUrl: cloud.url, auth: staticAuth('t'), retries: 0 });
      await expect(client.call('account.me', {}, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'TIMEOUT', status: 0 });
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      await expect(client.call('account.me', {}, { signal: ac.signal, timeoutMs: 5000 })).rejects.toMatchObject({ code: 'ABORTED' });
    } finally {
      await cloud.close();
    }
  });

  it('reads the next page ahead only when asked, and a caller that stops early cancels it', async () => {
    let cutOff = false;
    const cloud = await fakeCloud((r, res) => {
      const offset = Number(new URL(r.url, 'http://x').searchParams.get('offset'));
      if (offset === 4) {
        res.on('close', () => (cutOff = true)); // never answered: only the client can end it
        return;
      }
      json(res, 200, { count: 2, total_results: 6, result: [session(offset), session(offset + 1)] });
    });
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
      return done();
    };
    try {
      const client = new ApiClient({ baseUrl: cloud.url, auth: staticAuth('t'), retries: 0 });
      // Without read-ahead, nothing more is asked while the caller holds the first page.
      for await (const page of client.pages('sessions.list', {}, { pageSize: 2 })) {
        expect(page.offset).toBe(0);
        await new Promise((r) => setTimeout(r, 100));
        expect(cloud.seen).toHaveLength(1);
        break;
      }
      cloud.seen.length = 0;
      // With it, page 2 is asked for while page 1 is handled, page 3 while page 2 is; stopping
      // there cancels the request for page 3.
      const offsets: number[] = [];
      for await (const page of client.pages('sessions.list', {}, { pageSize: 2, readAhead: true })) {
        offsets.push(page.offset);
        expect(await until(() => cloud.seen.length === offsets.length + 1)).toBe(true);
        if (page.offset === 2) break;
      }
      expect(offsets).toEqual([0, 2]);
      expect(await until(() => cutOff)).toBe(true);
    } finally {
      await cloud.close();
    }
  });

  it('verifies X-Svc-Signature', () => {
    const body = '{"event":"completed"}';
    const sig = signPayload(body, 'secret-1234');
    expect(verifySignature(body, sig, 'secret-1234')).toBe(true);
    expect(verifySignature(body, `sha256=${sig}`, 'secret-1234')).toBe(true);
    expect(verifySignature(body + ' ', sig, 'secret-1234')).toBe(false);
    expect(verifySignature(body, sig, 'other-secret')).toBe(false);
    expect(verifySignature(body, sig.slice(2), 'secret-1234')).toBe(false);
    expect(verifySignature(body, null, 'secret-1234')).toBe(false);
  });
});

describe('api client against the local service', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(async () => {
    await svc?.stop();
    if (svc) cleanup(svc.dataDir);
  });

  it('creates a batch key once for x-svc-s2t-key routes, keeps it as a secret, and pages the nested tokens envelope', async () => {
    const token = await serviceLogin(svc.url, DEMO);
    const secrets = new MemorySecretStore();
    const client = new ApiClient({ baseUrl: svc.url });
    const creds = new Credentials(secrets, svc.url, client, () => {});
    client.setAuth(creds);
    await creds.setAccessToken(token);
    const [a, b] = await Promise.all([client.call('models.list', { query: {} }), client.call('models.list', { query: {} })]);
    expect(a.result.length).toBeGreaterThan(0);
    expect(b.total_results).toBe(a.total_results);
    const key = await secrets.get(`batch-key@${svc.url}`);
    expect(key).toBeTruthy();
    // Make more tokens so the nested envelope spans pages of 2.
    for (let i = 0; i < 3; i++) await client.call('tokens.create', { body: { name: `extra ${i}`, type: 'realtime', years_valid: 1 } });
    const names: string[] = [];
    let pages = 0;
    for await (const page of client.pages('tokens.list', {}, { pageSize: 2 })) {
      pages++;
      names.push(...page.items.map((t) => t.name));
    }
    expect(pages).toBe(2);
    expect(names.filter((n) => n === batchTokenName())).toHaveLength(1);
    expect(names).toHaveLength(4);
    // Listed tokens never carry the full value again.
    const all = await client.call('tokens.list', { query: { limit: 10 } });
    expect(all.result.result.every((t) => t.token_value === undefined || t.token_value !== key)).toBe(true);
  });
});
