/**
 * A client that sends faster than the recogniser hears (a reconnect catching up, a file streamed
 * at full speed) is held back by the service: it stops reading the socket until the recogniser
 * catches up. That wait is the service's, so the idle timeout must not end the stream meanwhile:
 * every word arrives and stop answers stopped. Here the idle timeout is 400 ms and the service
 * holds a client back past 2 s of undecoded speech (a minute and 30 s in use).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO, startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { placedSpeech, type PlacedSpeech } from '../../helpers/speech';
import { RealtimeClient, realtimeKey } from './client';

let svc: RunningService;
let key: string;
let speech: PlacedSpeech;

beforeAll(async () => {
  [svc, speech] = await Promise.all([
    startService({ entry: 'test/service/realtime/fixtures/serve-short-idle.ts' }),
    placedSpeech({ sentences: ['the weather is nice today', 'please send the report to my office', 'we will meet again next week'], gapsMs: [700, 900, 900], tailMs: 800, sampleRate: 16_000, container: 'wav' }),
  ]);
  key = await realtimeKey(svc.url, DEMO);
}, 120_000);
afterAll(() => stopAndRemove(svc));

it('holds a fast client back without ending its stream as idle: every phrase, then stopped', async () => {
  const wav = readFileSync(speech.path);
  const speechMs = speech.sentences.reduce((n, s) => n + s.endMs - s.startMs, 0);
  // Several times the speech the service lets wait undecoded, so it must stop reading more than once.
  const copies = Math.ceil(8000 / speechMs);
  const long = Buffer.concat([wav.subarray(0, 44), ...Array.from({ length: copies }, () => wav.subarray(44))]);
  const client = await RealtimeClient.connect(svc.url, key);
  await client.start();
  await client.send(long, { speed: Infinity });
  await client.stop(120_000);
  expect(client.received.filter((r) => 'error' in r.msg)).toEqual([]);
  // The last copy's last sentence was heard too.
  const lastEnd = Math.max(...client.finals().map((f) => f.result.at(-1)![2]));
  const totalMs = ((long.length - 44) / 32_000) * 1000;
  expect(lastEnd).toBeGreaterThan(totalMs - speech.sentences.at(-1)!.endMs + speech.sentences.at(-1)!.startMs - 1000);
  client.close();
}, 180_000);
