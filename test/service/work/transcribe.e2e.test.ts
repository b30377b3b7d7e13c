/**
 * End to end over real HTTP against the service as a child process: espeak-ng speech uploaded by
 * legacy PUT, batch multipart and batch tus, transcribed by pocketsphinx; WER printed and bounded.
 * Then alignment, the legacy record, media and waveform links, and refusals. `npm run test:team`
 * runs it on a team server too, where one worker decodes every job: the passage (13 s) is
 * decoded where recognition is what is tested, a three-second phrase where the path is.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tus from 'tus-js-client';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { speechWav, wordErrorRate } from '../../helpers/speech';
import { codedError, must, routeBody } from '../answers';
import { batchUpload, captionOf, client, docOf, jobDone, otherOrganization, PASSAGE, putMedia, sessionDone, transcriptOf, transcriptText, uploadedFileId, type Client } from './helpers';

/** Measured: pocketsphinx en-us on espeak-ng klatt3 at 150 wpm gives WER 0.684 on this passage (deterministic; 0.632 before chunked decoding, when pocketsphinx also read ffmpeg's 34-byte WAV LIST chunk as audio; see README). */
const WER_BOUND = 0.7;
const KEY_WORDS = ['weather', 'today', 'people', 'dogs', 'river', 'dinner', 'day'];
/** A short phrase for the paths whose concern is the upload; pocketsphinx hears "dogs" in it. */
const PHRASE = 'Many people walk in the park with their dogs.';
/** Decoding waits: a team server's single worker under a loaded machine is slower than the in-process runner. */
const DECODE_WAIT_MS = 150_000;

let svc: RunningService;
let c: Client;
let wav: string;
let phrase: string;

beforeAll(async () => {
  wav = await speechWav(PASSAGE);
  phrase = await speechWav(PHRASE);
  svc = await startService({ args: ['--engine-concurrency', '2'] });
  c = await client(svc.url);
}, 180_000); // on a team server this starts redis-server, the API node and a worker, each under tsx

afterAll(() => stopAndRemove(svc));

function checkTranscript(path: string, text: string): void {
  const rate = wordErrorRate(PASSAGE, text);
  console.log(`WER via ${path}: ${rate.toFixed(3)}  hypothesis: "${text}"`);
  expect(rate).toBeLessThan(WER_BOUND);
  const found = KEY_WORDS.filter((w) => text.toLowerCase().split(/\s+/).includes(w));
  expect(found.length).toBeGreaterThanOrEqual(5);
}

