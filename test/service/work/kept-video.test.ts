/**
 * keep_source with a video: the kept copy the editors play keeps its picture (360p at most, H.264
 * and AAC, served as video/mp4) and the session's full length, so the player's duration is the
 * header's. Upload mode with media keeps it too, and the "Name: " prefixes our SRT writer puts at a
 * speaker's turn come back as speakers. ffprobe reads the copy as the service serves it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { captionOf, client, docOf, jobDone, uploadedFileId, type Client } from './helpers';

let svc: RunningService;
let c: Client;
let dir: string;
let mp4: string;

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);

interface Probed {
  format: { duration: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
}
const ffprobe = (path: string): Probed => JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path]).toString()) as Probed;

beforeAll(async () => {
  dir = tempDir('s2t-kept-video-');
  svc = await startService();
  c = await client(svc.url);
  // 640×480, and the picture runs two seconds past the speech: an audio-only copy would be shorter than the session.
  const wav = await speechWav('The river is calm today.');
  const speechSec = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav]).toString());
  mp4 = join(dir, 'talk.mp4');
  ffmpeg('-f', 'lavfi', '-i', `testsrc=s=640x480:r=25:d=${(speechSec + 2).toFixed(2)}`, '-i', wav, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', mp4);
}, 60_000);

afterAll(() => stopAndRemove(svc, dir));

/** The kept copy as the editors get it: its media type, and ffprobe's reading of the bytes. */
async function keptCopy(sessionId: string, name: string): Promise<{ type: string | null; probed: Probed; sessionDuration: number }> {
  const s = (await c.json('sessions.get', `/api/v3/speech-to-text/session/${sessionId}`)).body.result;
  expect(s.media_url, 'the session keeps its media').toMatch(/\/media\?/);
  const res = await fetch(s.media_url);
  expect(res.status).toBe(200);
  const file = join(dir, name);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { type: res.headers.get('content-type'), probed: ffprobe(file), sessionDuration: s.duration ?? 0 };
}

function expectSmallVideo({ type, probed, sessionDuration }: Awaited<ReturnType<typeof keptCopy>>): void {
  expect(type).toBe('video/mp4');
  const video = probed.streams.find((s) => s.codec_type === 'video');
  expect(video?.codec_name).toBe('h264');
  expect(video?.height).toBe(360);
  expect(video?.width).toBe(480);
  expect(probed.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
  // The player's duration is the kept copy's; the header's is the session's.
  expect(Math.abs(Number(probed.format.duration) - sessionDuration)).toBeLessThan(0.25);
}

describe('the kept copy of a video', () => {
  it('transcribed with keep_source: a 360p H.264/AAC video as long as the session', async () => {
    const fileId = await uploadedFileId(c, readFileSync(mp4), 'talk.mp4');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', keep_source: true });
    const done = await jobDone(c, job.body.job_id);
    expect(done.status, done.error ?? '').toBe('completed');
    expectSmallVideo(await keptCopy(done.metadata.session_id, 'kept-decode.mp4'));
  });

  it('upload mode with the video and our own SRT: keeps the video, and the name prefixes become speakers', async () => {
    const srt = '1\n00:00:00,000 --> 00:00:01,000\nNarrator: The river\n\n2\n00:00:01,000 --> 00:00:02,000\nis calm today.\n\n3\n00:00:02,000 --> 00:00:03,000\nDr. Ann Lee: Indeed it is.\n\n4\n00:00:03,000 --> 00:00:03,500\nNote that: this stays.\n';
    const fileId = await uploadedFileId(c, readFileSync(mp4), 'talk.mp4');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', keep_source: true, session_mode: 'upload', transcript_text: srt });
    const done = await jobDone(c, job.body.job_id);
    expect(done.status, done.error ?? '').toBe('completed');
    expectSmallVideo(await keptCopy(done.metadata.session_id, 'kept-upload.mp4'));

    const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
    const captions = captionOf(docOf(result.body.documents, 'caption'));
    const name = (id: string | null | undefined) => captions.speakers.find((s) => s.id === id)?.name ?? null;
    expect(captions.cues.map((q) => [name(q.speaker_id), q.lines.join(' ')])).toEqual([
      ['Narrator', 'The river'],
      ['Narrator', 'is calm today.'],
      ['Dr. Ann Lee', 'Indeed it is.'],
      ['Dr. Ann Lee', 'Note that: this stays.'],
    ]);
  });
});
