/**
 * Media and alignment that cost far more than their size, over real HTTP with real ffmpeg and
 * pocketsphinx:
 * - alignment of 5 MB of unrelated text to a few seconds of speech ran a diff on the event loop
 *   for minutes; now the text is refused against the media's length, and the service answers;
 * - a small FLAC of hours of silence decoded to hundreds of MB that stayed on disk, and the
 *   decoder was run over all that silence; now it is refused by its decoded/uploaded size ratio,
 *   the decoded audio never outlives its job (not even a cancelled one), and silence is skipped;
 * - per-organization storage and processing quotas refuse with words a person understands.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopAndRemove, tempDir, type RunningService } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { codedError } from '../service/answers';
import { batchUpload, client, jobDone, PASSAGE, uploadedFileId, until, type Client } from '../service/work/helpers';
import { HEALTH_LIMIT_MS, whileWatched } from './heavy-work';

let svc: RunningService;
let c: Client;
let dir: string;

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);

/** A 16 kHz mono WAV of `seconds` of digital silence (a plausible file: uncompressed). */
function silentWav(seconds: number): Uint8Array<ArrayBuffer> {
  const file = join(dir, `silence-${seconds}.wav`);
  if (!existsSync(file)) ffmpeg('-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', String(seconds), '-c:a', 'pcm_s16le', file);
  return new Uint8Array(readFileSync(file));
}

async function transcribe(cl: Client, fileId: string, extra: Record<string, unknown> = {}) {
  return cl.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', ...extra });
}

const mediaFiles = (service: RunningService, sessionId: string) => readdirSync(join(service.dataDir, 'media', sessionId));

beforeAll(async () => {
  dir = tempDir('s2t-sec-heavy-media-');
  svc = await startService({ env: { NODE_ENV: 'production' } });
  c = await client(svc.url);
}, 60_000);

afterAll(() => stopAndRemove(svc, dir));

describe('alignment', () => {
  it('refuses 5 MB of unrelated text for a few seconds of speech, and the service keeps answering', async () => {
    const fileId = await uploadedFileId(c, new Uint8Array(readFileSync(await speechWav(PASSAGE))), 'passage.wav');
    const words = 'garden ocean pencil mountain violin carpet thunder bicycle lantern meadow'.split(' ');
    const text = Array.from({ length: 700_000 }, (_, i) => words[(i * 7) % words.length] + (i % 12 === 11 ? '.' : '')).join(' ').slice(0, 4_999_000);
    const { result: job, slowestMs } = await whileWatched(svc.url, async () => {
      const started = await transcribe(c, fileId, { session_mode: 'align', transcript_text: text });
      expect(started.status, started.text).toBe(200);
      return jobDone(c, started.body.job_id, 120_000);
    });
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^The transcript text has \d+ words, more than \d+ s of media can hold \(at most \d+\); check that the text belongs to this media\.$/);
    expect(slowestMs).toBeLessThan(HEALTH_LIMIT_MS);
  }, 180_000);
});

