/**
 * Webhook delivery against https receivers on a test network (fake DNS, our certificate trusted,
 * 127.0.0.2 exempt), with the strict production policy: https, no bare IP, private ranges refused.
 * Timeout (1 s) and retry schedule (1 s apart) are shortened through the service's construction.
 * Legacy receivers that answer 500 then 200, or hang past the timeout; the address re-checked at
 * delivery time; and a batch webhook without webhook_secret (sent unsigned).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookPayload } from '../../../common/api';
import { stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { readServiceDb } from '../../helpers/service-db';
import { client, jobDone, putMedia, until, uploadedFileId, type Client } from './helpers';
import { FakeDns, Receiver, selfSignedCertificate, startTestNetworkService, TEST_ADDRESS } from './test-network';

const TIMEOUT_MS = 1000;
const RETRY_SEC = [1, 1, 1, 1];
const LEGACY = '/api/v3/speech-to-text/session';

let dir: string;
let dns: FakeDns;
let receiver: Receiver;
let svc: RunningService;
let c: Client;

beforeAll(async () => {
  dir = tempDir('s2t-webhook-delivery-');
  const tls = selfSignedCertificate(dir, ['hooks.test.example', 'moving.test.example']);
  receiver = await new Receiver(tls).listen();
  dns = new FakeDns(dir);
  dns.set('hooks.test.example', TEST_ADDRESS);
  dns.set('moving.test.example', TEST_ADDRESS);
  svc = await startTestNetworkService({ dns, caFile: tls.certFile, webhookTimeoutMs: TIMEOUT_MS, webhookRetryScheduleSec: RETRY_SEC });
  c = await client(svc.url);
}, 60_000);

afterAll(async () => {
  await stopAndRemove(svc, dir);
  await receiver?.close();
});

interface DeliveryRow {
  delivery_id: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

const deliveriesTo = (path: string) =>
  readServiceDb(svc.dataDir, (db) => db.prepare('SELECT delivery_id, status, attempts, last_error FROM webhook_deliveries WHERE url LIKE ?').all(`%${path}`) as DeliveryRow[]);

/** A legacy session in upload mode (no speech engine needed) whose callback goes to `url`; completes once its text is PUT. */
async function legacySession(url: string): Promise<{ sid: string; finish(): Promise<void> }> {
  const created = await c.json('sessions.create', LEGACY, { language: 'en', session_mode: 'upload', webhook_url: url }, { 'x-svc-s2t-key': c.batchKey });
  expect(created.status, created.text).toBe(200);
  const sid = created.body.result.session_id as string;
  return {
    sid,
    async finish() {
      const put = await putMedia(c, sid, 'Some given text.', { 'content-type': 'text/plain' });
      expect(put.status).toBe(200);
      await until('session completed', async () => (await c.json('sessions.get', `${LEGACY}/${sid}`)).body.result.status === 'completed', 20_000);
    },
  };
}

const hookUrl = (host: string, path: string) => `https://${host}:${receiver.port}${path}`;

