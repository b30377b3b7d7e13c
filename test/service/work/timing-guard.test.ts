/**
 * The time guard in every engine, over real HTTP: an uploaded caption file whose times run past
 * its media, or a document whose words run backwards, fails the job with a clear error and
 * stores nothing; align mode's times stay inside the media and start each sentence where it was
 * placed.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../common/api';
import { CONTENT_VERSION } from '../../../common/transcript/model';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import type { PlacedSpeech } from '../../helpers/speech';
import { client, docOf, jobDone, sessionDone, transcriptOf, uploadedFileId, type Client } from './helpers';
import { fixture, meetingSpec } from './timing-fixtures';

const STT = '/api/v3/speech-to-text';

let svc: RunningService;
let c: Client;
let placed: PlacedSpeech;

beforeAll(async () => {
  placed = await fixture(meetingSpec(15, 16000, 'wav'));
  svc = await startService();
  c = await client(svc.url);
}, 60_000);

afterAll(() => stopAndRemove(svc));

const srt = (cues: [string, string, string][]) => cues.map(([a, b, t], i) => `${i + 1}\n${a} --> ${b}\n${t}\n`).join('\n');

async function uploadMode(fileId: string, transcriptText: string): Promise<Job> {
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload', transcript_text: transcriptText });
  expect(job.status).toBe(200);
  return jobDone(c, job.body.job_id);
}

async function documentCount(sessionId: string): Promise<number> {
  return (await c.json('documents.list', `${STT}/session/${sessionId}/document`)).body.result.length;
}

describe('the time guard', () => {
  it('an uploaded caption file with a cue past the end of its media fails the job; one that fits is stored', async () => {
    const media = await uploadedFileId(c, readFileSync(placed.path), 'meeting.wav', 'audio/wav');
    const seconds = placed.durationMs / 1000;
    const past = await uploadMode(media, srt([['00:00:00,500', '00:00:03,000', 'Good morning everyone.'], ['00:00:10,000', '00:00:30,000', 'Runs past the end.']]));
    expect(past.status).toBe('failed');
    expect(past.error).toMatch(/^The uploaded document has times that cannot be right \(the caption "Runs past the end\." ends at 0:30\.00, after the end of the media at 0:\d\d\.\d\d\); nothing was stored\.$/);
    expect(await documentCount(past.metadata.session_id)).toBe(0);

    const fits = await uploadMode(media, srt([['00:00:00,500', '00:00:03,000', 'Good morning everyone.'], ['00:00:10,000', `00:00:${Math.floor(seconds - 1).toString().padStart(2, '0')},000`, 'Ends in time.']]));
    expect(fits.status, fits.error ?? '').toBe('completed');
    expect(await documentCount(fits.metadata.session_id)).toBe(2);
  });

  it('an uploaded transcript whose words run backwards fails the job', async () => {
    const words = [
      { text: 'second', start_ms: 2000, end_ms: 2500, confidence: 1 },
      { text: 'first', start_ms: 1000, end_ms: 1500, confidence: 1 },
    ];
    const body = { document_type: 'transcript', metadata: {}, content: { kind: 'transcript', version: CONTENT_VERSION, speakers: [], segments: [{ id: 's1', speaker_id: null, start_ms: 1000, end_ms: 2500, words }] } };
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, JSON.stringify(body), 'backwards.json', 'application/json'), language: 'en', session_mode: 'upload' });
    const done = await jobDone(c, job.body.job_id);
    expect(done.status).toBe('failed');
    expect(done.error).toBe('The uploaded document has times that cannot be right (the word "first" at 0:01.00 comes after "second" at 0:02.00); nothing was stored.');
  });

  it('align mode: every given word inside the media, in order, and each sentence starts within 0.3 s of where it was placed', async () => {
    const created = await c.json('sessions.create', `${STT}/session`, { language: 'en' }, { 'x-svc-s2t-key': c.batchKey });
    const sid = created.body.result.session_id as string;
    const form = new FormData();
    form.append('media', new Blob([readFileSync(placed.path)], { type: 'audio/wav' }), 'meeting.wav');
    form.append('transcript', placed.sentences.map((s) => s.text).join('\n'));
    const res = await fetch(`${svc.url}${STT}/session/${sid}/align`, { method: 'POST', headers: { 'x-svc-s2t-key': c.batchKey }, body: form });
    expect(res.status).toBe(200);
    const s = await sessionDone(c, sid);
    expect(s.status, s.error ?? '').toBe('completed');
    const docs = await c.json('documents.list', `${STT}/session/${sid}/document?include_content=true`);
    const segments = transcriptOf(docOf(docs.body.result, 'document')).segments;
    // Align keeps the given sentences as segments: segment i is placed sentence i.
    expect(segments.length).toBe(placed.sentences.length);
    let last = 0;
    for (const w of segments.flatMap((x) => x.words)) {
      expect(w.start_ms).toBeGreaterThanOrEqual(last);
      expect(w.end_ms).toBeLessThanOrEqual(s.duration * 1000);
      last = w.start_ms;
    }
    const errors = segments.map((seg, i) => seg.words[0].start_ms - placed.sentences[i].startMs);
    console.log(`align: first word of each sentence vs placed: ${errors.map((e) => Math.round(e)).join(' ')} ms`);
    for (const e of errors) expect(Math.abs(e)).toBeLessThanOrEqual(300);
  });
});
