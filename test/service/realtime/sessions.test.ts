/**
 * Known truth and the session a stream becomes: espeak sentences placed with sox at known offsets,
 * streamed at 1× and 4×; each sentence's first final word lands within 0.3 s of where it was put.
 * After stop the stream is a completed session (mode decode) whose transcript is the finals and
 * whose media is the whole recording; a dropped socket's stream is kept the same way, and one
 * resumed after the drop (our app's extension) goes on in the same session without losing words.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, serviceLogin, startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { placedSpeech, type PlacedSpeech } from '../../helpers/speech';
import type { Document } from '../../../common/api';
import { docOf, transcriptOf } from '../work/helpers';
import { RealtimeClient, realtimeKey } from './client';

let svc: RunningService;
let key: string;
let access: string;
let speech: PlacedSpeech;
let wav: Buffer;

beforeAll(async () => {
  [svc, speech] = await Promise.all([
    startService({ entry: 'test/service/realtime/fixtures/serve-short-linger.ts' }),
    placedSpeech({ sentences: ['the weather is nice today', 'please send the report to my office', 'we will meet again next week'], gapsMs: [700, 1800, 2300], tailMs: 800, sampleRate: 16_000, container: 'wav' }),
  ]);
  wav = readFileSync(speech.path);
  key = await realtimeKey(svc.url, DEMO);
  access = await serviceLogin(svc.url, DEMO);
});
afterAll(() => stopAndRemove(svc));

async function get<T>(path: string): Promise<T> {
  const res = await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${access}` } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

interface SessionAnswer {
  status: string;
  session_mode?: string;
  duration?: number | null;
  media_url?: string | null;
  language: string;
}

async function completed(sessionId: string): Promise<SessionAnswer> {
  for (let i = 0; i < 240; i++) {
    const s = (await get<{ result: SessionAnswer }>(`/api/v3/speech-to-text/session/${sessionId}`)).result;
    if (s.status === 'completed' || s.status === 'failed') return s;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the session did not complete in 60 s');
}

async function transcriptWords(sessionId: string): Promise<{ text: string; start_ms: number }[]> {
  const docs = await get<{ result: Document[] }>(`/api/v3/speech-to-text/session/${sessionId}/document?include_content=true`);
  return transcriptOf(docOf(docs.result, 'document')).segments.flatMap((s) => s.words);
}

function expectPlaced(c: RealtimeClient): void {
  const finals = c.finals();
  for (const s of speech.sentences) {
    const f = finals.find((x) => Math.abs(x.result[0][1] - s.startMs) <= 300);
    expect(f, `a final starting within 0.3 s of ${s.startMs} ms ("${s.text}"): ${JSON.stringify(finals.map((x) => [x.result[0][1], x.text]))}`).toBeDefined();
  }
}

describe('live streams become sessions', () => {
  for (const speed of [1, 4]) {
    it(`at ${speed}×: each sentence's first word within 0.3 s of its place; the session holds the finals and the whole recording`, async () => {
      const c = await RealtimeClient.connect(svc.url, key);
      const sessionId = await c.start();
      await c.send(wav, { speed });
      // Generous: on 2 shared cores the decoder may run behind a 4× stream; the bar here is where words land.
      await c.stop(120_000);
      c.close();
      expectPlaced(c);
      const session = await completed(sessionId);
      expect(session.status).toBe('completed');
      expect(session.language).toBe('en');
      expect(session.duration).toBeCloseTo(speech.durationMs / 1000, 1);
      const words = await transcriptWords(sessionId);
      const finalWords = c.finals().flatMap((f) => f.result.map((w) => w[0]));
      expect(words.map((w) => w.text)).toEqual(finalWords);
      // The media plays: the signed link answers audio.
      expect(session.media_url).toBeTruthy();
      const media = await fetch(new URL(session.media_url!, svc.url));
      expect(media.status).toBe(200);
      expect(media.headers.get('content-type')).toMatch(/^audio\//);
    }, 120_000);
  }

  it('a socket dropped mid-stream still becomes a session with what was received', async () => {
    const c = await RealtimeClient.connect(svc.url, key);
    const sessionId = await c.start();
    const cut = Math.round(speech.sentences[1].endMs + 500);
    await c.send(wav.subarray(0, 44 + 32 * cut), { speed: 4 });
    await new Promise((r) => setTimeout(r, 500));
    c.ws.terminate();
    const session = await completed(sessionId);
    expect(session.status).toBe('completed');
    expect(session.duration).toBeCloseTo(cut / 1000, 1);
    const words = await transcriptWords(sessionId);
    expect(words.map((w) => w.text).join(' ')).toMatch(/weather|report|office/);
  }, 120_000);

  it('a dropped stream resumed with resume=<session>: one session, the audio the service lacked sent again, every sentence once and in order', async () => {
    const first = await RealtimeClient.connect(svc.url, key);
    const sessionId = await first.start();
    const cut = Math.round(speech.sentences[1].startMs + 800); // in the middle of the second sentence
    await first.send(wav.subarray(0, 44 + 32 * cut), { speed: 4 });
    await new Promise((r) => setTimeout(r, 300));
    first.ws.terminate();
    const again = await RealtimeClient.connect(svc.url, key, `/api/v3/realtime?language=en&resume=${sessionId}`);
    again.ws.send(JSON.stringify({ action: 'start' }));
    const listening = (await again.waitFor((m) => 'state' in m && m.state === 'listening', 90_000)).msg as { session_id: string; audio_ms?: number };
    expect(listening.session_id).toBe(sessionId);
    expect(listening.audio_ms).toBeGreaterThan(cut - 300);
    expect(listening.audio_ms).toBeLessThanOrEqual(cut);
    await again.send(Buffer.concat([wav.subarray(0, 44), wav.subarray(44 + 32 * listening.audio_ms!)]), { speed: 4 });
    await again.stop(120_000);
    again.close();
    const session = await completed(sessionId);
    expect(session.status).toBe('completed');
    expect(session.duration).toBeCloseTo(speech.durationMs / 1000, 1);
    const words = await transcriptWords(sessionId);
    const starts = words.map((w) => w.start_ms);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const text = words.map((w) => w.text).join(' ');
    expect(text).toMatch(/today/);
    expect(text).toMatch(/week/);
    expect(text.match(/today/g)).toHaveLength(1);
    expect(text.match(/week/g)).toHaveLength(1);
    // The resumed part repeats nothing: the second sentence's start is heard once.
    expect(text.match(/please/g)?.length ?? 0).toBeLessThanOrEqual(1);
  }, 180_000);

  it('the idle timeout ends a stream without audio with a reason and keeps its session; pings from the client hold it open', async () => {
    const pinged = await RealtimeClient.connect(svc.url, key);
    await pinged.start();
    await pinged.send(wav.subarray(0, 44 + 32 * 2500), { speed: 4 });
    const silent = await RealtimeClient.connect(svc.url, key);
    const silentId = await silent.start();
    await silent.send(wav.subarray(0, 44 + 32 * 2500), { speed: 4 });
    const pings = setInterval(() => pinged.ws.ping(), 1000);
    await silent.waitFor((m) => 'error' in m && /No audio arrived/.test(m.error), 60_000);
    await expect.poll(() => silent.closed?.code, { timeout: 10_000 }).toBe(1008);
    expect(pinged.closed).toBeNull();
    clearInterval(pings);
    await pinged.stop(120_000);
    pinged.close();
    expect((await completed(silentId)).status).toBe('completed');
  }, 180_000);
});
