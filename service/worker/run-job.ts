/**
 * One claimed job on a worker, as jobs/runner.ts runs it in process: fetch the media into the
 * worker's own data folder, convert it (16 kHz WAV, waveform, kept copy), run the engine, check
 * its times, and answer what the API node stores. The folder is removed afterwards: a worker
 * keeps nothing between jobs.
 */
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { engines, PermanentEngineError, type EngineResult } from '../engines';
import type { DecoderPool } from '../engines/decoder-pool';
import { afterRecognition } from '../engines/after-recognition';
import { buildLexicon } from '../engines/lexicon';
import { assertTimesInMedia } from '../engines/time-guard';
import { decodeToWav, encodeKeptCopy, keptCopyOf, MediaError, probe } from '../media/decode';
import { assertPlausibleDecode, maxDecodedSeconds } from '../media/decoded-size';
import type { OffloadPool } from '../offload/pool';
import type { SpeechEngines } from '../engines/registry';
import { computeWaveform, type Waveform } from '../media/waveform';
import type { Claimed } from '../queue/protocol';
import type { ServiceClient } from './client';

const ESTIMATE_RTF = 0.6;
const MAX_UPLOADED_DOCUMENT = 50 * 1024 * 1024;

export interface JobOutput {
  result: EngineResult;
  durationSec: number | null;
  waveform: Waveform | null;
}

export interface JobRun {
  jobId: string;
  claim: Claimed;
  client: ServiceClient;
  workDir: string;
  decoders: DecoderPool;
  offload: OffloadPool;
  speech: SpeechEngines;
  signal: AbortSignal;
  /** Progress 0..100, with the estimate and the media's duration once known. */
  report(percent: number, extra?: { estimate?: string; durationSec?: number }): void;
  /** Charges the media's length to the organization's processing quota; answers why not when it would pass the limit. */
  charge(durationSec: number): Promise<string | null>;
  /** The duration is known before a failure that follows it (a video without sound still shows its length). */
  noteDuration(sec: number): void;
}

export async function runClaimedJob(run: JobRun): Promise<JobOutput> {
  const { claim, signal } = run;
  const dir = join(run.workDir, 'jobs', `${run.jobId}-${claim.lease.slice(0, 8)}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    const lease = encodeURIComponent(claim.lease);
    let mediaPath: string | null = null;
    if (claim.has_media) {
      mediaPath = join(dir, 'media');
      await run.client.download(`/jobs/${run.jobId}/media?lease=${lease}`, mediaPath);
    }
    let durationSec: number | null = null;
    let waveform: Waveform | null = null;
    let wavPath: string | undefined;
    if (claim.kind !== 'upload') {
      if (!mediaPath) throw new PermanentEngineError('This session has no media; upload it first.');
      const info = await probe(mediaPath, signal, claim.max_media_seconds);
      durationSec = info.durationSec;
      run.noteDuration(durationSec);
      if (!info.hasAudio) throw new MediaError('The media file has no audio track, so there is nothing to transcribe.');
      const fileBytes = (await stat(mediaPath)).size;
      assertPlausibleDecode(fileBytes, info.durationSec);
      // The organization's processing quota, kept by the API node: charged once per job, before any conversion.
      const over = await run.charge(info.durationSec);
      if (over) throw new PermanentEngineError(over);
      wavPath = join(dir, 'audio.wav');
      // A header can understate the length: the decode itself stops where the size allows.
      await decodeToWav(mediaPath, wavPath, signal, Math.min(claim.max_media_seconds, maxDecodedSeconds(fileBytes)));
      run.report(10, { estimate: new Date(Date.now() + 2000 + durationSec * 1000 * ESTIMATE_RTF).toISOString(), durationSec });
      if (claim.needs_waveform) waveform = await computeWaveform(wavPath);
      if (claim.keep_media) {
        const kept = join(dir, keptCopyOf(info.hasVideo).file);
        await encodeKeptCopy(mediaPath, kept, info.hasVideo, signal, claim.max_media_seconds);
        await run.client.upload(`/jobs/${run.jobId}/kept?lease=${lease}&video=${info.hasVideo ? 1 : 0}`, kept);
      }
      run.report(15);
    }
    const text = claim.kind === 'align' ? (claim.text ?? '') : claim.kind === 'upload' ? await uploadedText(claim, mediaPath) : undefined;
    const durationMs = durationSec === null ? 0 : Math.round(durationSec * 1000);
    // The decoder's words as on one machine: offensive words out unless allowed, the glossary's terms in (cached by content in the worker's folder).
    const lexicon = claim.kind === 'upload' ? null : await buildLexicon(join(run.workDir, 'lexicon'), { allowProfanity: claim.allow_profanity, terms: claim.glossary_terms }, signal);
    const recognized = await engines[claim.kind].run({
      recognizer: claim.kind === 'upload' ? undefined : run.speech.choose(claim.language, claim.speech_engine ?? undefined),
      lexicon,
      wavPath,
      durationMs,
      language: claim.language,
      text,
      diarization: claim.diarization,
      punctuation: claim.punctuation,
      signal,
      decoders: run.decoders,
      offload: run.offload,
      onProgress: (p) => run.report(15 + p * 0.8),
    });
    const result = await afterRecognition(recognized, { language: claim.language, diarization: claim.diarization, maskProfanity: claim.mask_profanity, wavPath, durationMs, offload: run.offload });
    let mediaMs: number | null = durationSec === null ? null : durationMs || null;
    if (claim.kind === 'upload') {
      // A given text beside real media: the media's duration bounds the given times.
      mediaMs = null;
      if (claim.text && mediaPath && /^(audio|video)\//.test(claim.media_type ?? '')) {
        const info = await probe(mediaPath, signal);
        durationSec = info.durationSec;
        mediaMs = info.durationSec > 0 ? Math.round(info.durationSec * 1000) : null;
      }
    }
    assertTimesInMedia(claim.kind === 'upload' ? 'uploaded document' : 'transcript', result.transcript, result.captions, mediaMs);
    return { result, durationSec, waveform };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function uploadedText(claim: Claimed, mediaPath: string | null): Promise<string> {
  if (claim.text) return claim.text;
  if (!mediaPath) throw new PermanentEngineError('Upload mode needs a document.');
  if ((await stat(mediaPath)).size > MAX_UPLOADED_DOCUMENT) throw new PermanentEngineError('The uploaded document is larger than 50 MB.');
  return readFile(mediaPath, 'utf8');
}
