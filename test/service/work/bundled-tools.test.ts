/**
 * The installed app's own ffmpeg and ffprobe (S2T_TOOLS_DIR, node/tools.ts) on a machine whose
 * PATH has none: the service converts and keeps the media with those copies; without them it says
 * plainly what is missing. Here the "bundled" copies are links to Debian's ffmpeg in a folder of
 * their own, and the service's PATH holds no program at all.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { client, jobDone, uploadedFileId, type Client } from './helpers';

const which = (cmd: string) => execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim();
const dir = tempDir('s2t-bundled-tools-');
const tools = join(dir, 'tools');
const emptyPath = join(dir, 'no-programs');
let wav: Uint8Array<ArrayBuffer>;
const services: RunningService[] = [];

beforeAll(async () => {
  mkdirSync(tools);
  mkdirSync(emptyPath);
  for (const t of ['ffmpeg', 'ffprobe']) symlinkSync(which(t), join(tools, t));
  wav = new Uint8Array(readFileSync(await speechWav('The river is calm today.')));
});
afterAll(async () => {
  for (const s of services) await stopAndRemove(s);
  await stopAndRemove(undefined, dir);
});

async function uploadModeJob(env: NodeJS.ProcessEnv): Promise<{ c: Client; done: Awaited<ReturnType<typeof jobDone>> }> {
  const svc = await startService({ env: { PATH: emptyPath, ...env } });
  services.push(svc);
  const c = await client(svc.url);
  const fileId = await uploadedFileId(c, wav, 'talk.wav');
  const srt = '1\n00:00:00,000 --> 00:00:01,500\nThe river is calm today.\n';
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', keep_source: true, session_mode: 'upload', transcript_text: srt });
  return { c, done: await jobDone(c, job.body.job_id) };
}

describe('ffmpeg and ffprobe that travel with the app', () => {
  it('converts and keeps the media with the bundled copies when the PATH has none', async () => {
    const { c, done } = await uploadModeJob({ S2T_TOOLS_DIR: tools });
    expect(done.status, done.error ?? '').toBe('completed');
    const s = (await c.json('sessions.get', `/api/v3/speech-to-text/session/${done.metadata.session_id}`)).body.result;
    expect(s.duration).toBeGreaterThan(1);
    const res = await fetch(s.media_url);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it('without them, the job fails saying that ffmpeg is missing', async () => {
    const { done } = await uploadModeJob({});
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/ffmpeg|ffprobe/);
    expect(done.error).toMatch(/not installed/);
  });
});
