/**
 * What a team server's workers run, as one machine would run it: a real redis-server, the API
 * node (`--queue`, a processing quota of 36 s a month) and two worker processes, one for the
 * recordings (`--engines decode,align,upload`) and one for documents (`--engines
 * translate,summarize`). A glossary's terms are heard on a worker; the quota is charged and
 * enforced for jobs that workers run; translation and summaries run on the worker that
 * advertised them, and a pair no worker has is refused in words; a job naming a speech engine goes
 * only to a worker that runs it (a third worker with a generated Whisper model). Runs in
 * `npm run test:team`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServiceDb } from '../../helpers/service-db';
import { cleanup, ROOT, startService, tempDir, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { tinyWhisperModelFile } from '../../helpers/whisper-model';
import { addWorker, distributedTests, startRedis, startWorker, type RedisServer, type RunningWorker } from '../../helpers/team';
import { codedError, errorOf, must } from '../answers';
import { bodyOf, client, docOf, jobDone, PASSAGE, transcriptOf, uploadedFileId, type Client } from '../work/helpers';

describe.skipIf(!distributedTests)('a team server with a worker for recordings and one for documents', () => {
  let redis: RedisServer;
  let svc: RunningService;
  let dataDir: string;
  let c: Client;
  let recordings: RunningWorker;
  let documents: RunningWorker;

  const jobsDone = (name: string) => readServiceDb(dataDir, (db) => db.prepare('SELECT jobs_done FROM workers WHERE name = ?').pluck().get(name) as number);
  const text = (doc: Parameters<typeof transcriptOf>[0]) => transcriptOf(doc).segments.flatMap((s) => s.words.map((w) => w.text)).join(' ');

  /** A 16 kHz mono WAV of `seconds` of digital silence. */
  function silentWav(seconds: number): Uint8Array<ArrayBuffer> {
    const file = join(dataDir, `silence-${seconds}.wav`);
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', String(seconds), '-c:a', 'pcm_s16le', file]);
    return new Uint8Array(readFileSync(file));
  }

  async function transcribe(file: Uint8Array<ArrayBuffer>, name: string, extra: Record<string, unknown> = {}) {
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, file, name), language: 'en', ...extra });
    expect(job.status, job.text).toBe(200);
    return jobDone(c, job.body.job_id, 150_000);
  }

  beforeAll(async () => {
    redis = await startRedis();
    dataDir = tempDir('s2t-team-work-');
    svc = await startService({ dataDir, args: ['--queue', redis.url, '--org-processing-hours', '0.01'] });
    c = await client(svc.url);
    const [k1, k2] = await Promise.all([addWorker(dataDir, 'rec'), addWorker(dataDir, 'docs')]);
    [recordings, documents] = await Promise.all([
      startWorker({ name: 'rec', key: k1, queueUrl: redis.url, serviceUrl: svc.url, args: ['--engines', 'decode,align,upload'] }),
      startWorker({ name: 'docs', key: k2, queueUrl: redis.url, serviceUrl: svc.url, args: ['--engines', 'translate,summarize'] }),
    ]);
  }, 300_000); // four processes under tsx, on a machine that may be loaded

  afterAll(async () => {
    await recordings?.stop();
    await documents?.stop();
    await svc?.stop();
    await redis?.stop();
    if (dataDir) cleanup(dataDir);
  });

  describe('a worker hears what the job asks for', () => {
    it('advertises only the engines it was given', () => {
      expect(recordings.queues).toEqual(expect.arrayContaining(['s2t-decode-en', 's2t-align-en', 's2t-upload']));
      expect(recordings.queues.filter((q) => /^s2t-(translate|summarize)/.test(q))).toEqual([]);
      expect(documents.queues).toEqual(expect.arrayContaining(['s2t-summarize', 's2t-translate-eng-spa']));
      expect(documents.queues.filter((q) => /^s2t-(decode|align|upload)/.test(q))).toEqual([]);
    });

    it('a glossary\'s made-up product name is heard, and offensive words are left out, on the worker', async () => {
      const g = await c.json('glossaries.create', '/api/v4/glossaries', { name: 'products', source_language: 'en', target_language: 'es', entries: [{ source: 'Zorbatron', target: 'Zorbatron' }] });
      expect(g.status, g.text).toBe(201);
      const wav = await speechWav('We will ship the Zorbatron next week. Every customer wants a Zorbatron.');
      const done = await transcribe(new Uint8Array(readFileSync(wav)), 'product.wav', { glossary_id: g.body.result.id });
      expect(done.status, done.error ?? '').toBe('completed');
      const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${done.job_id}/result`);
      const doc = docOf(result.body.documents, 'document');
      expect(text(doc).split(' ').filter((w) => w === 'Zorbatron').length, text(doc)).toBeGreaterThanOrEqual(1);
      expect(must(doc.document, 'the transcript body').metadata.vocabulary).toMatchObject({ offensive_words: 'left out', glossary_words: 1, pronounced_by_rules: ['zorbatron'] });
    }, 200_000);
  });

  describe('the processing quota, for jobs that workers run', () => {
    it('charges each job once, fails one that would pass the month with the reason, and lets one that fits run', async () => {
      const used = () => readServiceDb(dataDir, (db) => (db.prepare('SELECT SUM(seconds) FROM processing_usage').pluck().get() as number | null) ?? 0);
      const before = used();
      expect(before).toBeGreaterThan(2); // the glossary's recording, charged by its worker
      const over = await transcribe(silentWav(40), 'long.wav');
      expect(over.status).toBe('failed');
      expect(over.error).toMatch(/^This recording is 40 s long, and your organization has had \d+ s of media processed this month; it would pass the limit of 36 s \(--org-processing-hours\)/);
      expect(used()).toBe(before);
      const fits = await transcribe(silentWav(10), 'short.wav');
      expect(fits.status, fits.error ?? '').toBe('completed');
      expect(used()).toBeCloseTo(before + 10, 1);
      const charged = readServiceDb(dataDir, (db) => db.prepare('SELECT charged_seconds FROM jobs WHERE job_id = ?').pluck().get(fits.job_id) as number);
      expect(charged).toBeCloseTo(10, 1);
    }, 200_000);
  });

  describe('translation and summaries run on the worker that advertised them', () => {
    let path: string;

    beforeAll(async () => {
      const done = await transcribe(new Uint8Array(Buffer.from(PASSAGE)), 'given.txt', { session_mode: 'upload' });
      expect(done.status, done.error ?? '').toBe('completed');
      const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${done.job_id}/result`);
      path = `/api/v3/speech-to-text/session/${result.body.session_id}/document/${docOf(result.body.documents, 'document').id}`;
    }, 200_000);

    it('translates on the documents worker', async () => {
      const before = { docs: jobsDone('docs'), rec: jobsDone('rec') };
      const es = await c.json('documents.translate', `${path}/translate`, { target_language: 'ES' });
      expect(es.status, es.text).toBe(200);
      expect(es.body.language).toBe('es');
      expect(text(es.body)).toMatch(/perros/);
      expect(jobsDone('docs')).toBe(before.docs + 1);
      expect(jobsDone('rec')).toBe(before.rec);
    }, 120_000);

    it('summarizes on the documents worker', async () => {
      const before = jobsDone('docs');
      const res = await fetch(`${svc.url}${path}/export/summarize`, { method: 'POST', headers: c.bearer });
      const body = (await res.json()) as { summary: string };
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.summary.length).toBeGreaterThan(20);
      expect(PASSAGE).toContain(body.summary.split(' … ')[0].replace(/\s+/g, ' ').slice(0, 20));
      expect(jobsDone('docs')).toBe(before + 1);
    }, 120_000);

    it('a pair no worker has is refused at once, and the targets say which pairs the workers have', async () => {
      const fr = await c.json('POST', `${path}/translate`, { target_language: 'FR' });
      expect(fr.status).toBe(501);
      expect(codedError(fr)).toMatchObject({ code: 'TRANSLATION_ENGINE_MISSING' });
      expect(codedError(fr).message).toMatch(/^No translation engine for en -> FR is installed on any worker of this team server; install the Apertium pair eng-fra/);
      const targets = await c.json('documents.translateTargets', `${path}/translate`);
      expect(targets.body.languages.find((l) => l.code === 'ES')).toMatchObject({ available: true });
      expect(targets.body.languages.find((l) => l.code === 'FR')).toMatchObject({ available: false, reason: 'No translation engine for EN -> FR is installed on any worker of this team server.' });
    });
  });
  describe('a job that names a speech engine', () => {
    const ENGINE = 'whisper:generated';
    let modelDir: string;
    let modelKey: string;
    const startModelWorker = () => startWorker({ name: 'model', key: modelKey, queueUrl: redis.url, serviceUrl: svc.url, args: ['--engines', 'decode'], dataDir: modelDir });
    const status = async (jobId: string) => (await c.json('batch.job', `/api/v3/batch/jobs/${jobId}`)).body.status;

    beforeAll(async () => {
      modelDir = tempDir('s2t-team-model-');
      execFileSync(process.execPath, ['--import', 'tsx', 'service/cli.ts', 'models', 'import', tinyWhisperModelFile().path, '--name', 'generated', '--data', modelDir], { cwd: ROOT, stdio: 'ignore' });
      modelKey = await addWorker(dataDir, 'model');
    }, 120_000);
    afterAll(() => cleanup(modelDir));

    it('goes only to a worker that runs that engine, and waits for one rather than failing elsewhere', async () => {
      const wav = new Uint8Array(readFileSync(await speechWav('hello there')));
      const submit = async () => c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, wav, 'named.wav'), language: 'en', speech_engine: ENGINE });
      // No worker has said it runs the model yet (the API node has none either): refused at once.
      const early = await submit();
      expect(early.status).toBe(422);
      expect(errorOf(early).error).toMatch(/"whisper:generated" is not installed on any worker of this team server \(they run: pocketsphinx\)/);

      const model = await startModelWorker();
      // Its own queue for the model, and German among its languages (pocketsphinx has English only).
      expect(model.queues).toEqual(expect.arrayContaining(['s2t-decode--whisper-generated', 's2t-decode--pocketsphinx', 's2t-decode-de', 's2t-decode-en']));
      expect(recordings.queues).toContain('s2t-decode--pocketsphinx');
      expect(recordings.queues.filter((q) => q.endsWith('--whisper-generated') || q === 's2t-decode-de')).toEqual([]);
      const german = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, wav, 'named.wav'), language: 'de', speech_engine: 'pocketsphinx' });
      expect(errorOf(german).error).toMatch(/no worker of this team server runs "pocketsphinx" for decode in language "de"/);
      const first = await submit();
      expect(first.status, first.text).toBe(200);
      const done = await jobDone(c, first.body.job_id, 150_000);
      expect(done.status, done.error ?? '').toBe('completed');
      const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${done.job_id}/result`);
      expect(bodyOf(docOf(result.body.documents, 'document')).metadata.engine).toBe(ENGINE);
      const recDone = jobsDone('rec');
      expect(jobsDone('model')).toBe(1);

      // With the model's worker away, a named job waits on its queue: the pocketsphinx worker, idle, never takes it.
      await model.stop();
      const second = await submit();
      expect(second.status, second.text).toBe(200);
      await new Promise((r) => setTimeout(r, 4000));
      expect(await status(second.body.job_id)).toMatch(/^(queued|pending)$/);
      expect(jobsDone('rec')).toBe(recDone);
      const back = await startModelWorker();
      try {
        expect((await jobDone(c, second.body.job_id, 150_000)).status).toBe('completed');
        expect(jobsDone('model')).toBe(2);
      } finally {
        await back.stop();
      }
    }, 400_000);
  });
});