describe('transcription through every upload path', () => {
  it('legacy create + PUT: sanitised name, media fields, waveform, kept media with ranges, legacy record', async () => {
    const created = await c.json('sessions.create', '/api/v3/speech-to-text/session', { language: 'en', keep_source: true }, { 'x-svc-s2t-key': c.batchKey });
    expect(created.status).toBe(200);
    const sid = created.body.result.session_id as string;
    const put = await putMedia(c, sid, readFileSync(wav), { 'content-type': 'audio/wav', 'x-filename': '..%2F..%2Fetc%2Fpasswd.wav' });
    expect(put.status).toBe(200);
    const s = await sessionDone(c, sid, DECODE_WAIT_MS);
    expect(s.status).toBe('completed');
    expect(s.filename).toBe('passwd.wav');
    expect(s.media_type).toBe('audio/wav');
    expect(s.duration).toBeGreaterThan(8);
    expect(s.date_finished).toBeTruthy();

    const record = await fetch(`${svc.url}/api/v3/speech-to-text/session/${sid}/result`, { headers: { 'x-svc-s2t-key': c.batchKey } });
    const r = routeBody('sessions.result', record.status, await record.json());
    expect(r.status).toBe('completed');
    expect(r.results.length).toBeGreaterThan(10);
    for (const w of r.results) {
      expect(w.time_end).toBeGreaterThanOrEqual(w.time_start);
      expect(w.confidence).toBeGreaterThanOrEqual(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
    }
    checkTranscript('legacy PUT', r.results.map((w) => w.word).join(' '));

    const wave = await fetch(must(s.wave_info_url, 'wave_info_url'));
    const wf = routeBody('sessions.waveform', wave.status, await wave.json());
    expect(wf).toMatchObject({ version: 2, channels: 1, sample_rate: 16000, samples_per_pixel: 160, bits: 8 });
    expect(wf.data.length).toBe(wf.length * 2);
    expect(Math.abs(wf.length - s.duration * 100)).toBeLessThan(3);
    expect(Math.max(...wf.data)).toBeGreaterThan(20);

    expect(s.media_url).toMatch(/\/media\?exp=\d+&sig=/);
    const full = await fetch(s.media_url);
    expect(full.headers.get('content-type')).toBe('audio/mpeg');
    const size = Number(full.headers.get('content-length'));
    const whole = Buffer.from(await full.arrayBuffer());
    expect(whole.length).toBe(size);
    const part = await fetch(s.media_url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${size}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(100, 200))).toBe(true);
    // One character of the signature changed (to another one: a fixed 'A' would leave an 'A' as it was).
    const tampered = await fetch(s.media_url.replace(/sig=(.)/, (_: string, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`));
    expect(tampered.status).toBe(403);
  });

  it('batch multipart upload + transcribe: job states and result documents', async () => {
    const up = await batchUpload(c, readFileSync(wav), 'passage.wav', 'audio/wav');
    expect(up.status).toBe(200);
    const file = up.body;
    expect(file).toMatchObject({ filename: 'passage.wav', media_type: 'audio/wav', size_bytes: readFileSync(wav).length });
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: file.file_id, language: 'en', speaker_labels: true });
    expect(job.status).toBe(200);
    expect(['pending', 'processing']).toContain(job.body.status);
    const done = await jobDone(c, job.body.job_id, DECODE_WAIT_MS);
    expect(done.status).toBe('completed');
    expect(done.progress).toBe(100);
    const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
    expect(result.body.documents.map((d) => d.type).sort()).toEqual(['caption', 'document']);
    const transcript = docOf(result.body.documents, 'document');
    // speaker_labels was accepted as enable_diarization: the speaker step ran, and one voice is one speaker.
    expect(must(transcript.document, 'the transcript body').metadata.diarization).toMatchObject({ requested: true, available: true, method: 'mfcc-bic-clr' });
    expect(transcriptOf(transcript).speakers).toHaveLength(1);
    checkTranscript('batch multipart', transcriptText(transcript));
    const session = await c.json('sessions.get', `/api/v3/speech-to-text/session/${result.body.session_id}`);
    expect(session.body.result.diarization).toBe(true);
  });

  it('batch tus upload (tus-js-client) + transcribe', async () => {
    const bytes = readFileSync(phrase);
    const uploadUrl = await new Promise<string>((resolve, reject) => {
      const u = new tus.Upload(bytes, {
        endpoint: `${svc.url}/api/v3/batch/upload/tus`,
        headers: c.bearer,
        metadata: { filename: 'passage.wav', filetype: 'audio/wav' },
        chunkSize: 64 * 1024,
        onError: reject,
        onSuccess: () => resolve(u.url!),
      });
      u.start();
    });
    const fileId = uploadUrl.split('/').pop()!;
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en' });
    expect(job.status).toBe(200);
    const done = await jobDone(c, job.body.job_id, DECODE_WAIT_MS);
    expect(done.status).toBe('completed');
    const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
    const text = transcriptText(docOf(result.body.documents, 'document'));
    expect(text.split(/\s+/), text).toContain('dogs');
  });
});

describe('align and upload modes', () => {
  it('legacy align gives every word of the given text a time, monotonic', async () => {
    const created = await c.json('sessions.create', '/api/v3/speech-to-text/session', { language: 'en' }, { 'x-svc-s2t-key': c.batchKey });
    const sid = created.body.result.session_id as string;
    const form = new FormData();
    form.append('media', new Blob([readFileSync(wav)], { type: 'audio/wav' }), 'passage.wav');
    form.append('transcript', PASSAGE);
    const res = await fetch(`${svc.url}/api/v3/speech-to-text/session/${sid}/align`, { method: 'POST', headers: { 'x-svc-s2t-key': c.batchKey }, body: form });
    expect(res.status).toBe(200);
    const s = await sessionDone(c, sid, DECODE_WAIT_MS);
    expect(s.status).toBe('completed');
    expect(s.session_mode).toBe('align');
    const docs = await c.json('documents.list', `/api/v3/speech-to-text/session/${sid}/document?include_content=true`);
    const t = docOf(docs.body.result, 'document');
    const all = transcriptOf(t).segments.flatMap((x) => x.words);
    expect(all.map((w) => w.text).join(' ')).toBe(PASSAGE.split(/\s+/).join(' '));
    let last = 0;
    for (const w of all) {
      expect(w.start_ms).toBeGreaterThanOrEqual(last);
      expect(w.end_ms).toBeGreaterThanOrEqual(w.start_ms);
      last = w.end_ms;
    }
    expect(last).toBeLessThanOrEqual(Math.ceil(s.duration * 1000));
    expect(must(all.at(-1), 'the last word').end_ms).toBeGreaterThan(s.duration * 1000 * 0.6);
    const matched = all.filter((w) => w.confidence > 0).length;
    console.log(`align: ${matched}/${all.length} words matched to recognised words, the rest interpolated`);
    expect(matched).toBeGreaterThan(all.length / 3);
  });

  it('upload mode stores the given document as it is', async () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,500\nHello there.\n\n2\n00:00:03,000 --> 00:00:04,000\nGeneral Kenobi.\n';
    const fileId = await uploadedFileId(c, srt, 'given.srt', 'text/plain');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload' });
    const done = await jobDone(c, job.body.job_id);
    expect(done.status).toBe('completed');
    const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
    const cap = docOf(result.body.documents, 'caption');
    expect(captionOf(cap).cues.map((q) => [q.start_ms, q.end_ms, q.lines.join(' ')])).toEqual([
      [1000, 2500, 'Hello there.'],
      [3000, 4000, 'General Kenobi.'],
    ]);
  });
});

describe('refusals', () => {
  it('a file that is not media gets INVALID_FILE_FORMAT (newer error shape)', async () => {
    const up = await batchUpload(c, 'just some text, not audio', 'fake.wav', 'audio/wav');
    expect(up.status).toBe(415);
    const error = codedError(up);
    expect(error.code).toBe('INVALID_FILE_FORMAT');
    expect(error.details?.supported_formats).toContain('wav');

    const created = await c.json('sessions.create', '/api/v3/speech-to-text/session', { language: 'en' }, { 'x-svc-s2t-key': c.batchKey });
    const sid = created.body.result.session_id;
    const put = await putMedia(c, sid, 'x', { 'content-type': 'application/pdf' });
    expect(put.status).toBe(415);
    expect(codedError({ status: put.status, text: await put.text() }).code).toBe('INVALID_FILE_FORMAT');
    const put2 = await putMedia(c, sid, '%PDF-1.4 not audio', { 'content-type': 'audio/wav' });
    expect(put2.status).toBe(415);
  });

  it('a corrupt media file ends failed with a clear error', async () => {
    // A WAV header followed by garbage: it sniffs as WAV, but ffmpeg cannot decode it.
    const bad = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEjunk', 'latin1'), Buffer.alloc(4000, 0x5a)]);
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, bad, 'broken.wav'), language: 'en' });
    const done = await jobDone(c, job.body.job_id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/^The media file could not be (read|decoded)/);
    const s = await c.json('sessions.get', `/api/v3/speech-to-text/session/${done.metadata.session_id}`);
    expect(s.body.result.status).toBe('failed');
    expect(s.body.result.error).toBe(done.error);
  });

  it('the keys that need the callback address are refused without it; another organization sees 404', async () => {
    const bad = await c.json('POST', '/api/v3/speech-to-text/session', { language: 'en', webhook_method: 'PUT' }, { 'x-svc-s2t-key': c.batchKey });
    expect(bad.status).toBe(422);
    const bad2 = await c.json('POST', '/api/v3/speech-to-text/session', { language: 'en', webhook_headers: ['A: b'] }, { 'x-svc-s2t-key': c.batchKey });
    expect(bad2.status).toBe(422);

    const created = await c.json('sessions.create', '/api/v3/speech-to-text/session', { language: 'en' }, { 'x-svc-s2t-key': c.batchKey });
    const sid = created.body.result.session_id;
    const other = await otherOrganization(svc, 'other@example.com', 'other-password-1');
    expect((await other.json('sessions.get', `/api/v3/speech-to-text/session/${sid}`)).status).toBe(404);
    expect((await other.json('documents.list', `/api/v3/speech-to-text/session/${sid}/document`)).status).toBe(404);
    const list = await other.json('sessions.list', '/api/v3/speech-to-text/session');
    expect(list.body.result.map((s) => s.session_id)).not.toContain(sid);
  });

  it('a legacy PUT declaring more than 4 GiB gets a readable 413 before a byte is stored, and the session takes a later upload', async () => {
    const created = await c.json('sessions.create', '/api/v3/speech-to-text/session', { language: 'en' }, { 'x-svc-s2t-key': c.batchKey });
    const sid = created.body.result.session_id as string;
    // A bare TCP client that keeps sending after the answer, as a big upload does.
    const { port } = new URL(svc.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.setEncoding('utf8').on('data', (d: string) => {
        text += d;
        if (!/\r\n\r\n[^]*\}/.test(text)) return;
        resolve(text);
        socket.destroy();
      });
      socket.on('error', reject);
      socket.write(`PUT /api/v3/speech-to-text/session/${sid} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Svc-S2T-Key: ${c.batchKey}\r\nContent-Type: audio/wav\r\nContent-Length: ${5 * 1024 ** 3}\r\n\r\n`);
      socket.write(Buffer.alloc(1024 * 1024));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error).toMatch(/larger than 4 GiB; use the resumable \(tus\) upload/);
    const mediaDir = join(svc.dataDir, 'media', sid);
    expect(existsSync(mediaDir) ? readdirSync(mediaDir) : []).toEqual([]);
    const put = await putMedia(c, sid, readFileSync(phrase), { 'content-type': 'audio/wav', 'x-filename': 'after-refusal.wav' });
    expect(put.status).toBe(200);
    expect((await sessionDone(c, sid, DECODE_WAIT_MS)).status).toBe('completed');
  });

  it('legacy DELETE erases filename and transcript', async () => {
    const list = await c.json('sessions.list', '/api/v3/speech-to-text/session?q=completed&limit=100');
    const s = must(list.body.result.find((x) => x.filename === 'passwd.wav'), 'the session of passwd.wav');
    const del = await fetch(`${svc.url}/api/v3/speech-to-text/session/${s.session_id}`, { method: 'DELETE', headers: { 'x-svc-s2t-key': c.batchKey } });
    expect(del.status).toBe(200);
    const after = routeBody('sessions.delete', del.status, await del.json()).result;
    expect(after.filename).toBe('');
    const record = await fetch(`${svc.url}/api/v3/speech-to-text/session/${s.session_id}/result`, { headers: { 'x-svc-s2t-key': c.batchKey } });
    const r = routeBody('sessions.result', record.status, await record.json());
    expect(r.results).toEqual([]);
    expect((await c.json('documents.list', `/api/v3/speech-to-text/session/${s.session_id}/document`)).body.total_results).toBe(0);
  });
});
