/**
 * Word times against known truth, over real HTTP: espeak sentences placed with sox at known offsets
 * (16 kHz and 22.05 kHz WAV, MP4; ~15 s and ~60 s; one with speech from 0 s and no pause) go
 * through the upload paths (legacy PUT, batch multipart, tus), each file through one;
 * each sentence's first recognized word must start within 0.3 s of where it was placed, and no
 * word may lie past the end. The 60 s file's caption export is read back with ffmpeg (ffprobe);
 * the 3-minute file goes through one path and shows its progress moving while it is decoded.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from '../../../common/api';
import { excludedFromDecoder } from '../../../service/engines/profanity';
import { startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import type { PlacedSpeech, PlacementSpec } from '../../helpers/speech';
import { must } from '../answers';
import { captionOf, client, docOf, jobDone, putMedia, sessionDone, transcriptOf, until, uploadedFileId, type Client } from './helpers';
import { firstWords, fixture, meetingSpec, noPauseSpec, summary, type SentenceCheck, type TimedWord } from './timing-fixtures';

const STT = '/api/v3/speech-to-text';

const FILES: Record<string, PlacementSpec> = {
  '15 s, 16 kHz WAV': meetingSpec(15, 16000, 'wav'),
  '15 s, 22.05 kHz WAV': meetingSpec(15, 22050, 'wav'),
  '15 s, MP4 (AAC 22.05 kHz)': meetingSpec(15, 22050, 'mp4'),
  '15 s from 0 s without a pause': noPauseSpec(16000, 'wav'),
  '60 s, 22.05 kHz WAV': meetingSpec(60, 22050, 'wav'),
};

let svc: RunningService;
let c: Client;
let dir: string;
const placed: Record<string, PlacedSpeech> = {};

beforeAll(async () => {
  for (const [name, spec] of Object.entries(FILES)) placed[name] = await fixture(spec);
  dir = tempDir('s2t-timing-');
  svc = await startService({ args: ['--engine-concurrency', '2'] });
  c = await client(svc.url);
}, 120_000);

afterAll(() => stopAndRemove(svc, dir));

const mediaType = (p: PlacedSpeech) => (p.path.endsWith('.mp4') ? 'video/mp4' : 'audio/wav');
const fileName = (p: PlacedSpeech) => `recording.${p.path.split('.').pop()}`;
const wordsOf = (doc: Document): TimedWord[] => transcriptOf(doc).segments.flatMap((s) => s.words);

interface Stored {
  sessionId: string;
  duration: number;
  transcript: Document;
  caption: Document;
}

async function storedDocuments(sessionId: string): Promise<Stored> {
  const s = await c.json('sessions.get', `${STT}/session/${sessionId}`);
  expect(s.body.result.status, s.body.result.error ?? '').toBe('completed');
  const docs = await c.json('documents.list', `${STT}/session/${sessionId}/document?include_content=true`);
  return {
    sessionId,
    duration: s.body.result.duration,
    transcript: docOf(docs.body.result, 'document'),
    caption: docOf(docs.body.result, 'caption'),
  };
}

async function viaLegacyPut(p: PlacedSpeech): Promise<Stored> {
  const created = await c.json('sessions.create', `${STT}/session`, { language: 'en' }, { 'x-svc-s2t-key': c.batchKey });
  const sid = created.body.result.session_id as string;
  const put = await putMedia(c, sid, readFileSync(p.path), { 'content-type': mediaType(p), 'x-filename': fileName(p) });
  expect(put.status).toBe(200);
  await sessionDone(c, sid, 180_000);
  return storedDocuments(sid);
}

async function transcribed(fileId: string): Promise<Stored> {
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en' });
  expect(job.status).toBe(200);
  const done = await jobDone(c, job.body.job_id, 180_000);
  expect(done.status, done.error ?? '').toBe('completed');
  return storedDocuments(done.metadata.session_id);
}

async function viaMultipart(p: PlacedSpeech): Promise<Stored> {
  return transcribed(await uploadedFileId(c, readFileSync(p.path), fileName(p), mediaType(p)));
}

async function viaTus(p: PlacedSpeech): Promise<Stored> {
  const bytes = readFileSync(p.path);
  const url = await new Promise<string>((resolve, reject) => {
    const u = new tus.Upload(bytes, {
      endpoint: `${svc.url}/api/v3/batch/upload/tus`,
      headers: c.bearer,
      metadata: { filename: fileName(p), filetype: mediaType(p) },
      chunkSize: 256 * 1024,
      onError: reject,
      onSuccess: () => resolve(u.url!),
    });
    u.start();
  });
  return transcribed(url.split('/').pop()!);
}

/**
 * Each file goes through one path: a path changes how the bytes arrive, not how they are decoded, so
 * every file through every path decoded the same audio three times. The 60 s file's transcript
 * gives the segment check and its caption the export check.
 */
