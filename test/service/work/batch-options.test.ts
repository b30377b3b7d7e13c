/**
 * batch/transcribe's optional keys over real HTTP: glossary_id and custom_model_id must name one of
 * the caller's organization (404 otherwise, also for another organization's); the old name
 * speaker_detection means enable_diarization; enable_timestamps is accepted and words keep times.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { errorOf, must } from '../answers';
import { client, jobDone, otherOrganization, transcriptOf, uploadedFileId, type Client } from './helpers';

let svc: RunningService;
let c: Client;
let other: Client;

beforeAll(async () => {
  svc = await startService();
  c = await client(svc.url);
  other = await otherOrganization(svc, 'options-other@example.com', 'other-password-1');
}, 180_000); // on a team server (npm run test:team) this starts redis-server, the API node and a worker, each under tsx

afterAll(() => stopAndRemove(svc));

async function glossaryOf(cl: Client, name: string): Promise<number> {
  const r = await cl.json('glossaries.create', '/api/v4/glossaries', { name, source_language: 'en', target_language: 'es', entries: [{ source: 'river', target: 'río' }] });
  expect(r.status, r.text).toBe(201);
  return r.body.result.id;
}

/** Custom models have no create endpoint (training is not offered); a row stands for one made elsewhere. */
function customModelOf(email: string, name: string): number {
  const db = new Database(join(svc.dataDir, 'service.db'));
  try {
    const { org_id } = db.prepare('SELECT org_id FROM users WHERE email = ?').get(email) as { org_id: number };
    return Number(db.prepare("INSERT INTO custom_models (org_id, name, language, status, created_at) VALUES (?, ?, 'en', 'ready', ?)").run(org_id, name, new Date().toISOString()).lastInsertRowid);
  } finally {
    db.close();
  }
}

describe('glossary_id and custom_model_id', () => {
  it('an own id is accepted and kept in the job metadata; unknown, malformed or another organization\'s ids get 404', async () => {
    const fileId = await uploadedFileId(c, 'Hello world.', 'given.txt');
    const mine = await glossaryOf(c, 'mine');
    const theirs = await glossaryOf(other, 'theirs');
    const myModel = customModelOf('demo@example.com', 'my model');
    const theirModel = customModelOf('options-other@example.com', 'their model');
    const transcribe = (extra: Record<string, unknown>) => c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload', ...extra });

    for (const refused of [{ glossary_id: theirs }, { glossary_id: 987654 }, { glossary_id: 'abc' }, { custom_model_id: theirModel }, { custom_model_id: String(987654) }, { glossary_id: mine, custom_model_id: theirModel }]) {
      const r = await transcribe(refused);
      expect(r.status, JSON.stringify(refused)).toBe(404);
      expect(errorOf(r)).toMatchObject({ error: 'not_found', status: 404 });
      expect(errorOf(r).error_description).toMatch(Object.keys(refused).at(-1) === 'custom_model_id' ? /^custom_model_id/ : /^glossary_id/);
    }
    // The refused calls made no job: the organization still has no session.
    expect((await c.json('sessions.list', '/api/v3/speech-to-text/session')).body.total_results).toBe(0);

    const ok = await transcribe({ glossary_id: String(mine), custom_model_id: myModel });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.metadata).toMatchObject({ glossary_id: mine, custom_model_id: myModel });
    expect((await jobDone(c, ok.body.job_id)).status).toBe('completed');
  });
});

describe('old names and timestamps', () => {
  it('speaker_detection is enable_diarization; enable_timestamps false is accepted and words keep their times', async () => {
    const wav = await speechWav('The weather today is sunny and warm.');
    const fileId = await uploadedFileId(c, readFileSync(wav), 'short.wav');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', speaker_detection: true, enable_timestamps: false });
    expect(job.status, job.text).toBe(200);
    const done = await jobDone(c, job.body.job_id);
    expect(done.status, done.error ?? '').toBe('completed');
    const session = await c.json('sessions.get', `/api/v3/speech-to-text/session/${done.metadata.session_id}`);
    expect(session.body.result.diarization).toBe(true);
    const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
    const transcript = must(result.body.documents.find((d) => d.type === 'document'), 'the transcript');
    expect(must(transcript.document, 'the transcript body').metadata.diarization).toMatchObject({ requested: true, available: true, method: 'mfcc-bic-clr', speakers: 1 });
    const words = transcriptOf(transcript).segments.flatMap((s) => s.words);
    expect(words.length).toBeGreaterThan(3);
    for (const w of words) expect(w.end_ms).toBeGreaterThan(w.start_ms);

    // Without any of the names, diarization stays off.
    const plain = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, 'Plain.', 'plain.txt'), language: 'en', session_mode: 'upload' });
    const plainDone = await jobDone(c, plain.body.job_id);
    expect((await c.json('sessions.get', `/api/v3/speech-to-text/session/${plainDone.metadata.session_id}`)).body.result.diarization).toBe(false);
  });
});