describe('legacy callback delivery', () => {
  it('a receiver that answers 500 then 200 gets the same delivery again after the retry delay, then no more', async () => {
    receiver.script('/legacy/flaky', 500, 200);
    const s = await legacySession(hookUrl('hooks.test.example', '/legacy/flaky'));
    await s.finish();
    await until('the retry', async () => receiver.on('/legacy/flaky').length >= 2, 15_000);
    const [first, second] = receiver.on('/legacy/flaky');
    expect([first.answered, second.answered]).toEqual([500, 200]);
    expect(second.headers['x-svc-delivery']).toBe(first.headers['x-svc-delivery']);
    expect(second.body).toBe(first.body);
    expect(JSON.parse(second.body)).toEqual({ session_id: s.sid, status: 'completed' });
    expect(second.at - first.at).toBeGreaterThanOrEqual(RETRY_SEC[0] * 1000 - 100);
    await new Promise((r) => setTimeout(r, 2500));
    expect(receiver.on('/legacy/flaky')).toHaveLength(2);
    expect(deliveriesTo('/legacy/flaky')).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2, last_error: null })]);
  });

  it('a receiver that hangs is cut off at the timeout, and the delivery is retried', async () => {
    receiver.script('/legacy/hang', 'hang', 200);
    const s = await legacySession(hookUrl('hooks.test.example', '/legacy/hang'));
    await s.finish();
    // Between the cut-off and the retry the row says why the attempt failed.
    const failedOnce = await until('the first attempt to time out', async () => deliveriesTo('/legacy/hang').find((d) => d.attempts === 1), 15_000, 50);
    expect(failedOnce).toMatchObject({ status: 'pending', last_error: 'timed out' });
    await until('the retry', async () => receiver.on('/legacy/hang').length >= 2, 15_000);
    const [hung, retried] = receiver.on('/legacy/hang');
    // The service closed the hung connection after about the timeout, not the production 20 s.
    expect(hung.closedAt! - hung.at).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(hung.closedAt! - hung.at).toBeLessThan(TIMEOUT_MS + 1500);
    expect(retried.headers['x-svc-delivery']).toBe(hung.headers['x-svc-delivery']);
    expect(retried.answered).toBe(200);
    await until('delivered', async () => deliveriesTo('/legacy/hang')[0]?.status === 'delivered', 5000, 100);
  });

  it('a receiver that keeps failing gets one attempt plus one per scheduled retry, then the delivery is given up', async () => {
    receiver.script('/legacy/down', ...Array<number>(20).fill(500));
    const s = await legacySession(hookUrl('hooks.test.example', '/legacy/down'));
    await s.finish();
    const gaveUp = await until('given up', async () => deliveriesTo('/legacy/down').find((d) => d.status === 'failed'), 20_000, 100);
    expect(gaveUp).toMatchObject({ attempts: RETRY_SEC.length + 1, last_error: 'receiver answered 500' });
    await new Promise((r) => setTimeout(r, 2500));
    const hits = receiver.on('/legacy/down');
    expect(hits).toHaveLength(RETRY_SEC.length + 1);
    for (let i = 1; i < hits.length; i++) expect(hits[i].at - hits[i - 1].at).toBeGreaterThanOrEqual(RETRY_SEC[i - 1] * 1000 - 100);
  });

  it('the address is checked again at delivery: a name that moved to a private address gets nothing until it moves back', async () => {
    const s = await legacySession(hookUrl('moving.test.example', '/legacy/moving'));
    // Accepted at create time (it resolved to the exempt address); now it points into a private range.
    dns.set('moving.test.example', '10.0.0.9');
    await s.finish();
    const refused = await until('a refused attempt', async () => deliveriesTo('/legacy/moving').find((d) => d.attempts >= 1), 15_000, 100);
    expect(refused.status).toBe('pending');
    expect(refused.last_error).toMatch(/moving\.test\.example is on this computer or a private network.*resolves to a private/);
    expect(receiver.on('/legacy/moving')).toEqual([]);
    dns.set('moving.test.example', TEST_ADDRESS);
    await until('the delivery after the name moved back', async () => receiver.on('/legacy/moving').length === 1, 15_000);
    expect(JSON.parse(receiver.on('/legacy/moving')[0].body)).toEqual({ session_id: s.sid, status: 'completed' });
  });
});

describe('batch webhook without webhook_secret', () => {
  it('is sent unsigned: no X-Svc-Signature, the other headers and the payload as documented', async () => {
    const fileId = await uploadedFileId(c, 'Unsigned hello.', 'given.txt');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload', webhook_url: hookUrl('hooks.test.example', '/signed/unsigned') });
    expect(job.status, job.text).toBe(200);
    await jobDone(c, job.body.job_id);
    await until('the delivery', async () => receiver.on('/signed/unsigned').length >= 1, 15_000);
    const hit = receiver.on('/signed/unsigned')[0];
    expect(hit.headers['x-svc-signature']).toBeUndefined();
    expect(hit.headers['x-svc-event']).toBe('completed');
    expect(hit.headers['content-type']).toBe('application/json');
    const payload = WebhookPayload.parse(JSON.parse(hit.body));
    expect(payload).toMatchObject({ event: 'completed', job_id: job.body.job_id, status: 'completed', error: null, delivery_id: hit.headers['x-svc-delivery'] });
  });
});
