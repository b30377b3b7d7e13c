/**
 * The worker protocol of a team server, driven by hand over real HTTP against the API node with a
 * real redis-server: routing by engine and language, the worker key, and the lease that makes a
 * result apply once (a superseded, cancelled or repeated one is refused or recognised).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_VERSION } from '../../../common/transcript/model';
import { readServiceDb } from '../../helpers/service-db';
import { DEMO, ROOT, serviceLogin, startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { addWorker, startRedis, type RedisServer } from '../../helpers/team';
import { must } from '../answers';
import { client, until, uploadedFileId, type Client } from '../work/helpers';
import { readFileSync } from 'node:fs';

let redis: RedisServer;
let svc: RunningService;
let c: Client;
let key: string;
let wav: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  redis = await startRedis();
  svc = await startService({ args: ['--queue', redis.url] });
  c = await client(svc.url);
  key = await addWorker(svc.dataDir, 'hand');
  wav = new Uint8Array(readFileSync(await speechWav('one two three')));
}, 180_000); // redis-server and the API node under tsx start slowly on a loaded machine

afterAll(async () => {
  await stopAndRemove(svc);
  await redis?.stop();
});

async function call(path: string, body: unknown, auth = `Worker ${key}`): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${svc.url}/worker/v1${path}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const queued = (jobId: string) =>
  until(`${jobId} on the queue`, async () =>
    readServiceDb(svc.dataDir, (db) => db.prepare('SELECT queue_name, queued_attempt FROM jobs WHERE job_id = ? AND queued_attempt IS NOT NULL').get(jobId) as { queue_name: string; queued_attempt: number } | undefined),
  );

async function newJob(language = 'en'): Promise<string> {
  const fileId = await uploadedFileId(c, wav, 'n.wav', 'audio/wav');
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language });
  expect(job.status).toBe(200);
  return job.body.job_id;
}

const result = (lease: unknown) => ({
  lease,
  duration_sec: 1.2,
  waveform: null,
  metadata: { engine: 'hand' },
  transcript: { kind: 'transcript', version: CONTENT_VERSION, speakers: [], segments: [{ id: 's1', speaker_id: null, start_ms: 0, end_ms: 900, words: [{ text: 'one', start_ms: 0, end_ms: 900, confidence: 0.9 }] }] },
});

const documentsOf = (jobId: string) => readServiceDb(svc.dataDir, (db) => db.prepare('SELECT COUNT(*) FROM documents WHERE job_id = ?').pluck().get(jobId) as number);

describe('the worker protocol', () => {
  it('puts a job on the queue of its engine and language', async () => {
    expect((await queued(await newJob('en'))).queue_name).toBe('s2t-decode-en');
    expect((await queued(await newJob('fr-FR'))).queue_name).toBe('s2t-decode-fr-fr');
  });

  it('opens the worker routes to a worker key only, and no user route to it', async () => {
    const jobId = await newJob();
    expect((await call(`/jobs/${jobId}/claim`, { attempt_tag: 0 }, '')).status).toBe(401);
    expect((await call(`/jobs/${jobId}/claim`, { attempt_tag: 0 }, `Bearer ${await serviceLogin(svc.url, DEMO)}`)).status).toBe(401);
    expect((await call(`/jobs/${jobId}/claim`, { attempt_tag: 0 }, `Worker ${key.slice(0, -2)}xx`)).status).toBe(401);
    const asUser = await fetch(`${svc.url}/api/v3/batch/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } });
    expect(asUser.status).toBe(401);
    // A new `worker add` of the same name replaces the key: the old one stops working.
    const replaced = await addWorker(svc.dataDir, 'spare');
    await addWorker(svc.dataDir, 'spare');
    expect((await call(`/jobs/${jobId}/claim`, { attempt_tag: 0 }, `Worker ${replaced}`)).status).toBe(401);
  });

  it('applies a result once: a superseded lease is refused, a repeat is recognised', async () => {
    const jobId = await newJob();
    const { queued_attempt } = await queued(jobId);
    const first = await call(`/jobs/${jobId}/claim`, { attempt_tag: queued_attempt });
    expect(first.body.status).toBe('claimed');
    // The queue hands the job on (the first holder's lock expired): a new lease supersedes the first.
    const second = await call(`/jobs/${jobId}/claim`, { attempt_tag: queued_attempt });
    expect(second.body.lease).not.toBe(first.body.lease);
    expect((await call(`/jobs/${jobId}/progress`, { lease: first.body.lease, percent: 50 })).body).toEqual({ keep: false });
    expect((await call(`/jobs/${jobId}/progress`, { lease: second.body.lease, percent: 50 })).body).toEqual({ keep: true });
    expect((await call(`/jobs/${jobId}/result`, result(first.body.lease))).status).toBe(409);
    expect(documentsOf(jobId)).toBe(0);
    expect((await call(`/jobs/${jobId}/result`, result(second.body.lease))).body).toEqual({ outcome: 'applied' });
    expect((await call(`/jobs/${jobId}/result`, result(second.body.lease))).body).toEqual({ outcome: 'duplicate' });
    expect(documentsOf(jobId)).toBe(2);
    expect((await c.json('batch.job', `/api/v3/batch/jobs/${jobId}`)).body.status).toBe('completed');
    // Late claims of a finished job, or of a stale queue entry, get nothing to run.
    expect((await call(`/jobs/${jobId}/claim`, { attempt_tag: queued_attempt })).body.status).toBe('gone');
    expect((await call(`/jobs/${(await newJob())}/claim`, { attempt_tag: 7 })).body.status).toBe('gone');
  });

  it('tells the holder of a cancelled job to stop, and refuses its result', async () => {
    const jobId = await newJob();
    const { queued_attempt } = await queued(jobId);
    const claim = await call(`/jobs/${jobId}/claim`, { attempt_tag: queued_attempt });
    expect((await c.json('POST', `/api/v3/batch/jobs/${jobId}/cancel`)).status).toBe(200);
    expect((await call(`/jobs/${jobId}/progress`, { lease: claim.body.lease, percent: 60 })).body).toEqual({ keep: false });
    expect((await call(`/jobs/${jobId}/result`, result(claim.body.lease))).status).toBe(409);
    expect(documentsOf(jobId)).toBe(0);
  });

  it('refuses a result that is not a transcript, with the field that is wrong', async () => {
    const jobId = await newJob();
    const { queued_attempt } = await queued(jobId);
    const claim = await call(`/jobs/${jobId}/claim`, { attempt_tag: queued_attempt });
    const bad = await call(`/jobs/${jobId}/result`, { ...result(claim.body.lease), transcript: { kind: 'transcript', segments: 'none' } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('transcript.');
  });

  it('charges a job\'s length to the processing quota once, for its current lease only', async () => {
    const jobId = await newJob();
    const { queued_attempt } = await queued(jobId);
    const first = await call(`/jobs/${jobId}/claim`, { attempt_tag: queued_attempt });
    const second = await call(`/jobs/${jobId}/claim`, { attempt_tag: queued_attempt });
    const used = () => readServiceDb(svc.dataDir, (db) => (db.prepare('SELECT SUM(seconds) FROM processing_usage').pluck().get() as number | null) ?? 0);
    const before = used();
    expect((await call(`/jobs/${jobId}/charge`, { lease: first.body.lease, duration_sec: 12.5 })).status).toBe(409);
    expect((await call(`/jobs/${jobId}/charge`, { lease: second.body.lease, duration_sec: 12.5 })).body).toEqual({ over: null });
    // The worker that takes it over next (or a retry) measures it again: it is not charged twice.
    const third = await call(`/jobs/${jobId}/claim`, { attempt_tag: queued_attempt });
    expect((await call(`/jobs/${jobId}/charge`, { lease: third.body.lease, duration_sec: 12.5 })).body).toEqual({ over: null });
    expect(used()).toBeCloseTo(before + 12.5, 3);
  });

  it('hands a translation to a worker that advertised its pair and answers the request with the worker\'s lines, once', async () => {
    // A document to translate: this hand worker completes an upload job.
    const jobId = await newJob();
    const { queued_attempt } = await queued(jobId);
    const claim = await call(`/jobs/${jobId}/claim`, { attempt_tag: queued_attempt });
    expect((await call(`/jobs/${jobId}/result`, result(claim.body.lease))).body).toEqual({ outcome: 'applied' });
    const done = await c.json('batch.jobResult', `/api/v3/batch/jobs/${jobId}/result`);
    const docId = must(done.body.documents.find((d) => d.type === 'document'), 'the transcript').id;
    const path = `/api/v3/speech-to-text/session/${done.body.session_id}/document/${docId}/translate`;

    // No worker has said it translates: refused at once, in words.
    const refused = await c.json('POST', path, { target_language: 'ES' });
    expect(refused.status).toBe(501);
    expect(refused.text).toMatch(/installed on any worker of this team server/);

    const hello = await call('/hello', { capabilities: [{ engine: 'translate', languages: ['eng-spa'] }], machine: { cores: 1, memory_mb: 1, free_disk_mb: null, version: 'hand' } });
    expect(hello.body.queues).toEqual(['s2t-translate-eng-spa']);
    const asked = c.json('documents.translate', path, { target_language: 'ES' });
    const queue = new Queue('s2t-translate-eng-spa', { connection: { url: redis.url } });
    try {
      const entry = await until('the translation on the queue', async () => (await queue.getWaiting())[0]);
      expect(entry.data).toMatchObject({ document: true });
      const workId = entry.data.job_id as string;
      const a = await call(`/work/${workId}/claim`, {});
      expect(a.body).toMatchObject({ status: 'claimed', work: { kind: 'translate', mode: 'eng-spa', lines: ['one'] } });
      const b = await call(`/work/${workId}/claim`, {}); // taken over: the first holder's lock ran out
      expect((await call(`/work/${workId}/progress`, { lease: a.body.lease })).body).toEqual({ keep: false });
      expect((await call(`/work/${workId}/result`, { lease: a.body.lease, output: { kind: 'translate', lines: ['uno (a)'] } })).status).toBe(409);
      expect((await call(`/work/${workId}/result`, { lease: b.body.lease, output: { kind: 'translate', lines: ['uno'] } })).body).toEqual({ outcome: 'applied' });
      expect((await call(`/work/${workId}/result`, { lease: b.body.lease, output: { kind: 'translate', lines: ['uno'] } })).body).toEqual({ outcome: 'duplicate' });
      const es = await asked;
      expect(es.status, es.text).toBe(200);
      expect(es.body.language).toBe('es');
      expect(must(es.body.document, 'the translated body').content).toMatchObject({ segments: [{ words: [{ text: 'uno' }] }] });
      expect((await call(`/work/${workId}/claim`, {})).body.status).toBe('gone');
    } finally {
      await queue.close();
    }
  });

  it('prints a worker key alone on the last line of worker add', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'service/cli.ts'), 'worker', 'add', 'printed', '--data', svc.dataDir], { cwd: ROOT, encoding: 'utf8' });
    expect(out.trim().split('\n').at(-1)).toMatch(/^s2tw_printed_[A-Za-z0-9_-]{43}$/);
  });
});
