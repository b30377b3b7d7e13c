/**
 * The dialog's "keep media" and "punctuation" reach the service on the batch path:
 * the queue sends keep_source and punctuation in batch.transcribe, and the local service keeps
 * the media for playback and closes sentences exactly as the legacy create does. Over real HTTP,
 * with real espeak-ng speech and the real recognizer.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { plainText, type DocumentContent } from '../../../common/transcript/model';
import { speechWav } from '../../helpers/speech';
import { until } from '../watch/helpers';
import { importsSuite, latest } from './helpers';

const t = importsSuite('s2t-batch-options');

const api = (path: string) => fetch(`${t.svc.url}/api/v3/speech-to-text${path}`, { headers: { authorization: `Bearer ${t.token}` } });

async function importDone(name: string, options: { keepMedia: boolean; punctuation: boolean }): Promise<string> {
  const media = join(t.dirs.make('s2t-batch-options-media-'), name);
  copyFileSync(await speechWav('good morning everyone and welcome to the weekly meeting of the team'), media);
  const { items } = await t.h.call('imports.add', { sources: [{ kind: 'path', path: media }], options: { language: 'en-US', ...options } });
  const id = items[0].itemId;
  const done = await until(`${name} done`, () => {
    const e = latest(t.h.events, id);
    if (e?.state === 'failed') throw new Error(`${name} failed: ${e.message}`);
    return e?.state === 'done' ? e : null;
  }, 180_000);
  // The batch path, not the legacy one: the item had a job.
  expect(t.h.events.filter((e) => e.itemId === id).map((e) => e.state)).toContain('uploading');
  return done.sessionId!;
}

async function session(sessionId: string): Promise<{ media_url: string }> {
  const res = await api(`/session/${sessionId}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { media_url: string } }).result;
}

async function transcriptText(sessionId: string): Promise<string> {
  const res = await api(`/session/${sessionId}/document?include_content=true`);
  const body = (await res.json()) as { result: { type: string; document?: { content: DocumentContent } }[] };
  const doc = body.result.find((d) => d.type === 'document');
  return doc?.document ? plainText(doc.document.content) : '';
}

it('a batch job with keep media has a playable media_url (and punctuation); one without has neither', async () => {
  const kept = await importDone('kept.wav', { keepMedia: true, punctuation: true });
  const plain = await importDone('plain.wav', { keepMedia: false, punctuation: false });

  const k = await session(kept);
  expect(k.media_url).toMatch(/\/media\?exp=\d+&sig=/);
  const res = await fetch(k.media_url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('audio/mpeg');
  // Playable: ffprobe reads an audio stream of the speech's length from what the link serves.
  const file = join(t.dirs.make('s2t-batch-options-kept-'), 'kept.mp3');
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], { encoding: 'utf8' })) as {
    streams: { codec_type: string }[];
    format: { duration: string };
  };
  expect(probe.streams.map((s) => s.codec_type)).toContain('audio');
  expect(Number(probe.format.duration)).toBeGreaterThan(1);

  const p = await session(plain);
  expect(p.media_url).toBe('');

  // Punctuation as the legacy create does it: each pause-delimited segment closed with a full stop.
  expect(await transcriptText(kept)).toMatch(/\.\s*$/);
  expect(await transcriptText(plain)).not.toMatch(/\./);
}, 400_000);
