/**
 * Media other than WAV, made with ffmpeg in the test: an MP4 (H.264 colour video + AAC of espeak-ng
 * speech) through batch multipart, and a video-only MP4 through the legacy PUT. Duration,
 * media_type, a completed job for the first; a failed session with a clear sentence for the second.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { batchUpload, client, docOf, jobDone, PASSAGE, putMedia, sessionDone, transcriptText, type Client } from './helpers';

const KEY_WORDS = ['weather', 'today', 'people', 'dogs', 'river', 'dinner', 'day'];

let svc: RunningService;
let c: Client;
let dir: string;

beforeAll(async () => {
  dir = tempDir('s2t-media-formats-');
  svc = await startService();
  c = await client(svc.url);
}, 60_000);

afterAll(() => stopAndRemove(svc, dir));

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);

function durationOf(path: string): number {
  return Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]).toString().trim());
}

describe('media decoding beyond WAV', () => {
  it('an MP4 with colour video and spoken audio: video/mp4, its duration, a completed job, the words', async () => {
    const wav = await speechWav(PASSAGE);
    const mp4 = join(dir, 'talk.mp4');
    ffmpeg('-f', 'lavfi', '-i', 'color=c=teal:s=320x240:r=25', '-i', wav, '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '96k', mp4);
    const expected = durationOf(mp4);

    const up = await batchUpload(c, readFileSync(mp4), 'talk.mp4');
    expect(up.status).toBe(200);
    const file = up.body;
    expect(file.media_type).toBe('video/mp4');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: file.file_id, language: 'en' });
    const done = await jobDone(c, job.body.job_id);
    expect(done.status, done.error ?? '').toBe('completed');

    const session = (await c.json('sessions.get', `/api/v3/speech-to-text/session/${done.metadata.session_id}`)).body.result;
    expect(session.media_type).toBe('video/mp4');
    expect(session.filename).toBe('talk.mp4');
    expect(Math.abs(session.duration - expected)).toBeLessThan(0.1);
    expect(session.duration).toBeGreaterThan(durationOf(wav) - 0.5);

    const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
    const text = transcriptText(docOf(result.body.documents, 'document'));
    const found = KEY_WORDS.filter((w) => text.split(/\s+/).includes(w));
    console.log(`MP4 (H.264 + AAC): ${found.length}/${KEY_WORDS.length} key words recognised`);
    expect(found.length).toBeGreaterThanOrEqual(5);
  });

  it('a video-only MP4 fails with "no audio track", keeping its duration and type', async () => {
    const silent = join(dir, 'silent.mp4');
    ffmpeg('-f', 'lavfi', '-i', 'color=c=orange:s=320x240:r=25:d=3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', silent);
    const created = await c.json('sessions.create', '/api/v3/speech-to-text/session', { language: 'en' }, { 'x-svc-s2t-key': c.batchKey });
    const sid = created.body.result.session_id as string;
    const put = await putMedia(c, sid, readFileSync(silent), { 'content-type': 'video/mp4', 'x-filename': 'silent.mp4' });
    expect(put.status).toBe(200);
    const s = await sessionDone(c, sid);
    expect(s.status).toBe('failed');
    expect(s.error).toBe('The media file has no audio track, so there is nothing to transcribe.');
    expect(s.media_type).toBe('video/mp4');
    expect(Math.abs(s.duration - 3)).toBeLessThan(0.1);
    expect(s.date_retried).toBeNull(); // a permanent failure is not retried
  });
});
