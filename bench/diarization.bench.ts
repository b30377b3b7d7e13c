/**
 * The speaker step (service/engines/speakers, service/media/diarize) on an espeak-ng meeting of
 * three voices taking turns at known times (sox): its diarization error rate (share of speech
 * time on the wrong speaker after the best mapping, or on none) beside the trivial peer "everything
 * is one speaker", and the time it adds per minute of audio beside the recognition of the same
 * audio (pocketsphinx, as a job runs it). S2T_BENCH_DIARIZE_ROUNDS (default 3: 18 turns, ~80 s).
 */
import { DecoderPool } from '../service/engines/decoder-pool';
import { recognize } from '../service/engines/decode';
import { diarize, type Turn } from '../service/media/diarize';
import { mfcc } from '../service/media/mfcc';
import { frameLevels, readWavHeader, silenceThreshold } from '../service/media/speech-regions';
import { diarizationErrorRate, MEETING_LINES, meetingSpeech } from '../test/helpers/speech';
import { row, timeMs, type BenchModule, type BenchRow } from './harness';

const ROUNDS = Number(process.env.S2T_BENCH_DIARIZE_ROUNDS ?? 3);
const VOICES = ['en-us+m3', 'en-us+f2', 'en-gb+m1'];

export const diarizationBench: BenchModule = {
  name: 'diarization',
  async run(): Promise<BenchRow[]> {
    const lines = Array.from({ length: ROUNDS }, () => MEETING_LINES).flat();
    const audio = await meetingSpeech(lines, VOICES);
    const truth = (i: number) => i % VOICES.length;
    let turns: Turn[] = [];
    const ours = await timeMs(async () => {
      const wav = await readWavHeader(audio.path);
      const levels = await frameLevels(audio.path, wav);
      turns = diarize(await mfcc(audio.path, wav), levels, silenceThreshold(levels));
    });
    const oneSpeaker: Turn[] = [{ startMs: 0, endMs: audio.durationMs, speaker: 0 }];
    const der = diarizationErrorRate(audio, truth, turns);
    const derOne = diarizationErrorRate(audio, truth, oneSpeaker);
    const pool = DecoderPool.forService(1);
    const peer = await timeMs(() => recognize(audio.path, 'en', { signal: new AbortController().signal, decoders: pool }));
    const minutes = audio.durationMs / 60_000;
    const found = new Set(turns.map((t) => t.speaker)).size;
    return [
      row({ name: `diarization error rate, ${VOICES.length} voices (${found} found), vs everything one speaker`, unit: 'DER', ours: Math.round(der * 1000) / 1000, peer: Math.round(derOne * 1000) / 1000, target: 'DER <= 0.1', met: der <= 0.1 }),
      row({ name: 'diarization time per minute of audio vs recognition of it', unit: 'ms/min', ours: Math.round(ours / minutes), peer: Math.round(peer / minutes), target: 'ratio <= 0.25', met: ours <= peer * 0.25 }),
    ];
  },
};
