/**
 * Which of the spec's translation languages the installed engine serves, over real HTTP with the
 * real apertium (apertium-eng-spa is installed here: en -> es): the listing marks each, and the
 * translate route does what the listing says, refusing the others with a clear error.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TRANSLATION_LANGUAGES } from '../../../common/api';
import { apertiumMode } from '../../../service/engines/translate';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { codedError, must } from '../answers';
import { client, jobDone, transcriptOf, uploadedFileId, type Client } from '../work/helpers';

const STT = '/api/v3/speech-to-text';
const SRT = '1\n00:00:01,000 --> 00:00:03,000\nThe dog is in the house.\n\n2\n00:00:03,500 --> 00:00:06,000\nThe cat sleeps.\n';

let svc: RunningService;
let c: Client;
let doc: string;
/** What apertium itself says is installed: the listing must agree with it, not with a list in the test. */
const installed = execFileSync('apertium', ['-l'], { encoding: 'utf8' }).split('\n').map((s) => s.trim());

beforeAll(async () => {
  svc = await startService();
  c = await client(svc.url);
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, SRT, 'pets.srt'), language: 'en', session_mode: 'upload' });
  const done = await jobDone(c, job.body.job_id);
  const list = await c.json('documents.list', `${STT}/session/${done.metadata.session_id}/document`);
  doc = `${STT}/session/${done.metadata.session_id}/document/${must(list.body.result.find((d) => d.type === 'document'), 'the transcript').id}`;
}, 60_000);

afterAll(() => stopAndRemove(svc));

it('lists every translation language of the spec, available exactly where an apertium pair from English is installed', async () => {
  const r = await c.json('documents.translateTargets', `${doc}/translate`);
  expect(r.status).toBe(200);
  expect(r.body.source_language).toBe('en');
  expect(r.body.languages.map((l) => l.code)).toEqual([...TRANSLATION_LANGUAGES]);
  const available = r.body.languages.filter((l) => l.available).map((l) => l.code);
  expect(available).toContain('ES');
  for (const l of r.body.languages) {
    if (l.code === 'EN') expect(l).toMatchObject({ available: false, reason: expect.stringMatching(/own language/) });
    else expect(l.available, l.code).toBe(installed.includes(apertiumMode('en', l.code) ?? '-'));
  }
  const fr = r.body.languages.find((l) => l.code === 'FR');
  expect(installed).not.toContain('eng-fra');
  expect(fr).toMatchObject({ available: false, install: 'apertium-eng-fra', reason: expect.stringMatching(/EN -> FR/) });
});

it('translates into an available language, making a new document', async () => {
  const r = await c.json('documents.translate', `${doc}/translate`, { target_language: 'ES' });
  expect(r.status, r.text).toBe(200);
  expect(r.body.language).toBe('es');
  const text = transcriptOf(r.body).segments.map((s) => s.words.map((w) => w.text).join(' ')).join(' ');
  expect(text).toMatch(/perro/i);
});

it('refuses an unavailable language with 501 naming what to install, and its own language with 422', async () => {
  const fr = await c.json('POST', `${doc}/translate`, { target_language: 'FR' });
  expect(fr.status).toBe(501);
  expect(codedError(fr)).toMatchObject({ code: 'TRANSLATION_ENGINE_MISSING', details: { install: 'apertium-eng-fra' } });
  const en = await c.json('POST', `${doc}/translate`, { target_language: 'EN' });
  expect(en.status).toBe(422);
  expect(codedError(en).code).toBe('SAME_LANGUAGE');
});
