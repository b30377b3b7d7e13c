import Database from 'better-sqlite3';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelope, routes, type RouteId } from '../../../common/api';
import { REFUSED_BODY_DRAIN_BYTES } from '../../../service/http/refused-body';
import { cleanup, DEMO, startService, type RunningService } from '../../helpers/service';
import { errorOf } from '../answers';
import { call, mustAddUser, tokenFor } from './client';

let svc: RunningService;
/** demo: CUSTOMER+DEVELOPER in its own org; admin: SYSOP; boss: ORGADMIN of demo's org; seller: RESELLER; buyer: a customer of seller. */
const T: Record<'demo' | 'admin' | 'boss' | 'seller' | 'buyer' | 'peer', string> = {} as never;

beforeAll(async () => {
  svc = await startService();
  // Several CLI processes writing at once: the WAL and busy_timeout make them queue, not fail.
  await Promise.all([
    mustAddUser(svc.dataDir, 'admin@example.com', 'admin-password', ['SYSOP']),
    mustAddUser(svc.dataDir, 'boss@example.com', 'boss-password', ['ORGADMIN'], ['--org-of', DEMO.email]),
    mustAddUser(svc.dataDir, 'seller@example.com', 'seller-password', ['RESELLER']).then(() =>
      mustAddUser(svc.dataDir, 'buyer@example.com', 'buyer-password', ['CUSTOMER'], ['--customer-of', 'seller@example.com']),
    ),
    mustAddUser(svc.dataDir, 'peer@example.com', 'peer-password', ['CUSTOMER', 'ORGADMIN']),
  ]);
  T.demo = await tokenFor(svc.url, DEMO.email, DEMO.password);
  await Promise.all((['admin', 'boss', 'seller', 'buyer', 'peer'] as const).map(async (k) => (T[k] = await tokenFor(svc.url, `${k}@example.com`, `${k}-password`))));
});
afterAll(async () => {
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

const get = <K extends RouteId>(route: K, token: string, path: string) => call(svc.url, route, path, { token });
/** A list route read by its path alone (the loop over the table): the envelope, parsed here. */
const raw = (token: string, path: string) => call(svc.url, 'GET', path, { token });
const Page = envelope(z.unknown());

/** Every parameterless list route of the table, by the role it needs. */
const LIST_ROUTES = Object.entries(routes).filter(([, r]) => r.paged === 'envelope' && !r.path.includes('{') && r.auth === 'bearer');
const needs = (path: string) => (path.includes('/admin/') ? 'admin' : path.includes('/reseller/') ? 'reseller' : path.includes('/organization/') ? 'organization' : 'anyone');

describe('every list endpoint of the route table', () => {
  it('exists, follows the envelope, and enforces its role with 403', async () => {
    expect(LIST_ROUTES.length).toBeGreaterThanOrEqual(20);
    for (const [id, r] of LIST_ROUTES) {
      const who = needs(r.path);
      const allowed = who === 'admin' ? T.admin : who === 'reseller' ? T.seller : who === 'organization' ? T.boss : T.demo;
      const ok = await raw(allowed, r.path);
      expect(ok.status, id).toBe(200);
      const page = Page.parse(ok.body);
      expect(page.count, id).toBe(page.result.length);
      expect(page.total_results, id).toBeGreaterThanOrEqual(page.count);
      expect(ok.headers.get('x-ratelimit-limit'), id).toMatch(/^\d+$/);
      if (who !== 'anyone') {
        const refused = await raw(T.demo, r.path);
        expect(refused.status, id).toBe(403);
        expect(typeof errorOf(refused).error).toBe('string');
      }
      if (who === 'reseller' || who === 'organization') expect((await raw(T.admin, r.path)).status, `${id} as SYSOP`).toBe(200);
      expect((await call(svc.url, 'GET', r.path)).status, id).toBe(401);
      expect((await raw(allowed, `${r.path}?limit=101`)).status, `${id} limit 101`).toBe(422);
      expect((await raw(allowed, `${r.path}?limit=0`)).status, `${id} limit 0`).toBe(422);
      expect((await raw(allowed, `${r.path}?offset=-1`)).status, `${id} offset -1`).toBe(422);
      expect((await raw(allowed, `${r.path}?direction=up`)).status, `${id} direction`).toBe(422);
      expect((await raw(allowed, `${r.path}?sort=no_such_column`)).status, `${id} sort`).toBe(422);
      const past = await raw(allowed, `${r.path}?offset=100000`);
      expect(past.status, id).toBe(200);
      expect(Page.parse(past.body).count, id).toBe(0);
      expect(Page.parse(past.body).total_results, id).toBe(page.total_results);
    }
  });

  it('organization users lists only the caller\'s organization', async () => {
    const mine = await get('organization.users', T.boss, '/api/v3/organization/user');
    expect(mine.body.result.map((u) => u.email).sort()).toEqual(['boss@example.com', DEMO.email]);
    expect(mine.body.result[0]).toMatchObject({ roles: expect.any(Array), is_active: true });
    const theirs = await get('organization.users', T.peer, '/api/v3/organization/user');
    expect(theirs.body.result.map((u) => u.email)).toEqual(['peer@example.com']);
  });

  it('reseller customers are the reseller\'s customer organizations only', async () => {
    const res = await get('reseller.customers', T.seller, '/api/v3/reseller/customer');
    expect(res.body.result.map((o) => o.name)).toEqual(["buyer@example.com's organization"]);
    expect((await get('reseller.customers', T.seller, '/api/v3/reseller/customer?q=nobody')).body.count).toBe(0);
    expect((await get('reseller.customers', T.buyer, '/api/v3/reseller/customer')).status).toBe(403);
  });

  it('admin customers span every organization, with q', async () => {
    const all = await get('admin.customers', T.admin, '/api/v3/admin/customer?limit=100');
    expect(all.body.total_results).toBe(5);
    const one = await get('admin.customers', T.admin, '/api/v3/admin/customer?q=seller');
    expect(one.body.result).toHaveLength(1);
    expect(one.body.result[0].user_count).toBe(1);
    const lang = await get('admin.languageConfig', T.admin, '/api/v3/admin/languageconfig?q=english&sort=key&direction=asc');
    expect(lang.body.result.map((m) => m.key)).toEqual(['en-GB', 'en-US']);
  });

  it('the subscription is the organization\'s own, on the local plan', async () => {
    const res = await get('subscription.list', T.demo, '/api/v3/subscription');
    expect(res.body.count).toBe(1);
    expect(res.body.result[0]).toMatchObject({ plan_name: 'local', status: 'active' });
  });

  it('team lists: a team of the organization lists its users, another organization\'s team is 404', async () => {
    const db = new Database(join(svc.dataDir, 'service.db'));
    db.pragma('busy_timeout = 5000');
    const orgOf = (email: string) => (db.prepare('SELECT org_id, id FROM users WHERE email = ?').get(email) as { org_id: number; id: number });
    const demo = orgOf(DEMO.email);
    const peer = orgOf('peer@example.com');
    const team = Number(db.prepare("INSERT INTO org_groups (org_id, name, created_at) VALUES (?, 'editors', '2026-01-01T00:00:00Z')").run(demo.org_id).lastInsertRowid);
    db.prepare('INSERT INTO org_group_members (group_id, user_id) VALUES (?, ?)').run(team, demo.id);
    const peerTeam = Number(db.prepare("INSERT INTO org_groups (org_id, name, created_at) VALUES (?, 'theirs', '2026-01-01T00:00:00Z')").run(peer.org_id).lastInsertRowid);
    db.close();
    expect((await get('organization.groups', T.boss, '/api/v3/organization/group')).body.result.map((g) => g.name)).toEqual(['editors']);
    const members = await get('organization.groupUsers', T.boss, `/api/v3/organization/group/${team}/users`);
    expect(members.status).toBe(200);
    expect(members.body.result.map((u) => u.email)).toEqual([DEMO.email]);
    expect((await get('organization.groupUsers', T.boss, `/api/v3/organization/group/${peerTeam}/users`)).status).toBe(404);
    expect((await get('organization.groupUsers', T.demo, `/api/v3/organization/group/${team}/users`)).status).toBe(403);
    expect((await get('organization.groupUsers', T.boss, '/api/v3/organization/group/abc/users')).status).toBe(404);
  });
});

describe('folders', () => {
  it('create, read, update, delete, scoped to the organization', async () => {
    const made = await call(svc.url, 'folders.create', '/api/v3/folders', { token: T.demo, json: { name: 'Interviews' } });
    expect(made.status).toBe(201);
    const f = made.body.result;
    expect(f).toMatchObject({ name: 'Interviews', parent_id: null });
    const child = (await call(svc.url, 'folders.create', '/api/v3/folders', { token: T.demo, json: { name: 'April', parent_id: f.id } })).body.result;
    expect(child.parent_id).toBe(f.id);
    // The org admin of the same organization sees them; another organization does not.
    expect((await get('folders.get', T.boss, `/api/v3/folders/${f.id}`)).status).toBe(200);
    const foreign = await get('folders.get', T.peer, `/api/v3/folders/${f.id}`);
    expect(foreign.status).toBe(404);
    expect(errorOf(foreign)).toMatchObject({ error: 'not_found', status: 404 });
    expect((await get('folders.list', T.peer, '/api/v3/folders')).body.total_results).toBe(0);
    expect((await call(svc.url, 'folders.update', `/api/v3/folders/${f.id}`, { token: T.peer, json: { name: 'mine now' } })).status).toBe(404);
    expect((await call(svc.url, 'folders.delete', `/api/v3/folders/${f.id}`, { token: T.peer })).status).toBe(404);
    expect((await call(svc.url, 'folders.create', '/api/v3/folders', { token: T.peer, json: { name: 'x', parent_id: f.id } })).status).toBe(422);

    const renamed = await call(svc.url, 'folders.update', `/api/v3/folders/${f.id}`, { token: T.demo, json: { name: 'Interviews 2026' } });
    expect(renamed.body.result.name).toBe('Interviews 2026');
    expect((await call(svc.url, 'folders.update', `/api/v3/folders/${f.id}`, { token: T.demo, json: { parent_id: child.id } })).status).toBe(422);
    expect((await call(svc.url, 'folders.update', `/api/v3/folders/${f.id}`, { token: T.demo, json: { parent_id: f.id } })).status).toBe(422);
    expect((await call(svc.url, 'folders.create', '/api/v3/folders', { token: T.demo, json: { name: '' } })).status).toBe(422);

    await call(svc.url, 'POST', '/api/v3/folders', { token: T.demo, json: { name: 'Board meetings' } });
    const sorted = await get('folders.list', T.demo, '/api/v3/folders?sort=name&direction=asc');
    expect(sorted.body.result.map((x) => x.name)).toEqual(['April', 'Board meetings', 'Interviews 2026']);
    expect((await get('folders.list', T.demo, '/api/v3/folders?q=board')).body.result.map((x) => x.name)).toEqual(['Board meetings']);
    expect((await get('folders.list', T.demo, '/api/v3/folders?limit=1&offset=1&sort=name&direction=asc')).body).toMatchObject({ count: 1, total_results: 3, result: [{ name: 'Board meetings' }] });

    expect((await call(svc.url, 'folders.delete', `/api/v3/folders/${f.id}`, { token: T.demo })).body).toEqual({ success: true });
    expect((await get('folders.get', T.demo, `/api/v3/folders/${f.id}`)).status).toBe(404);
    // Its subfolder went with it.
    expect((await get('folders.get', T.demo, `/api/v3/folders/${child.id}`)).status).toBe(404);
  });
});

describe('glossaries (v4)', () => {
  it('supported languages are source/target pairs', async () => {
    const res = await get('glossaries.supportedLanguages', T.demo, '/api/v4/glossaries/supported-languages');
    expect(res.status).toBe(200);
    expect(res.body.result).toContainEqual({ source: 'en', target: 'nl' });
    expect(res.body.result.every((p) => p.source !== p.target)).toBe(true);
  });

  it('create with entries, read with include_entries and limit, update, delete; another organization gets 404', async () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({ source: `term ${i}`, target: `term-nl ${i}` }));
    const made = await call(svc.url, 'glossaries.create', '/api/v4/glossaries', { token: T.demo, json: { name: 'Legal', source_language: 'EN', target_language: 'nl', entries } });
    expect(made.status).toBe(201);
    const g = made.body.result;
    expect(g).toMatchObject({ name: 'Legal', source_language: 'en', target_language: 'nl', entry_count: 30 });
    expect(g.entries).toEqual(entries);

    const plain = await get('glossaries.get', T.demo, `/api/v4/glossaries/${g.id}`);
    expect(plain.body.result.entries).toBeUndefined();
    expect(plain.body.result.entry_count).toBe(30);
    const limited = await get('glossaries.get', T.demo, `/api/v4/glossaries/${g.id}?include_entries=true&limit=5`);
    expect(limited.body.result.entries).toEqual(entries.slice(0, 5));

    expect((await get('glossaries.get', T.peer, `/api/v4/glossaries/${g.id}`)).status).toBe(404);
    expect((await get('glossaries.list', T.peer, '/api/v4/glossaries')).body.total_results).toBe(0);
    expect((await call(svc.url, 'glossaries.update', `/api/v4/glossaries/${g.id}`, { token: T.peer, json: { name: 'x' } })).status).toBe(404);
    expect((await call(svc.url, 'glossaries.delete', `/api/v4/glossaries/${g.id}`, { token: T.peer })).status).toBe(404);

    const updated = await call(svc.url, 'glossaries.update', `/api/v4/glossaries/${g.id}`, { token: T.demo, json: { name: 'Legal terms', entries: [{ source: 'court', target: 'rechtbank' }] } });
    expect(updated.body.result).toMatchObject({ name: 'Legal terms', entry_count: 1, entries: [{ source: 'court', target: 'rechtbank' }] });

    await call(svc.url, 'POST', '/api/v4/glossaries', { token: T.demo, json: { name: 'Medical', source_language: 'de', target_language: null } });
    const list = await get('glossaries.list', T.demo, '/api/v4/glossaries?sort=name&direction=asc');
    expect(list.body.result.map((x) => [x.name, x.entry_count])).toEqual([['Legal terms', 1], ['Medical', 0]]);
    expect((await get('glossaries.list', T.demo, '/api/v4/glossaries?q=medic')).body.count).toBe(1);

    expect((await call(svc.url, 'glossaries.delete', `/api/v4/glossaries/${g.id}`, { token: T.demo })).body).toEqual({ success: true });
    expect((await get('glossaries.get', T.demo, `/api/v4/glossaries/${g.id}`)).status).toBe(404);
  });

  it('refuses unknown languages, equal pairs and bad entries with 422', async () => {
    const post = (json: unknown) => call(svc.url, 'POST', '/api/v4/glossaries', { token: T.demo, json });
    expect((await post({ name: 'x', source_language: 'klingon' })).status).toBe(422);
    expect((await post({ name: 'x', source_language: 'en', target_language: 'en' })).status).toBe(422);
    expect((await post({ name: 'x', source_language: 'en', entries: [{ source: '', target: 'y' }] })).status).toBe(422);
    expect((await post({ source_language: 'en' })).status).toBe(422);
  });
});