const PATHS: [string, (p: PlacedSpeech) => Promise<Stored>, string[]][] = [
  ['legacy PUT', viaLegacyPut, ['15 s, 16 kHz WAV', '15 s from 0 s without a pause']],
  ['batch multipart', viaMultipart, ['15 s, MP4 (AAC 22.05 kHz)', '60 s, 22.05 kHz WAV']],
  ['batch tus', viaTus, ['15 s, 22.05 kHz WAV']],
];

/** Asserts the rules every stored transcript keeps: inside the media, in time order; and each sentence's first word within 300 ms of where it was placed. Answers the measured errors. */
export function expectPlacedTimes(label: string, placed: PlacedSpeech, words: TimedWord[], durationMs: number): SentenceCheck[] {
  expect(words.length, label).toBeGreaterThan(0);
  words.forEach((w, i) => {
    expect(w.start_ms, `${label}: word ${i} start`).toBeGreaterThanOrEqual(0);
    expect(w.end_ms, `${label}: word ${i} end`).toBeGreaterThanOrEqual(w.start_ms);
    expect(w.end_ms, `${label}: word ${i} ends inside the media`).toBeLessThanOrEqual(durationMs);
    if (i > 0) expect(w.start_ms, `${label}: word ${i} order`).toBeGreaterThanOrEqual(words[i - 1].start_ms);
  });
  const checks = firstWords(placed, words);
  const s = summary(checks);
  console.log(`${label}: first words of ${checks.length} sentences: mean |error| ${s.meanAbsMs.toFixed(0)} ms, worst ${s.worstMs.toFixed(0)} ms (${checks.map((x) => Math.round(x.errorMs)).join(' ')})`);
  checks.forEach((x, i) => expect(Math.abs(x.errorMs), `${label}: sentence ${i + 1} placed at ${(x.placedMs / 1000).toFixed(2)} s, first word "${x.firstWord?.text}" at ${x.firstWord?.start_ms} ms`).toBeLessThanOrEqual(300));
  return checks;
}

const results: Record<string, Stored> = {};

