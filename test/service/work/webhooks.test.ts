/**
 * Webhooks against a local receiver over real HTTP: the newer signed callback (signature, wrong
 * secret, retries after 500 with one delivery id, durable across a kill -9), the legacy callback's
 * headers and body, and refused addresses (no request ever reaches the receiver).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookPayload } from '../../../common/api';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { errorOf } from '../answers';
import { client, jobDone, putMedia, until, uploadedFileId, type Client } from './helpers';

const SECRET = 'receiver-secret-0123';

interface Hit {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  signatureOk: boolean;
  answered: number;
}

let receiver: Server;
let rurl: string;
const hits: Hit[] = [];
/** Status the receiver answers, by path; default 200 (401 when the signature does not verify). */
const failFirst = new Map<string, number>();

let svc: RunningService;
let c: Client;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const sig = String(req.headers['x-svc-signature'] ?? '');
      const want = createHmac('sha256', SECRET).update(body).digest('hex');
      const signatureOk = sig.length === want.length && timingSafeEqual(Buffer.from(sig), Buffer.from(want));
      const path = req.url ?? '';
      let status = 200;
      const left = failFirst.get(path) ?? 0;
      if (left > 0) {
        failFirst.set(path, left - 1);
        status = 500;
      } else if (path.startsWith('/signed') && !signatureOk) status = 401;
      hits.push({ path, method: req.method ?? '', headers: req.headers, body, signatureOk, answered: status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  rurl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await startService({ args: ['--allow-private-webhooks'] });
  c = await client(svc.url);
}, 180_000); // on a team server (npm run test:team) this starts redis-server, the API node and a worker, each under tsx

afterAll(async () => {
  await stopAndRemove(svc);
  await new Promise((r) => receiver.close(r));
});

const hitsOn = (path: string) => hits.filter((h) => h.path === path);

describe('newer signed callback', () => {
  it('is signed with webhook_secret, retried after a 500 with the same delivery id', async () => {
    failFirst.set('/signed/ok', 1);
    const fileId = await uploadedFileId(c, 'Hello world.', 'given.txt');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload', webhook_url: `${rurl}/signed/ok`, webhook_secret: SECRET, webhook_events: ['completed', 'failed'] });
    expect(job.status).toBe(200);
    await jobDone(c, job.body.job_id);
    await until('two deliveries', async () => hitsOn('/signed/ok').length >= 2, 20_000);
    const [first, second] = hitsOn('/signed/ok');
    expect(first.answered).toBe(500);
    expect(second.answered).toBe(200);
    expect(second.signatureOk).toBe(true);
    expect(second.method).toBe('POST');
    expect(second.headers['content-type']).toBe('application/json');
    expect(second.headers['x-svc-event']).toBe('completed');
    expect(first.headers['x-svc-delivery']).toBe(second.headers['x-svc-delivery']);
    expect(first.body).toBe(second.body);
    const payload = WebhookPayload.parse(JSON.parse(second.body));
    expect(payload).toMatchObject({ event: 'completed', job_id: job.body.job_id, status: 'completed', error: null, delivery_id: second.headers['x-svc-delivery'] });
    await new Promise((r) => setTimeout(r, 2500));
    expect(hitsOn('/signed/ok')).toHaveLength(2); // delivered: no more attempts
  });

  it('a wrong secret gives a signature the receiver refuses; failed events carry the error', async () => {
    const fileId = await uploadedFileId(c, 'Hello again.', 'given.txt');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload', webhook_url: `${rurl}/signed/wrong`, webhook_secret: 'not-the-receivers-secret', webhook_events: ['completed'] });
    await jobDone(c, job.body.job_id);
    await until('a delivery', async () => hitsOn('/signed/wrong').length >= 1, 10_000);
    const hit = hitsOn('/signed/wrong')[0];
    expect(hit.headers['x-svc-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(hit.signatureOk).toBe(false);
    expect(hit.answered).toBe(401);
    expect(hit.headers['x-svc-signature']).toBe(createHmac('sha256', 'not-the-receivers-secret').update(hit.body).digest('hex'));

    const badWav = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEjunk', 'latin1'), Buffer.alloc(2000, 1)]);
    const bad = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, badWav, 'bad.wav'), language: 'en', webhook_url: `${rurl}/signed/failed`, webhook_secret: SECRET, webhook_events: ['failed'] });
    await jobDone(c, bad.body.job_id);
    await until('a failed delivery', async () => hitsOn('/signed/failed').length >= 1, 10_000);
    const p = WebhookPayload.parse(JSON.parse(hitsOn('/signed/failed')[0].body));
    expect(p.event).toBe('failed');
    expect(p.error).toMatch(/media file could not be/);
  });
});