describe('errors everywhere', () => {
  it('unknown routes answer 404 in the document error shape', async () => {
    for (const [method, path] of [['GET', '/api/v3/nothing-here'], ['POST', '/api/v3/account/me'], ['GET', '/'], ['DELETE', '/api/v4/glossaries']] as const) {
      const res = await call(svc.url, method, path, { token: T.demo });
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ error: 'not_found', status: 404, error_description: expect.any(String) });
    }
  });

  it('an oversized body is 413 with {error}, the upload ends cleanly, and the service still answers', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(17 * 1024 * 1024) });
    // The service answers as soon as it sees the length, then reads and drops the rest: closing
    // with unread bytes would reset the connection and could destroy the answer (seen in CI as a
    // lost 413). So no write error is expected, several times over.
    for (let i = 0; i < 5; i++) {
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${svc.url}/api/v3/folders`, { method: 'POST', headers: { authorization: `Bearer ${T.demo}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(big) } }, (answer) => {
          let body = '';
          answer.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end(big);
      });
      expect(res.status).toBe(413);
      expect(typeof (JSON.parse(res.body) as { error: string }).error).toBe('string');
    }
    expect((await get('account.me', T.demo, '/api/v3/account/me')).status).toBe(200);
  });

  it('a refused body longer than the drain bound is cut off, and the service still answers', async () => {
    // A bare TCP client: Node's http client stops signalling 'drain' once the answer has arrived.
    const { port } = new URL(svc.url);
    const declared = REFUSED_BODY_DRAIN_BYTES * 4;
    const outcome = await new Promise<{ answer: string; sent: number; end: string }>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      let sent = 0;
      socket.setEncoding('utf8').on('data', (d: string) => (answer += d));
      socket.on('error', (err: NodeJS.ErrnoException) => resolve({ answer, sent, end: err.code ?? 'error' }));
      socket.on('close', () => resolve({ answer, sent, end: 'closed' }));
      socket.write(`POST /api/v3/folders HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${T.demo}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const pump = () => {
        while (sent < declared && !socket.destroyed) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    expect(outcome.sent).toBeGreaterThan(REFUSED_BODY_DRAIN_BYTES);
    expect(outcome.sent).toBeLessThan(declared);
    expect(['EPIPE', 'ECONNRESET', 'closed']).toContain(outcome.end);
    expect((await get('account.me', T.demo, '/api/v3/account/me')).status).toBe(200);
  });

  it('malformed JSON is 400 with {error}', async () => {
    const res = await call(svc.url, 'POST', '/api/v3/folders', { token: T.demo, headers: { 'content-type': 'application/json' }, form: { '{"name":': '' } });
    expect(res.status).toBe(400);
    expect(typeof errorOf(res).error).toBe('string');
  });
});

/**
 * The lists whose rows nothing in the service creates yet (billing, models, preferences, usage):
 * rows for two organizations are written straight into the live SQLite, then read over HTTP.
 */
describe('seeded lists: scoping, q, ordering and the default limit', () => {
  const ids = { demoOrg: 0, peerOrg: 0, demo: 0, boss: 0, peer: 0 };
  const names = (res: { body: { result: readonly Record<string, unknown>[] } }, key: string) => res.body.result.map((r) => r[key]);
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();
  const OLD = '2020-01-01T00:00:00.000Z';

  beforeAll(() => {
    const db = new Database(join(svc.dataDir, 'service.db'));
    db.pragma('busy_timeout = 5000');
    const user = (email: string) => db.prepare('SELECT id, org_id FROM users WHERE email = ?').get(email) as { id: number; org_id: number };
    const [d, b, p] = [user(DEMO.email), user('boss@example.com'), user('peer@example.com')];
    Object.assign(ids, { demoOrg: d.org_id, peerOrg: p.org_id, demo: d.id, boss: b.id, peer: p.id });
    db.transaction(() => {
      const invoice = db.prepare('INSERT INTO invoices (org_id, number, amount_cents, issued_at) VALUES (?, ?, ?, ?)');
      // 30 for demo's organization: amounts go down as dates go up, so the two orders differ.
      for (let i = 1; i <= 30; i++) invoice.run(d.org_id, `INV-D-${String(i).padStart(3, '0')}`, 10_000 - i * 100, day(i));
      for (let i = 1; i <= 3; i++) invoice.run(p.org_id, `INV-P-${String(i).padStart(3, '0')}`, 500 * i, day(i));
      const mandate = db.prepare('INSERT INTO mandates (org_id, method, created_at) VALUES (?, ?, ?)');
      mandate.run(d.org_id, 'sepa', day(1));
      mandate.run(d.org_id, 'card', day(2));
      mandate.run(p.org_id, 'paypal', day(1));
      const model = db.prepare('INSERT INTO custom_models (org_id, name, language, status, created_at) VALUES (?, ?, ?, ?, ?)');
      model.run(d.org_id, 'Legal', 'en-US', 'ready', day(1));
      model.run(d.org_id, 'Medical', 'nl-NL', 'training', day(3));
      model.run(d.org_id, 'Brands', 'nl-BE', 'ready', day(2));
      model.run(p.org_id, 'Peer model', 'nl-NL', 'ready', day(1));
      const pref = db.prepare('INSERT INTO user_preferences (user_id, key, value) VALUES (?, ?, ?)');
      pref.run(d.id, 'theme', 'dark');
      pref.run(d.id, 'editor.font_size', '14');
      pref.run(d.id, 'export.format', 'srt');
      pref.run(b.id, 'theme', 'light');
      pref.run(p.id, 'theme', 'sepia');
      const session = db.prepare(
        'INSERT INTO sessions (session_id, org_id, user_id, filename, duration, language, status, created_at, last_modified) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const recent = new Date().toISOString();
      session.run('seed-d-done', d.org_id, d.id, 'interview.wav', 10, 'en-US', 'completed', day(1), OLD);
      session.run('seed-d-stuck', d.org_id, d.id, 'stuck.wav', 20, 'en-US', 'processing', day(1), OLD);
      session.run('seed-p-waiting', p.org_id, p.id, 'waiting.mp3', 5, 'nl-NL', 'queued', day(2), '2020-06-01T00:00:00.000Z');
      session.run('seed-p-fresh', p.org_id, p.id, 'fresh.mp3', 7, 'nl-NL', 'queued', day(3), recent);
    })();
    db.close();
  });

  it('invoices: the organization\'s own, newest first, 25 by default of 30; q and sort', async () => {
    const page = await get('invoices.list', T.demo, '/api/v3/invoices');
    expect(page.body).toMatchObject({ count: 25, total_results: 30 });
    expect(page.body.result[0]).toEqual({ id: expect.any(Number), number: 'INV-D-030', amount_cents: 7_000, issued_at: day(30) });
    expect(names(page, 'number')).toEqual(Array.from({ length: 25 }, (_, i) => `INV-D-${String(30 - i).padStart(3, '0')}`));
    expect((await get('invoices.list', T.demo, '/api/v3/invoices?offset=25')).body).toMatchObject({ count: 5, total_results: 30 });
    expect(names(await get('invoices.list', T.demo, '/api/v3/invoices?q=D-00'), 'number')).toEqual(['INV-D-009', 'INV-D-008', 'INV-D-007', 'INV-D-006', 'INV-D-005', 'INV-D-004', 'INV-D-003', 'INV-D-002', 'INV-D-001']);
    expect((await get('invoices.list', T.demo, '/api/v3/invoices?q=INV-P')).body).toMatchObject({ count: 0, total_results: 0 });
    const cheapest = await get('invoices.list', T.demo, '/api/v3/invoices?sort=amount_cents&direction=asc&limit=3');
    expect(names(cheapest, 'amount_cents')).toEqual([7_000, 7_100, 7_200]);
    const peer = await get('invoices.list', T.peer, '/api/v3/invoices?sort=number&direction=asc');
    expect(names(peer, 'number')).toEqual(['INV-P-001', 'INV-P-002', 'INV-P-003']);
  });

  it('mandates: the organization\'s own, newest first; q is not offered (422)', async () => {
    expect(names(await get('mandates.list', T.demo, '/api/v3/mandates'), 'method')).toEqual(['card', 'sepa']);
    expect(names(await get('mandates.list', T.demo, '/api/v3/mandates?direction=asc'), 'method')).toEqual(['sepa', 'card']);
    expect(names(await get('mandates.list', T.peer, '/api/v3/mandates'), 'method')).toEqual(['paypal']);
    expect((await get('mandates.list', T.demo, '/api/v3/mandates?q=sepa')).status).toBe(422);
  });

  it('custom models: the organization\'s own; q over name and language; sort by name', async () => {
    expect(names(await get('customModels.list', T.demo, '/api/v3/custom_models'), 'name')).toEqual(['Medical', 'Brands', 'Legal']);
    expect(names(await get('customModels.list', T.demo, '/api/v3/custom_models?sort=name&direction=asc'), 'name')).toEqual(['Brands', 'Legal', 'Medical']);
    expect(names(await get('customModels.list', T.demo, '/api/v3/custom_models?q=nl-&sort=name&direction=asc'), 'name')).toEqual(['Brands', 'Medical']);
    expect(names(await get('customModels.list', T.demo, '/api/v3/custom_models?q=leg'), 'name')).toEqual(['Legal']);
    expect((await get('customModels.list', T.demo, '/api/v3/custom_models?q=Peer')).body.total_results).toBe(0);
    expect(names(await get('customModels.list', T.peer, '/api/v3/custom_models'), 'name')).toEqual(['Peer model']);
  });

  it('user preferences: the caller\'s own, not a colleague\'s; by key; q over key and value', async () => {
    const mine = await get('userPreferences.list', T.demo, '/api/v3/user_preferences');
    expect(mine.body.result.map((r) => [r.key, r.value])).toEqual([['editor.font_size', '14'], ['export.format', 'srt'], ['theme', 'dark']]);
    expect(names(await get('userPreferences.list', T.demo, '/api/v3/user_preferences?q=dark'), 'key')).toEqual(['theme']);
    expect(names(await get('userPreferences.list', T.demo, '/api/v3/user_preferences?q=export'), 'key')).toEqual(['export.format']);
    expect(names(await get('userPreferences.list', T.demo, '/api/v3/user_preferences?direction=desc&limit=1'), 'key')).toEqual(['theme']);
    // The organization admin of the same organization has preferences of its own.
    expect(names(await get('userPreferences.list', T.boss, '/api/v3/user_preferences'), 'value')).toEqual(['light']);
    expect(names(await get('userPreferences.list', T.peer, '/api/v3/user_preferences'), 'value')).toEqual(['sepia']);
  });

  it('admin billing spans every organization\'s invoices, with q', async () => {
    const all = await get('admin.billing', T.admin, '/api/v3/admin/billing');
    expect(all.body).toMatchObject({ count: 25, total_results: 33 });
    expect(all.body.result[0]).toMatchObject({ number: 'INV-D-030', org_id: ids.demoOrg });
    const peer = await get('admin.billing', T.admin, '/api/v3/admin/billing?q=INV-P&direction=asc');
    expect(peer.body.result.map((r) => [r.number, r.org_id])).toEqual([['INV-P-001', ids.peerOrg], ['INV-P-002', ids.peerOrg], ['INV-P-003', ids.peerOrg]]);
  });

  it('admin usage sums each organization\'s sessions; usage/traffic counts them by day', async () => {
    const usage = await get('admin.usage', T.admin, '/api/v3/admin/usage?limit=100');
    const row = (org: number) => usage.body.result.find((r) => r.id === org);
    expect(row(ids.demoOrg)).toMatchObject({ sessions: 2, duration: 30 });
    expect(row(ids.peerOrg)).toMatchObject({ sessions: 2, duration: 12 });
    expect(names(usage, 'id')).toEqual([...names(usage, 'id')].sort((a, b) => Number(a) - Number(b)));
    expect(names(await get('admin.usage', T.admin, '/api/v3/admin/usage?q=peer@'), 'id')).toEqual([ids.peerOrg]);
    const traffic = await get('admin.usageTraffic', T.admin, '/api/v3/admin/usage/traffic');
    expect(traffic.body.result).toEqual([
      { id: day(3).slice(0, 10), sessions: 1, duration: 7 },
      { id: day(2).slice(0, 10), sessions: 1, duration: 5 },
      { id: day(1).slice(0, 10), sessions: 2, duration: 30 },
    ]);
    expect((await get('admin.usageTraffic', T.admin, `/api/v3/admin/usage/traffic?q=${day(1).slice(0, 10)}`)).body.result).toEqual([{ id: day(1).slice(0, 10), sessions: 2, duration: 30 }]);
  });

  it('admin stranded: queued or processing and untouched for an hour, oldest first, any organization', async () => {
    const stranded = await get('admin.stranded', T.admin, '/api/v3/admin/stranded');
    expect(stranded.body.result.map((r) => [r.session_id, r.org_id, r.status])).toEqual([
      ['seed-d-stuck', ids.demoOrg, 'processing'],
      ['seed-p-waiting', ids.peerOrg, 'queued'],
    ]);
    expect(names(await get('admin.stranded', T.admin, '/api/v3/admin/stranded?q=waiting'), 'session_id')).toEqual(['seed-p-waiting']);
  });

  it('admin priority queue: every queued session, first come first served, with q', async () => {
    expect(names(await get('admin.priorityQueue', T.admin, '/api/v3/admin/priority-queue'), 'session_id')).toEqual(['seed-p-waiting', 'seed-p-fresh']);
    expect(names(await get('admin.priorityQueue', T.admin, '/api/v3/admin/priority-queue?direction=desc'), 'session_id')).toEqual(['seed-p-fresh', 'seed-p-waiting']);
    expect(names(await get('admin.priorityQueue', T.admin, '/api/v3/admin/priority-queue?q=fresh.mp3'), 'session_id')).toEqual(['seed-p-fresh']);
  });

  it('none of these admin lists opens to a non-admin', async () => {
    for (const path of ['billing', 'usage', 'usage/traffic', 'stranded', 'priority-queue']) {
      for (const who of [T.demo, T.boss, T.seller]) expect((await raw(who, `/api/v3/admin/${path}`)).status, path).toBe(403);
    }
  });
});
