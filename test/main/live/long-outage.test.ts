/**
 * A long outage: the service is killed mid-recording and is out of the app's reach until it has
 * finished the stream on its own (its resume wait is 1.5 s here, a minute in use). The app records
 * on; when the service answers again, the stream cannot be resumed, so the whole recording, every
 * second of it, goes to the uploads to be transcribed as any file is, the part the service held is
 * deleted, and the Live state says so.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LiveState } from '../../../common/ipc/live';
import { LiveController } from '../../../main/live/controller';
import { DEMO, serviceLogin, startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { placedSpeech } from '../../helpers/speech';
import { realtimeKey } from '../../service/realtime/client';

const SHORT_LINGER = 'test/service/realtime/fixtures/serve-short-linger.ts';
let svc: RunningService | undefined;
let wav: Buffer;

beforeAll(async () => {
  const speech = await placedSpeech({ sentences: ['the weather is nice today', 'please send the report to my office'], gapsMs: [600, 1500], tailMs: 1500, sampleRate: 16_000, container: 'wav' });
  wav = readFileSync(speech.path);
}, 120_000);
afterAll(() => stopAndRemove(svc));

const until = async (what: string, test: () => boolean | Promise<boolean>, ms = 60_000) => {
  for (const end = Date.now() + ms; !(await test()); await new Promise((r) => setTimeout(r, 100))) if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
};

it('when the service finished the stream while it was away, the whole recording goes to the uploads', async () => {
  const first = await startService({ entry: SHORT_LINGER });
  svc = first;
  const key = await realtimeKey(first.url, DEMO);
  const reachable = `${first.url.replace(/^http/, 'ws')}/api/v3/realtime`;
  let realtimeUrl = reachable;
  const states: LiveState[] = [];
  const uploads: { path: string; language: string }[] = [];
  const discarded: { id: string; afterUploads: number }[] = [];
  const live = new LiveController({
    dataDir: tempDir('s2t-live-'),
    realtimeUrl: () => realtimeUrl,
    realtimeKey: async () => key,
    changed: (s) => states.push(s),
    finished: () => {
      throw new Error('the stream cannot finish live here');
    },
    upload: async (path, language) => void uploads.push({ path, language }),
    discard: async (id) => void discarded.push({ id, afterUploads: uploads.length }),
    backoffMs: [200],
  });
  const samples = wav.subarray(44);
  const feed = (fromMs: number, toMs: number) => {
    for (let at = fromMs * 32; at < toMs * 32; at += 3200) live.audio(Buffer.from(samples.subarray(at, Math.min(at + 3200, toMs * 32))));
  };
  live.start('en');
  feed(0, 3000);
  await until('the stream to start', () => live.current().sessionId !== null && live.current().connection === 'connected');
  const sessionId = live.current().sessionId!;

  // The service goes away, and stays out of reach (nothing answers at the address) after it is back.
  realtimeUrl = 'ws://127.0.0.1:1/api/v3/realtime';
  await first.kill();
  await until('reconnecting', () => live.current().connection === 'reconnecting');
  feed(3000, 6000); // recording goes on meanwhile
  svc = await startService({ entry: SHORT_LINGER, dataDir: first.dataDir, port: Number(new URL(first.url).port) });
  const access = await serviceLogin(svc.url, DEMO);
  const status = async () => ((await (await fetch(`${svc!.url}/api/v3/speech-to-text/session/${sessionId}`, { headers: { authorization: `Bearer ${access}` } })).json()) as { result: { status: string } }).result.status;
  await until('the service to finish the stream without the app', async () => (await status()) !== 'uploaded');

  realtimeUrl = reachable;
  await until('the hand-over', () => live.current().status !== 'recording');
  const state = live.current();
  expect(state.status).toBe('uploaded');
  expect(state.message).toMatch(/transcribed as an upload: see Uploads/);
  expect(state.message).toMatch(/\(0:06\)/);
  expect(uploads).toHaveLength(1);
  expect(uploads[0].language).toBe('en');
  // The whole recording, sealed: 6 s of samples, exactly as fed.
  const file = readFileSync(uploads[0].path);
  expect(file.readUInt32LE(40)).toBe(6000 * 32);
  expect(file.subarray(44).equals(samples.subarray(0, 6000 * 32))).toBe(true);
  // The part the service made a session of is deleted once the upload is queued: one session holds it all.
  await until('the part to be deleted', () => discarded.length > 0, 5_000);
  expect(discarded).toEqual([{ id: sessionId, afterUploads: 1 }]);
  // Nothing more is recorded or sent, and the view can start again.
  expect(live.audio(Buffer.alloc(3200))).toBe(6000);
  expect(live.reset().status).toBe('idle');
  live.close();
}, 240_000);
