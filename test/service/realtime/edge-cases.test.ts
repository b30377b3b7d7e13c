/**
 * The vendor's published edge-case matrix, over real WebSockets against the local service, with
 * the vendor's production figures as the bar: first partial within 1.0 s of speech (theirs
 * 1.2–1.7 s), a phrase's final within 2 s of the phrase's end (theirs about 12 s), stopped within
 * 1 s of stop on silence and on 500 ms of audio (theirs 1.3 and 1.8 s). Audio is paced at 1× in
 * 200 ms frames, as the vendor's harness sends it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavHeader } from '../../../service/realtime/recording';
import { DEMO, startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { placedSpeech, type PlacedSpeech } from '../../helpers/speech';
import { RealtimeClient, realtimeKey, refusal } from './client';

let svc: RunningService;
let key: string;
let speech: PlacedSpeech;
let wav: Buffer;

const silence = (ms: number) => Buffer.concat([wavHeader((ms * 32) & ~1), Buffer.alloc((ms * 32) & ~1)]);

beforeAll(async () => {
  [svc, speech] = await Promise.all([
    startService(),
    placedSpeech({ sentences: ['the weather is nice today', 'please send the report to my office'], gapsMs: [1000, 1500], tailMs: 1000, sampleRate: 16_000, container: 'wav' }),
  ]);
  wav = readFileSync(speech.path);
  key = await realtimeKey(svc.url, DEMO);
});
afterAll(() => stopAndRemove(svc));

describe('realtime edge cases', () => {
  it('T1 normal speech: listening, a partial within 1 s of speech, each final within 2 s of its phrase, stopped in compact JSON', async () => {
    const c = await RealtimeClient.connect(svc.url, key);
    const sessionId = await c.start();
    expect(sessionId).toMatch(/\S/);
    const { sentAt, frameMs } = await c.send(wav);
    await c.stop();
    // When the frame holding a moment of audio was sent (the clock of a live speaker).
    const sentWhen = (ms: number) => sentAt[Math.min(sentAt.length - 1, Math.floor(ms / frameMs))];
    const firstPartial = c.partials()[0];
    expect(firstPartial, JSON.stringify(c.raw)).toBeDefined();
    expect(firstPartial.at - sentWhen(speech.sentences[0].startMs)).toBeLessThanOrEqual(1000);
    const finals = c.finals();
    expect(finals.length).toBeGreaterThanOrEqual(2);
    for (const s of speech.sentences) {
      const f = finals.find((x) => x.result[0][1] >= s.startMs - 500 && x.result[0][1] < s.endMs);
      expect(f, `a final for "${s.text}" in ${JSON.stringify(c.raw)}`).toBeDefined();
      expect(f!.at - sentWhen(s.endMs)).toBeLessThanOrEqual(2000);
    }
    expect(finals.map((f) => f.text).join(' ')).toMatch(/weather|report|office/);
    expect(c.raw.at(-1)).toBe('{"state":"stopped"}');
    expect(c.raw[0]).toContain('"listening"');
    c.close();
  });

  it('T2 5 s of silence: no message but listening and stopped, stopped within 1 s of stop', async () => {
    const c = await RealtimeClient.connect(svc.url, key);
    await c.start();
    await c.send(silence(5000));
    const asked = await c.stop();
    expect(c.received.at(-1)!.at - asked).toBeLessThanOrEqual(1000);
    expect(c.raw).toHaveLength(2);
    c.close();
  });

  it('T3 500 ms of audio: stopped within 1 s of stop', async () => {
    const c = await RealtimeClient.connect(svc.url, key);
    await c.start();
    await c.send(Buffer.concat([wav.subarray(0, 44), wav.subarray(44 + 32 * 1000, 44 + 32 * 1500)]));
    const asked = await c.stop();
    expect(c.received.at(-1)!.at - asked).toBeLessThanOrEqual(1000);
    expect(c.raw.at(-1)).toBe('{"state":"stopped"}');
    c.close();
  });

  it('T4 15 s idle after start, then speech: partials and finals as normal', async () => {
    const c = await RealtimeClient.connect(svc.url, key);
    await c.start();
    await new Promise((r) => setTimeout(r, 15_000));
    await c.send(wav, { speed: 4 });
    await c.stop();
    expect(c.partials().length).toBeGreaterThan(0);
    expect(c.finals().length).toBeGreaterThanOrEqual(2);
    c.close();
  }, 60_000);

  it('T5/T6 a socket dropped mid-stream, then six reconnects at once: each works and is its own session', { timeout: 180_000 }, async () => {
    const first = await RealtimeClient.connect(svc.url, key);
    const dropped = await first.start();
    await first.send(wav.subarray(0, 44 + 32 * 3000), { speed: 2 });
    first.ws.terminate();
    const six = await Promise.all(Array.from({ length: 6 }, () => RealtimeClient.connect(svc.url, key)));
    const ids = await Promise.all(six.map((c) => c.start()));
    expect(new Set([...ids, dropped]).size).toBe(7);
    // Both sentences, at 1×: six streams at once may run behind on 2 shared cores, so stop waits
    // longer. The checked words are the second sentence's: each stream's decoder starts from the
    // model's default cepstral mean, and one sentence alone was once heard as other words.
    await Promise.all(six.map((c) => c.send(wav)));
    await Promise.all(six.map((c) => c.stop(120_000)));
    for (const c of six) {
      expect(c.finals().map((f) => f.text).join(' ')).toMatch(/report|office|send/);
      c.close();
    }
  });

  it('refuses a batch token, a session JWT, an unknown token and none, before any audio', async () => {
    const access = await (await import('../../helpers/service')).serviceLogin(svc.url, DEMO);
    const batch = await realtimeKey(svc.url, DEMO, 'batch');
    for (const [headers, says] of [
      [{ 'x-svc-s2t-key': batch }, /type realtime/],
      [{ 'x-svc-s2t-key': access }, /invalid/],
      [{ authorization: `Bearer ${access}` }, /header is missing/],
      [{ 'x-svc-s2t-key': 's2t_not-a-real-token' }, /invalid/],
      [{}, /header is missing/],
    ] as const) {
      const r = await refusal(svc.url, headers);
      expect(r).not.toBe('open');
      if (r === 'open') continue;
      expect(r.status).toBe(401);
      expect((JSON.parse(r.body) as { error: string }).error).toMatch(says);
    }
    expect(await refusal(svc.url, { 'x-svc-s2t-key': key }, '/realtime?language=en')).toBe('open');
    expect(await refusal(svc.url, { 'x-svc-s2t-key': key }, '/v2/realtime?language=en')).toBe('open');
  });
});
