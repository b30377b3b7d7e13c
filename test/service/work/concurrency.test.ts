/**
 * The engine concurrency bound, read from the transitions table: each job's engine time is from its
 * pending>processing row to its processing>completed row. With --engine-concurrency 1 two jobs
 * submitted together never overlap; with 2 they do (so the measure can see an overlap at all).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { client, jobDone, uploadedFileId, type Client } from './helpers';
import { transitionsOf } from './test-network';

const TEXT = 'The weather today is sunny and warm. Many people walk in the park with their dogs.';

let wav: Buffer<ArrayBuffer>;
const services: RunningService[] = [];

beforeAll(async () => {
  wav = readFileSync(await speechWav(TEXT));
});

afterAll(async () => {
  for (const s of services) await stopAndRemove(s);
});

interface Span {
  jobId: string;
  start: number;
  end: number;
}

/** Starts a service with the given limit, submits two jobs at once, waits for both; their engine spans. */
async function twoJobs(limit: number): Promise<Span[]> {
  const svc = await startService({ args: ['--engine-concurrency', String(limit)] });
  services.push(svc);
  const c: Client = await client(svc.url);
  const fileIds = await Promise.all(['a.wav', 'b.wav'].map((name) => uploadedFileId(c, wav, name)));
  const jobs = await Promise.all(fileIds.map((file_id) => c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id, language: 'en' })));
  const spans: Span[] = [];
  for (const job of jobs) {
    expect((await jobDone(c, job.body.job_id)).status).toBe('completed');
    const steps = transitionsOf(svc.dataDir, 'job', job.body.job_id);
    expect(steps.map((s) => s.step)).toEqual(['>pending', 'pending>processing', 'processing>completed']);
    spans.push({ jobId: job.body.job_id, start: Date.parse(steps[1].at), end: Date.parse(steps[2].at) });
  }
  return spans.sort((a, b) => a.start - b.start);
}

describe('engine concurrency', () => {
  it('with a limit of 1, two jobs submitted together run one after the other', async () => {
    const [first, second] = await twoJobs(1);
    console.log(`limit 1: job A ${first.end - first.start} ms, job B starts ${second.start - first.end} ms after A ends`);
    expect(second.start).toBeGreaterThanOrEqual(first.end);
  }, 120_000);

  it('with a limit of 2, the same two jobs overlap', async () => {
    const [first, second] = await twoJobs(2);
    console.log(`limit 2: job B starts ${second.start - first.start} ms after A, A ends ${first.end - second.start} ms after B starts`);
    expect(second.start).toBeLessThan(first.end);
  }, 120_000);
});