describe('word times against where the sentences were placed', () => {
  it('every file goes through one path', () => {
    const routed = PATHS.flatMap(([, , names]) => names);
    expect(routed.sort()).toEqual(Object.keys(FILES).sort());
  });

  for (const [path, via, names] of PATHS) {
    it(`through ${path}: ${names.join(' and ')}: sentences start within 0.3 s, no word past the end`, async () => {
      // The path's files at once: the service runs two jobs, their chunks share the decoder slots.
      const stored = await Promise.all(names.map((name) => via(placed[name])));
      names.forEach((name, i) => {
        const p = placed[name];
        const s = stored[i];
        results[`${path}|${name}`] = s;
        expect(Math.abs(s.duration * 1000 - p.durationMs), `${name}: duration`).toBeLessThan(150);
        expectPlacedTimes(`${path}, ${name}`, p, wordsOf(s.transcript), s.duration * 1000);
        for (const q of captionOf(s.caption).cues) expect(q.end_ms, `${name}: caption inside the media`).toBeLessThanOrEqual(s.duration * 1000);
      });
    }, 400_000);
  }

  it('segments follow the speech: no segment runs across a placed pause', () => {
    const name = '60 s, 22.05 kHz WAV';
    const p = placed[name];
    const segments = transcriptOf(results[`batch multipart|${name}`].transcript).segments;
    const pauses = p.sentences.slice(1).map((s, i) => ({ from: p.sentences[i].endMs, to: s.startMs }));
    for (const seg of segments) {
      for (const gap of pauses) {
        const mid = (gap.from + gap.to) / 2;
        expect(seg.start_ms < mid && seg.end_ms > mid, `segment ${seg.start_ms}-${seg.end_ms} ms spans the pause at ${Math.round(mid)} ms`).toBe(false);
      }
    }
    console.log(`segments: ${segments.length} for ${p.sentences.length} placed sentences`);
    expect(segments.length).toBeGreaterThanOrEqual(p.sentences.length);
  });

  it("the 60 s file's caption export, read back with ffmpeg, starts within 0.3 s of the first sentence", async () => {
    const name = '60 s, 22.05 kHz WAV';
    const p = placed[name];
    const s = results[`batch multipart|${name}`];
    const res = await fetch(`${svc.url}${STT}/session/${s.sessionId}/document/${s.caption.id}/export/vtt`, { headers: c.bearer });
    expect(res.status).toBe(200);
    const file = join(dir, 'captions.vtt');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'packet=pts_time,duration_time', '-of', 'json', file]).toString()) as {
      packets: { pts_time: string; duration_time: string }[];
    };
    const cues = probe.packets.map((k) => ({ start: Number(k.pts_time) * 1000, end: (Number(k.pts_time) + Number(k.duration_time)) * 1000 }));
    console.log(`caption export: ${cues.length} cues; first at ${cues[0].start.toFixed(0)} ms, first sentence placed at ${p.sentences[0].startMs.toFixed(0)} ms`);
    expect(cues.length).toBeGreaterThan(1);
    expect(Math.abs(cues[0].start - p.sentences[0].startMs)).toBeLessThanOrEqual(300);
    for (const q of cues) expect(q.end).toBeLessThanOrEqual(p.durationMs);
  });
});

describe('a 3-minute recording', () => {
  it('through batch multipart: sentences within 0.3 s, and the job\'s progress moves while its chunks are decoded', async () => {
    const p = await fixture(meetingSpec(180, 16000, 'wav'));
    const fileId = await uploadedFileId(c, readFileSync(p.path), 'three-minutes.wav', 'audio/wav');
    const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en' });
    const seen = new Set<number>();
    const done = await until(
      'the 3-minute job',
      async () => {
        const j = await c.json('batch.job', `/api/v3/batch/jobs/${job.body.job_id}`);
        if (j.body.status === 'processing') seen.add(j.body.progress);
        return ['completed', 'failed'].includes(j.body.status) ? j.body : null;
      },
      600_000,
      200,
    );
    expect(done.status, done.error ?? '').toBe('completed');
    const moving = [...seen].filter((x) => x > 15 && x < 100).sort((a, b) => a - b);
    const s = await storedDocuments(done.metadata.session_id);
    const metadata = must(s.transcript.document, 'the transcript body').metadata;
    console.log(`3 min: ${String(metadata.chunks)} chunks, ${String(metadata.repaired_chunks)} repaired; progress seen while processing: ${[...seen].sort((a, b) => a - b).join(' ')}`);
    // The job's progress is written as chunks finish (two at a time can finish within one poll, and
    // the last as the job does), so a poll shows at least two steps while decoding, not one per
    // chunk; that recognize() reports once per chunk is checked in timing-place.test.ts.
    expect(Number(metadata.chunks)).toBeGreaterThanOrEqual(4);
    expect(moving.length).toBeGreaterThanOrEqual(2);
    expectPlacedTimes('batch multipart, 3 min 16 kHz WAV', p, wordsOf(s.transcript), s.duration * 1000);
    // Ordinary sentences (the fox's "jumps" once came out as "dumb ass") give no offensive word by default.
    const heard = wordsOf(s.transcript).map((w) => w.text.toLowerCase());
    expect(heard.filter((w) => excludedFromDecoder('en')(w))).toEqual([]);
  }, 700_000);
});
