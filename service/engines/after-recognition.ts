/**
 * What follows any engine's words, the same in the service's own runner and on a team worker:
 * the speaker step where the engine gave no speakers (on an offload thread: MFCC and clustering are
 * seconds of CPU per minute of audio), then masking of offensive words where the job asks for it.
 */
import type { OffloadPool } from '../offload/pool';
import type { EngineResult } from './engine';
import { maskNote, maskOffensive } from './profanity';

/** The speaker step may take this long per second of audio before its thread is stopped (it takes about 0.04 s). */
const SPEAKER_SECONDS_PER_AUDIO_SECOND = 0.5;

export interface AfterRecognition {
  language: string;
  diarization: boolean;
  maskProfanity: boolean;
  /** The 16 kHz WAV the words came from (absent: nothing to tell speakers apart by). */
  wavPath?: string;
  durationMs: number;
  offload: OffloadPool;
}

export async function afterRecognition(result: EngineResult, opts: AfterRecognition): Promise<EngineResult> {
  let out = result;
  if (opts.diarization && opts.wavPath && out.transcript.speakers.length === 0) {
    const timeLimitMs = Math.max(60_000, opts.durationMs * SPEAKER_SECONDS_PER_AUDIO_SECOND);
    const told = await opts.offload.run('speakers', { wavPath: opts.wavPath, durationMs: opts.durationMs, transcript: JSON.stringify(out.transcript) }, { timeLimitMs });
    out = { ...out, transcript: JSON.parse(told.transcript) as EngineResult['transcript'], metadata: { ...out.metadata, diarization: told.diarization } };
  }
  if (opts.maskProfanity) {
    const m = maskOffensive(opts.language, out.transcript, out.captions);
    out = { ...out, transcript: m.transcript, captions: m.captions, metadata: { ...out.metadata, profanity: maskNote(m.masked) } };
  }
  return out;
}