describe('decoded media', () => {
  it('refuses a small FLAC of two hours of silence before decoding it, and leaves nothing decoded on disk', async () => {
    const flac = join(dir, 'silence.flac');
    // FLAC's largest frames: a few bytes for each 4 s of silence.
    ffmpeg('-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', String(2 * 3600), '-c:a', 'flac', '-frame_size', '65535', flac);
    expect(statSync(flac).size).toBeLessThan(64 * 1024);
    const started = await transcribe(c, await uploadedFileId(c, new Uint8Array(readFileSync(flac)), 'silence.flac'));
    expect(started.status, started.text).toBe(200);
    const job = await jobDone(c, started.body.job_id, 120_000);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^The media file is \d+ KB but says it holds 2 h of audio \(2\d\d\.\d MB once decoded\); no recording compresses that far, so it was not processed\.$/);
    expect(mediaFiles(svc, job.metadata.session_id)).not.toContain('audio.wav');
  }, 180_000);

  it('skips silence without decoding it, and deletes the decoded audio when the job ends', async () => {
    const started = await transcribe(c, await uploadedFileId(c, silentWav(30), 'quiet.wav'));
    expect(started.status, started.text).toBe(200);
    const job = await jobDone(c, started.body.job_id, 120_000);
    expect(job.status, job.error ?? '').toBe('completed');
    const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.job_id}/result`);
    expect(result.status, result.text).toBe(200);
    const transcript = result.body.documents.find((d) => d.type === 'document');
    expect(transcript?.document?.metadata).toMatchObject({ chunks: 0 });
    expect(mediaFiles(svc, job.metadata.session_id)).not.toContain('audio.wav');
  }, 180_000);

  it('deletes the decoded audio of a cancelled job', async () => {
    const long = await speechWav(`${PASSAGE} ${PASSAGE} ${PASSAGE} ${PASSAGE}`);
    const started = await transcribe(c, await uploadedFileId(c, new Uint8Array(readFileSync(long)), 'long.wav'));
    expect(started.status, started.text).toBe(200);
    const jobId = started.body.job_id;
    const sessionId = await until('the session id', async () => (await c.json('batch.job', `/api/v3/batch/jobs/${jobId}`)).body.metadata?.session_id);
    await until('the decoded audio', async () => existsSync(join(svc.dataDir, 'media', sessionId, 'audio.wav')), 120_000, 50);
    const cancelled = await c.json('batch.jobCancel', `/api/v3/batch/jobs/${jobId}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    await until('the decoded audio to be deleted', async () => !existsSync(join(svc.dataDir, 'media', sessionId, 'audio.wav')), 20_000, 100);
    expect(mediaFiles(svc, sessionId).filter((f) => f === 'audio.wav' || f.startsWith('chunks-'))).toEqual([]);
  }, 180_000);
});

describe('quotas', () => {
  let small: RunningService;
  let q: Client;

  beforeAll(async () => {
    // 1 GiB / 1024 = 1 MiB of storage, 0.005 h = 18 s of processing a month.
    small = await startService({ args: ['--org-storage-gb', String(1 / 1024), '--org-processing-hours', '0.005'] });
    q = await client(small.url);
  }, 60_000);

  afterAll(() => stopAndRemove(small));

  it('processing: a job that would pass the month is failed with the reason, and new work is refused once it is used up', async () => {
    const first = await transcribe(q, await uploadedFileId(q, silentWav(12), 'a.wav'));
    expect((await jobDone(q, first.body.job_id)).status).toBe('completed');
    const over = await transcribe(q, await uploadedFileId(q, silentWav(9), 'b.wav'));
    const failed = await jobDone(q, over.body.job_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^This recording is 9 s long, and your organization has had 12 s of media processed this month; it would pass the limit of 18 s \(--org-processing-hours\)/);
    const fits = await transcribe(q, await uploadedFileId(q, silentWav(6), 'c.wav'));
    expect((await jobDone(q, fits.body.job_id)).status).toBe('completed');
    const refused = await transcribe(q, await uploadedFileId(q, silentWav(1), 'd.wav'));
    expect(refused.status, refused.text).toBe(429);
    expect(codedError(refused)).toMatchObject({ code: 'processing_quota_exceeded' });
    expect(codedError(refused).message).toMatch(/^Your organization has had 18 s of media processed this month, its limit \(--org-processing-hours is 18 s\)/);
  }, 180_000);

  it('storage: an upload past the organization\'s room is refused and not kept', async () => {
    const up = await batchUpload(q, silentWav(20), 'big.wav');
    expect(up.status, up.text).toBe(413);
    expect(codedError(up)).toMatchObject({ code: 'storage_quota_exceeded' });
    expect(codedError(up).message).toMatch(/^Your organization stores \d+ KB on this service, and this upload would pass its limit of 1 MB \(--org-storage-gb\)\. Delete sessions/);
    expect(readdirSync(join(small.dataDir, 'uploads')).length).toBe(4);
  }, 60_000);
});
