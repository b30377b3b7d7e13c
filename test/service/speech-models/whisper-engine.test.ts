/**
 * The model engine end to end over real HTTP: a generated Whisper model (real ggml layout, random
 * weights: test/helpers/whisper-model.ts) is installed through "use a model file I already have",
 * then real decode and align jobs run on it through whisper.cpp. Its words are noise; what is
 * checked is real: the engine named in the document, times inside the media (whisper.cpp places
 * tokens past the end of a short chunk; the chunk placement and time guard must hold them), the
 * models list, and clear failures for a damaged model and an engine that is not installed.
 */
import { copyFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechWav } from '../../helpers/speech';
import { startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { tinyWhisperModelFile } from '../../helpers/whisper-model';
import { bodyOf, client, docOf, jobDone, transcriptOf, until, uploadedFileId, type Client } from '../work/helpers';

const LOCAL = '/api/v3/local/speech-models';
const ENGINE = 'whisper:generated';
let svc: RunningService;
let c: Client;
let dir: string;
let wav: string;
let mediaMs: number;

beforeAll(async () => {
  dir = tempDir('s2t-whisper-');
  svc = await startService({ dataDir: join(dir, 'data') });
  c = await client(svc.url);
  wav = await speechWav('The weather today is sunny and warm.');
  // 16-bit mono 22050 Hz from espeak: its length from the data size.
  mediaMs = ((readFileSync(wav).length - 44) / 2 / 22050) * 1000;
}, 60_000);

afterAll(async () => {
  await stopAndRemove(svc, dir);
});

async function transcribe(extra: Record<string, unknown>) {
  const fileId = await uploadedFileId(c, readFileSync(wav), 'weather.wav');
  return c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', ...extra });
}

describe('the Whisper engine on a generated model', () => {
  it('installs from a file on this computer and is listed with the languages it serves', async () => {
    const before = await c.json('models.list', '/api/v3/speech-to-text/models', undefined, { 'x-svc-s2t-key': c.batchKey, 'content-type': 'application/json' });
    const german = before.body.result.find((m) => m.bcp47 === 'de-DE')!;
    expect(german).toMatchObject({ engine_supported: false, has_punctuation: false, speech_engine: null, speech_engines: [] });
    expect(before.body.result.find((m) => m.bcp47 === 'en-US')).toMatchObject({ speech_engines: ['pocketsphinx'] });

    const model = tinyWhisperModelFile();
    const copy = join(dir, 'ggml-generated.bin');
    copyFileSync(model.path, copy);
    const imported = await c.json('speechModels.import', `${LOCAL}/import`, { path: copy });
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body).toMatchObject({ name: 'generated', installed: true, languages: 'multilingual', bytes: model.bytes, source: 'file' });

    const listed = await c.json('speechModels.list', LOCAL);
    expect(listed.body.engines.map((e) => e.id)).toEqual([ENGINE, 'pocketsphinx']);
    const after = await c.json('models.list', '/api/v3/speech-to-text/models', undefined, { 'x-svc-s2t-key': c.batchKey, 'content-type': 'application/json' });
    expect(after.body.result.find((m) => m.bcp47 === 'de-DE')).toMatchObject({ engine_supported: true, has_punctuation: true, speech_engine: ENGINE, speech_engines: [ENGINE] });
    // Every engine that can run it, for a person who wants to choose: the model, and pocketsphinx for US English.
    expect(after.body.result.find((m) => m.bcp47 === 'en-US')).toMatchObject({ engine_supported: true, speech_engine: ENGINE, speech_engines: [ENGINE, 'pocketsphinx'] });
    // Its speed on this computer is measured once installed (a run over one 30 s window).
    const speed = await until('speed measured', async () => (await c.json('speechModels.list', LOCAL)).body.engines.find((e) => e.id === ENGINE)?.speed_rtf);
    expect(speed).toBeGreaterThan(0);
  });

  it('refuses a file that is not a model, and one whisper.cpp cannot load', async () => {
    const text = join(dir, 'notes.bin');
    writeFileSync(text, 'not a model');
    const r1 = await c.json('speechModels.import', `${LOCAL}/import`, { path: text });
    expect(r1.status).toBe(422);
    expect(r1.text).toMatch(/not a whisper\.cpp model/);
    const cut = join(dir, 'ggml-cut.bin');
    writeFileSync(cut, readFileSync(tinyWhisperModelFile().path).subarray(0, 3_000_000));
    const r2 = await c.json('speechModels.import', `${LOCAL}/import`, { path: cut });
    expect(r2.status).toBe(422);
    expect(r2.text).toMatch(/could not load this file/);
    expect((await c.json('speechModels.list', LOCAL)).body.engines.map((e) => e.id)).toEqual([ENGINE, 'pocketsphinx']);
  });

  it('decodes through whisper.cpp with word times inside the media', async () => {
    const job = await transcribe({ speech_engine: ENGINE });
    expect(job.status, job.text).toBe(200);
    const done = await jobDone(c, job.body.job_id, 120_000);
    expect(done.status, done.error ?? '').toBe('completed');
    const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
    const doc = docOf(result.body.documents, 'document');
    expect(bodyOf(doc).metadata.engine).toBe(ENGINE);
    const words = transcriptOf(doc).segments.flatMap((s) => s.words);
    expect(words.length).toBeGreaterThan(0);
    for (const w of words) {
      expect(w.start_ms).toBeGreaterThanOrEqual(0);
      expect(w.end_ms).toBeLessThanOrEqual(Math.ceil(mediaMs) + 5);
    }
  });

  it('aligns a given text with the model engine', async () => {
    const job = await transcribe({ speech_engine: ENGINE, session_mode: 'align', transcript_text: 'The weather today is sunny and warm.' });
    const done = await jobDone(c, job.body.job_id, 120_000);
    expect(done.status, done.error ?? '').toBe('completed');
    const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
    const doc = docOf(result.body.documents, 'document');
    expect(bodyOf(doc).metadata.engine).toBe(`${ENGINE}+align`);
    expect(transcriptOf(doc).segments.flatMap((s) => s.words.map((w) => w.text)).join(' ')).toBe('The weather today is sunny and warm.');
  });

  it('refuses an engine that is not installed, and fails only the job whose model was damaged', async () => {
    const refused = await transcribe({ speech_engine: 'whisper:large-v3' });
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/not installed here/);

    truncateSync(join(dir, 'data', 'models', 'ggml-generated.bin'), 1000);
    const job = await transcribe({ speech_engine: ENGINE });
    const done = await jobDone(c, job.body.job_id, 120_000);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/speech model "generated" changed on disk/);
    // pocketsphinx still serves the next job.
    const next = await transcribe({ speech_engine: 'pocketsphinx' });
    expect((await jobDone(c, next.body.job_id, 120_000)).status).toBe('completed');
  });
});
