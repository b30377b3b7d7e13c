/**
 * "Tell speakers apart" over real HTTP: espeak-ng meetings of two and three distinct voices taking
 * turns at known times (sox) go through batch transcribe with enable_diarization; the service's
 * speaker step must find the right number of speakers, each change near the true one, and put the
 * words on the right speaker; one voice alone is one speaker.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptContent } from '../../../common/transcript/model';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { mappedShare, MEETING_LINES, meetingSpeech, type PlacedSpeech } from '../../helpers/speech';
import { must } from '../answers';
import { client, docOf, jobDone, transcriptOf, uploadedFileId, type Client } from './helpers';

let svc: RunningService;
let c: Client;

beforeAll(async () => {
  svc = await startService();
  c = await client(svc.url);
}, 60_000);

afterAll(() => stopAndRemove(svc));

async function transcribed(audio: PlacedSpeech, diarization: boolean): Promise<{ transcript: TranscriptContent; metadata: Record<string, unknown>; exported: (format: string) => Promise<string> }> {
  const fileId = await uploadedFileId(c, readFileSync(audio.path), 'meeting.wav');
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', enable_diarization: diarization });
  expect(job.status, job.text).toBe(200);
  // The machine is shared: a generous wait, the limit is not what is tested.
  const done = await jobDone(c, job.body.job_id, 240_000);
  expect(done.status, done.error ?? '').toBe('completed');
  const result = await c.json('batch.jobResult', `/api/v3/batch/jobs/${job.body.job_id}/result`);
  const doc = docOf(result.body.documents, 'document');
  const exported = async (format: string) => (await fetch(`${c.url}/api/v3/speech-to-text/session/${done.metadata.session_id}/document/${doc.id}/export/${format}`, { headers: c.bearer })).text();
  return { transcript: transcriptOf(doc), metadata: must(doc.document, 'the transcript body').metadata, exported };
}

/** Share of words on the right speaker under the best one-to-one mapping of found to true speakers. */
function wordAccuracy(t: TranscriptContent, audio: PlacedSpeech, voices: string[]): number {
  const truth = (ms: number) => {
    let k = 0;
    audio.sentences.forEach((s, i) => {
      if (ms >= s.startMs - 250) k = i;
    });
    return voices[k % voices.length];
  };
  const pairs = new Map<string, number>();
  for (const seg of t.segments)
    for (const w of seg.words) {
      const key = `${seg.speaker_id}|${truth((w.start_ms + w.end_ms) / 2)}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
  return mappedShare(pairs);
}

/** Times where the speaker changes from one segment to the next (the later segment's start). */
function changes(t: TranscriptContent): number[] {
  return t.segments.slice(1).filter((s, i) => s.speaker_id !== t.segments[i].speaker_id).map((s) => s.start_ms);
}

describe('the speaker step', () => {
  for (const voices of [['en-us+m3', 'en-us+f2'], ['en-us+m3', 'en-us+f2', 'en-gb+m1']]) {
    it(`finds ${voices.length} speakers taking turns, with each change near the true one`, async () => {
      const audio = await meetingSpeech(MEETING_LINES, voices);
      const { transcript, metadata, exported } = await transcribed(audio, true);
      expect(metadata.diarization).toMatchObject({ requested: true, available: true, method: 'mfcc-bic-clr', speakers: voices.length });
      expect(transcript.speakers.map((s) => s.name)).toEqual(voices.map((_, i) => `Speaker ${i + 1}`));
      // Every segment has a speaker of the list.
      const ids = new Set(transcript.speakers.map((s) => s.id));
      for (const s of transcript.segments) expect(ids.has(s.speaker_id ?? '')).toBe(true);
      const truth = audio.sentences.slice(1).map((s) => s.startMs);
      const found = changes(transcript);
      expect(found).toHaveLength(truth.length);
      // The change is the first word of the new turn: within 0.5 s of where its speech starts.
      found.forEach((ms, i) => expect(Math.abs(ms - truth[i]), `change ${i + 1} at ${ms} ms, truly ${Math.round(truth[i])} ms`).toBeLessThanOrEqual(500));
      expect(wordAccuracy(transcript, audio, voices)).toBeGreaterThanOrEqual(0.9);
      // The exports name them.
      for (const format of ['srt', 'txt']) expect(await exported(format), format).toContain(`Speaker ${voices.length}`);
    }, 300_000);
  }

  it('one voice alone is one speaker; without the option no speakers are assigned', async () => {
    const audio = await meetingSpeech(MEETING_LINES.slice(0, 3), ['en-us+m3']);
    const on = await transcribed(audio, true);
    expect(on.transcript.speakers).toHaveLength(1);
    expect(new Set(on.transcript.segments.map((s) => s.speaker_id))).toEqual(new Set(['spk1']));
    const off = await transcribed(audio, false);
    expect(off.transcript.speakers).toEqual([]);
    expect(off.metadata.diarization).toMatchObject({ requested: false, available: false });
  }, 500_000);
});
