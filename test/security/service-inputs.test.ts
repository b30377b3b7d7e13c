/**
 * Inputs that reached past their checks, over real HTTP:
 * - webhook_headers with `X-Svc-Session: x` then `x-svc-session: FORGED` delivered the forged
 *   session id (and could forge the delivery id and content type): names compared by case;
 * - `?sort=constructor` / `?sort=__proto__` found a prototype property and answered 500 on every list.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopAndRemove, type RunningService } from '../helpers/service';
import { errorOf } from '../service/answers';
import { client, putMedia, sessionDone, until, type Client } from '../service/work/helpers';

let svc: RunningService;
let c: Client;
let receiver: Server;
let rurl: string;
const hits: { path: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume().on('end', () => {
      hits.push({ path: req.url ?? '', headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  rurl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await startService({ args: ['--allow-private-webhooks'] });
  c = await client(svc.url);
}, 60_000);

afterAll(async () => {
  await stopAndRemove(svc);
  await new Promise((r) => receiver.close(r));
});

const create = (headers: string[], path = '/legacy') =>
  c.json('POST', '/api/v3/speech-to-text/session', { language: 'en', session_mode: 'upload', webhook_url: `${rurl}${path}`, webhook_headers: headers }, { 'x-svc-s2t-key': c.batchKey });

describe('webhook_headers', () => {
  it.each([
    [['X-Svc-Session: x', 'x-svc-session: FORGED'], /X-Svc-Session is set by the service/],
    [['x-svc-delivery: FORGED'], /x-svc-delivery is set by the service/],
    [['CONTENT-TYPE: text/plain'], /CONTENT-TYPE is set by the service/],
    [['X-Alt-Session: FORGED'], /X-Alt-Session is set by the service/],
    [['X-Ticket: 1', 'x-ticket: 2'], /x-ticket is given twice/],
    [['no colon here'], /must be "Name: value"/],
  ])('refuses %j with a reason', async (lines, reason) => {
    const res = await create(lines);
    expect(res.status).toBe(422);
    expect(errorOf(res).error).toMatch(reason);
  });

  it("delivers the caller's own headers beside the service's, which keep their values", async () => {
    const created = await create(['X-Ticket: T-7', 'x-other: yes'], '/kept');
    expect(created.status).toBe(200);
    const sid = (created.body as { result: { session_id: string } }).result.session_id;
    expect((await putMedia(c, sid, 'Some given text.', { 'content-type': 'text/plain' })).status).toBe(200);
    expect((await sessionDone(c, sid)).status).toBe('completed');
    const hit = await until('the callback', async () => hits.find((h) => h.path === '/kept'), 15_000);
    expect(hit.headers['x-svc-session']).toBe(sid);
    expect(hit.headers['x-alt-session']).toBe(sid);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-ticket']).toBe('T-7');
    expect(hit.headers['x-other']).toBe('yes');
  });
});

describe('?sort= on lists', () => {
  const lists = ['/api/v3/speech-to-text/session', '/api/v3/folders', '/api/v4/glossaries', '/api/v3/invoices', '/api/v3/user_preferences'];
  it.each(lists.flatMap((l) => ['constructor', '__proto__'].map((k) => [l, k])))('%s?sort=%s is a 422 naming the keys', async (list, key) => {
    const res = await c.json('GET', `${list}?sort=${key}`);
    expect(res.status).toBe(422);
    expect(errorOf(res).error).toMatch(/sort must be one of/);
  });
});
