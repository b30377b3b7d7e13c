/**
 * A stream cut by the service being killed mid-stream is resumed on the restarted service (the
 * start-up recovery of interrupted downloads leaves it alone): listening says how much audio the
 * session kept, the client sends the rest, and the one session completes with the whole recording.
 */
import { readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { DEMO, serviceLogin, startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { placedSpeech } from '../../helpers/speech';
import { RealtimeClient, realtimeKey } from './client';

let svc: RunningService | undefined;
afterAll(() => stopAndRemove(svc));

it('a stream cut by a killed service is resumed after the restart: one session, the whole recording', async () => {
  const speech = await placedSpeech({ sentences: ['the weather is nice today', 'please send the report to my office'], gapsMs: [600, 1500], tailMs: 1500, sampleRate: 16_000, container: 'wav' });
  const wav = readFileSync(speech.path);
  const first = await startService();
  const key = await realtimeKey(first.url, DEMO);
  const c = await RealtimeClient.connect(first.url, key);
  const sessionId = await c.start();
  await c.send(wav.subarray(0, 44 + 32 * 3000), { speed: 2 });
  await first.kill();
  svc = await startService({ dataDir: first.dataDir, port: Number(new URL(first.url).port) });
  const again = await RealtimeClient.connect(svc.url, key, `/api/v3/realtime?language=en&resume=${sessionId}`);
  again.ws.send(JSON.stringify({ action: 'start' }));
  const listening = (await again.waitFor((m) => 'state' in m && m.state === 'listening', 90_000)).msg as { session_id: string; audio_ms?: number };
  expect(listening.session_id).toBe(sessionId);
  // What the killed service had written of the 3 s sent (its last writes may not have landed).
  expect(listening.audio_ms).toBeGreaterThan(1000);
  expect(listening.audio_ms).toBeLessThanOrEqual(3000);
  await again.send(Buffer.concat([wav.subarray(0, 44), wav.subarray(44 + 32 * listening.audio_ms!)]), { speed: 4 });
  await again.stop(120_000);
  again.close();
  const access = await serviceLogin(svc.url, DEMO);
  let session: { status: string; duration: number } | undefined;
  for (let i = 0; i < 240 && !['completed', 'failed'].includes(session?.status ?? ''); i++) {
    if (i) await new Promise((r) => setTimeout(r, 250));
    session = ((await (await fetch(`${svc.url}/api/v3/speech-to-text/session/${sessionId}`, { headers: { authorization: `Bearer ${access}` } })).json()) as { result: { status: string; duration: number } }).result;
  }
  expect(session?.status).toBe('completed');
  expect(session!.duration).toBeCloseTo(speech.durationMs / 1000, 1);
}, 240_000);