describe('legacy callback', () => {
  it('sends X-Svc-Session, X-Alt-Session, Content-Type and the given headers, with no results in the body', async () => {
    const created = await c.json(
      'sessions.create',
      '/api/v3/speech-to-text/session',
      { language: 'en', session_mode: 'upload', webhook_url: `${rurl}/legacy`, webhook_method: 'PUT', webhook_headers: ['X-Custom: yes'] },
      { 'x-svc-s2t-key': c.batchKey },
    );
    expect(created.status).toBe(200);
    const sid = created.body.result.session_id;
    const put = await putMedia(c, sid, 'Some given text.', { 'content-type': 'text/plain' });
    expect(put.status).toBe(200);
    const done = await until('session end', async () => {
      const s = (await c.json('sessions.get', `/api/v3/speech-to-text/session/${sid}`)).body.result;
      return s.status === 'completed' || s.status === 'failed' ? s : null;
    });
    expect(done.status, JSON.stringify(done) + svc.stderr().slice(-1500)).toBe('completed');
    await until('the legacy callback', async () => hitsOn('/legacy').length >= 1, 15_000);
    const hit = hitsOn('/legacy')[0];
    expect(hit.method).toBe('PUT');
    expect(hit.headers['x-svc-session']).toBe(sid);
    expect(hit.headers['x-alt-session']).toBe(sid);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-custom']).toBe('yes');
    expect(JSON.parse(hit.body)).toEqual({ session_id: sid, status: 'completed' });
  });
});

describe('refused addresses', () => {
  it('without --allow-private-webhooks: http, loopback, bare IP and private addresses are refused, nothing is sent', async () => {
    const strict = await startService();
    try {
      const sc = await client(strict.url);
      for (const url of [`${rurl}/refused`, 'https://127.0.0.1/x', 'https://localhost/x', 'https://[::1]/x', 'https://169.254.169.254/latest', 'https://10.1.2.3/x']) {
        const r = await sc.json('POST', '/api/v3/speech-to-text/session', { language: 'en', webhook_url: url }, { 'x-svc-s2t-key': sc.batchKey });
        expect(r.status, url).toBe(422);
        expect(errorOf(r).error).toMatch(/webhook_url refused/);
      }
      const fileId = await uploadedFileId(sc, 'x', 'given.txt');
      const j = await sc.json('POST', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload', webhook_url: `${rurl}/refused`, webhook_secret: SECRET });
      expect(j.status).toBe(422);
      // Only this path: a late delivery of an earlier test may reach the receiver meanwhile.
      expect(hitsOn('/refused')).toEqual([]);
    } finally {
      await stopAndRemove(strict);
    }
  });

  it('the flag does not loosen the media_source guard', async () => {
    for (const src of [`${rurl}/media.wav`, 'http://169.254.169.254/latest/meta-data', 'file:///etc/passwd']) {
      const r = await c.json('POST', '/api/v3/speech-to-text/session', { language: 'en', media_source: src }, { 'x-svc-s2t-key': c.batchKey });
      expect(r.status, src).toBe(422);
    }
    // The one address the receiver answers for was never asked (a late delivery of an earlier test may reach it meanwhile).
    expect(hitsOn('/media.wav')).toEqual([]);
  });
});

describe('durable deliveries', () => {
  it('a pending delivery survives kill -9 and is delivered after the restart', async () => {
    failFirst.set('/signed/durable', 1000);
    const fileId = await uploadedFileId(c, 'Durable.', 'given.txt');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload', webhook_url: `${rurl}/signed/durable`, webhook_secret: SECRET });
    await jobDone(c, job.body.job_id);
    await until('a failed first attempt', async () => hitsOn('/signed/durable').length >= 1, 10_000);
    await svc.kill();
    failFirst.set('/signed/durable', 0);
    svc = await startService({ dataDir: svc.dataDir, args: ['--allow-private-webhooks'] });
    await until('the delivery after restart', async () => hitsOn('/signed/durable').some((h) => h.answered === 200), 20_000);
    const all = hitsOn('/signed/durable');
    expect(new Set(all.map((h) => h.headers['x-svc-delivery'])).size).toBe(1);
    expect(all.at(-1)!.signatureOk).toBe(true);
  });
});
