/**
 * A team server end to end: one API node (`--queue`), a real redis-server and three worker
 * processes, each with its own empty data folder. Thirty jobs of known speech; one worker is
 * SIGKILLed mid-job, the queue server and then the API node are restarted mid-run; every job
 * completes once with the right transcript, and no result is stored twice.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServiceDb } from '../../helpers/service-db';
import { cleanup, startService, tempDir, type RunningService } from '../../helpers/service';
import { speechWav, wordErrorRate } from '../../helpers/speech';
import { addWorker, startRedis, startWorker, type RedisServer, type RunningWorker } from '../../helpers/team';
import { client, docOf, transcriptText, until, uploadedFileId, type Client } from '../work/helpers';

const PHRASES = ['the weather is nice today and the sun is shining', 'many people walk in the park with their dogs', 'children play football on the green grass'];
const JOBS = 30;

let redis: RedisServer;
let svc: RunningService;
let dataDir: string;
let port: number;
let c: Client;
const workers: RunningWorker[] = [];

interface JobRow {
  job_id: string;
  status: string;
  worker: string | null;
}
const jobRows = () => readServiceDb(dataDir, (db) => db.prepare('SELECT job_id, status, worker FROM jobs').all() as JobRow[]);
const completed = () => jobRows().filter((j) => j.status === 'completed').length;

beforeAll(async () => {
  redis = await startRedis();
  dataDir = tempDir('s2t-team-api-');
  svc = await startService({ dataDir, args: ['--queue', redis.url] });
  port = Number(new URL(svc.url).port);
  c = await client(svc.url);
  const names = ['w1', 'w2', 'w3'];
  const keys = await Promise.all(names.map((name) => addWorker(dataDir, name)));
  workers.push(...(await Promise.all(names.map((name, i) => startWorker({ name, key: keys[i], queueUrl: redis.url, serviceUrl: svc.url, lockSeconds: 3 })))));
}, 180_000);

afterAll(async () => {
  for (const w of workers) await w.stop();
  await svc?.stop();
  await redis?.stop();
  cleanup(dataDir);
});

describe('a team server with three workers', () => {
  it('advertises what each worker runs, read from the engine list and the installed models', () => {
    for (const w of workers) expect(w.queues).toEqual(expect.arrayContaining(['s2t-decode-en', 's2t-decode-en-us', 's2t-align-en', 's2t-upload']));
    expect(workers[0].queues.some((q) => q.startsWith('s2t-decode-fr'))).toBe(false); // no French model here
  });

  it('runs 30 jobs through a worker kill, a queue server restart and an API node restart', async () => {
    const t0 = Date.now();
    const phase = (what: string) => console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what} (${completed()} of ${JOBS} done)`);
    const wavs = await Promise.all(PHRASES.map((p) => speechWav(p)));
    const expected = new Map<string, string>();
    for (let i = 0; i < JOBS; i++) {
      const phrase = i % PHRASES.length;
      const fileId = await uploadedFileId(c, new Uint8Array(readFileSync(wavs[phrase])), `phrase-${i}.wav`, 'audio/wav');
      const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en' });
      expect(job.status).toBe(200);
      expected.set(job.body.job_id, PHRASES[phrase]);
    }

    // A worker dies mid-job: SIGKILL while it holds one.
    const held = await until('a worker holding a job', async () => jobRows().find((j) => j.status === 'processing' && j.worker !== null), 60_000, 50);
    const victim = workers.find((w) => w.name === held.worker)!;
    await victim.kill();
    phase(`killed ${victim.name} holding ${held.job_id}`);

    // The queue server restarts mid-run.
    await until('a few jobs done', async () => completed() >= 8, 180_000);
    await redis.restart();
    phase('queue server restarted');

    // The API node restarts mid-run, on the same port (the workers' --service address).
    await until('more jobs done', async () => completed() >= 16, 180_000);
    await svc.stop();
    svc = await startService({ dataDir, port, args: ['--queue', redis.url] });
    c = await client(svc.url);
    phase('API node restarted');

    await until('every job done', async () => completed() === JOBS, 300_000, 500);
    phase('all done');

    // The killed worker's job was taken over by another and completed there.
    const takeovers = readServiceDb(dataDir, (db) => db.prepare("SELECT entity_id, reason FROM transitions WHERE entity = 'job' AND from_status = 'processing' AND to_status = 'processing'").all() as { entity_id: string; reason: string }[]);
    expect(takeovers.map((t) => t.entity_id)).toContain(held.job_id);
    expect(jobRows().find((j) => j.job_id === held.job_id)!.worker).not.toBe(victim.name);

    // Exactly once: one completion per job, two documents per job, one applied result per job.
    const perJob = readServiceDb(dataDir, (db) => ({
      completions: db.prepare("SELECT entity_id, COUNT(*) AS n FROM transitions WHERE entity = 'job' AND to_status = 'completed' GROUP BY entity_id").all() as { entity_id: string; n: number }[],
      documents: db.prepare('SELECT job_id, COUNT(*) AS n FROM documents GROUP BY job_id').all() as { job_id: string; n: number }[],
      applied: db.prepare('SELECT SUM(jobs_done) FROM workers').pluck().get() as number,
    }));
    expect(perJob.completions).toHaveLength(JOBS);
    expect(perJob.completions.every((r) => r.n === 1)).toBe(true);
    expect(perJob.documents).toHaveLength(JOBS);
    expect(perJob.documents.every((r) => r.n === 2)).toBe(true);
    expect(perJob.applied).toBe(JOBS);

    // The right transcripts: the engine is deterministic, so every job of a phrase has the same
    // text, each phrase's text differs from the others', and it carries words of its phrase.
    const texts = new Map<string, Set<string>>(PHRASES.map((p) => [p, new Set<string>()]));
    for (const [jobId, phrase] of expected) {
      const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${jobId}/result`);
      expect(result.body.status).toBe('completed');
      texts.get(phrase)!.add(transcriptText(docOf(result.body.documents, 'document')));
    }
    const finals = PHRASES.map((p) => [...texts.get(p)!]);
    for (const [i, t] of finals.entries()) {
      expect(t, PHRASES[i]).toHaveLength(1);
      expect(wordErrorRate(PHRASES[i], t[0]), `"${t[0]}" for "${PHRASES[i]}"`).toBeLessThan(0.9);
    }
    expect(new Set(finals.map((t) => t[0])).size).toBe(PHRASES.length);
  }, 600_000);
});
