/**
 * Faults against the real service process: kill -9 while a job runs, restart on the same data
 * dir, and the job completes exactly once (one set of documents, one completed transition).
 * Cancellation of running and finished jobs.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { client, jobDone, PASSAGE, until, uploadedFileId, type Client } from './helpers';
import { transitionsOf } from './test-network';

let svc: RunningService;
let c: Client;
let longWav: Buffer<ArrayBuffer>;

beforeAll(async () => {
  // About 30 s of speech, so the engine is surely still running when we kill the service.
  longWav = readFileSync(await speechWav(Array(2).fill(PASSAGE).join(' ')));
  svc = await startService();
  c = await client(svc.url);
}, 60_000);

afterAll(() => stopAndRemove(svc));

describe('faults', () => {
  it('kill -9 during processing, restart: the job completes exactly once', async () => {
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, longWav, 'long.wav'), language: 'en' });
    const jobId = job.body.job_id as string;
    await until('the engine running', async () => {
      const j = await c.json('batch.job', `/api/v3/batch/jobs/${jobId}`);
      return j.body.status === 'processing' && j.body.progress >= 15;
    }, 30_000, 50);
    const running = await c.json('batch.job', `/api/v3/batch/jobs/${jobId}`);
    expect(running.body.estimated_completion).toBeTruthy();
    await svc.kill();

    svc = await startService({ dataDir: svc.dataDir });
    const c2 = await client(svc.url, c.token);
    const done = await jobDone(c2, jobId, 120_000);
    expect(done.status).toBe('completed');
    const result = await c2.json('batch.jobResult', `/api/v3/batch/jobs/${jobId}/result`);
    expect(result.body.documents).toHaveLength(2);
    const docs = await c2.json('documents.list', `/api/v3/speech-to-text/session/${done.metadata.session_id}/document`);
    expect(docs.body.total_results).toBe(2);

    await svc.stop();
    const steps = transitionsOf(svc.dataDir, 'job', jobId);
    expect(steps.map((s) => s.step)).toEqual(['>pending', 'pending>processing', 'processing>pending', 'pending>processing', 'processing>completed']);
    expect(steps.find((s) => s.step === 'processing>pending')!.reason).toMatch(/restarted/);
    svc = await startService({ dataDir: svc.dataDir });
    c = await client(svc.url);
  }, 180_000);

  it('cancel: a running job stops; a finished one cannot be cancelled (409)', async () => {
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, longWav, 'long.wav'), language: 'en' });
    const jobId = job.body.job_id as string;
    await until('processing', async () => (await c.json('batch.job', `/api/v3/batch/jobs/${jobId}`)).body.status === 'processing', 30_000, 50);
    const cancelled = await c.json('batch.jobCancel', `/api/v3/batch/jobs/${jobId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.estimated_completion).toBeNull();
    const s = await c.json('sessions.get', `/api/v3/speech-to-text/session/${cancelled.body.metadata.session_id}`);
    expect(s.body.result).toMatchObject({ status: 'failed', error: 'The job was cancelled.' });
    await new Promise((r) => setTimeout(r, 500));
    expect((await c.json('batch.job', `/api/v3/batch/jobs/${jobId}`)).body.status).toBe('cancelled');
    const again = await c.json('POST', `/api/v3/batch/jobs/${jobId}/cancel`);
    expect(again.status).toBe(409);
    expect((await c.json('batch.jobResult', `/api/v3/batch/jobs/${jobId}/result`)).body.documents).toEqual([]);
  }, 60_000);
});
