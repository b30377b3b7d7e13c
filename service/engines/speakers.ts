/**
 * The speaker step, run after any engine that gives words but no speakers: the recording's turns
 * (../media/diarize) are laid over the words, each word goes to the turn its middle falls in (or
 * the nearest), and segments are cut where the speaker changes, so every word has a speaker.
 */
import type { DocumentMetadata, Segment, Speaker, TranscriptContent, Word } from '../../common/transcript/model';
import { diarize, type Turn } from '../media/diarize';
import { mfcc } from '../media/mfcc';
import { frameLevels, readWavHeader, silenceThreshold } from '../media/speech-regions';

/** MFCCs, BIC change points and a first clustering, then the cross-likelihood ratio of adapted mixtures (media/diarize). */
export const SPEAKER_METHOD = 'mfcc-bic-clr';
/** Longer recordings are not diarized (the clustering is quadratic in the number of pieces). */
export const MAX_DIARIZE_MS = 4 * 3600_000;

/** The speaker of a word: the turn holding its middle, else the nearest turn. */
function speakerAt(turns: Turn[], w: Word): number {
  const mid = (w.start_ms + w.end_ms) / 2;
  let best = turns[0];
  let bestGap = Infinity;
  for (const t of turns) {
    const gap = mid < t.startMs ? t.startMs - mid : mid > t.endMs ? mid - t.endMs : 0;
    if (gap < bestGap) {
      bestGap = gap;
      best = t;
    }
  }
  return best.speaker;
}

/** Gives the transcript's words the turns' speakers; a segment is cut where its speaker changes. */
export function applyTurns(content: TranscriptContent, turns: Turn[]): TranscriptContent {
  if (turns.length === 0) return content;
  const used = new Set<number>();
  const segments: Segment[] = [];
  for (const seg of content.segments) {
    let current: Word[] = [];
    let speaker = -1;
    const flush = () => {
      if (current.length === 0) return;
      used.add(speaker);
      segments.push({ id: `s${segments.length + 1}`, speaker_id: `spk${speaker + 1}`, start_ms: current[0].start_ms, end_ms: current.at(-1)!.end_ms, words: current });
      current = [];
    };
    for (const w of seg.words) {
      const s = speakerAt(turns, w);
      if (s !== speaker) flush();
      speaker = s;
      current.push(w);
    }
    flush();
  }
  // Speakers numbered in order of first word, so "Speaker 1" speaks first.
  const order = new Map<number, number>();
  for (const s of segments) {
    const n = Number(s.speaker_id!.slice(3)) - 1;
    if (!order.has(n)) order.set(n, order.size + 1);
    s.speaker_id = `spk${order.get(n)}`;
  }
  const speakers: Speaker[] = [...order.values()].map((n) => ({ id: `spk${n}`, name: `Speaker ${n}` }));
  return { ...content, speakers, segments };
}

/** Runs the speaker step on a 16 kHz WAV; answers the new transcript and what to say in the metadata. */
export async function tellSpeakersApart(wavPath: string, durationMs: number, content: TranscriptContent): Promise<{ transcript: TranscriptContent; diarization: NonNullable<DocumentMetadata['diarization']> }> {
  if (durationMs > MAX_DIARIZE_MS) {
    return { transcript: content, diarization: { requested: true, available: false, method: SPEAKER_METHOD, note: `Speakers are told apart in recordings up to ${MAX_DIARIZE_MS / 3600_000} hours; this one is longer, so no speakers were assigned.` } };
  }
  const wav = await readWavHeader(wavPath);
  const levels = await frameLevels(wavPath, wav);
  const turns = diarize(await mfcc(wavPath, wav), levels, silenceThreshold(levels));
  const transcript = applyTurns(content, turns);
  return { transcript, diarization: { requested: true, available: true, method: SPEAKER_METHOD, speakers: transcript.speakers.length } };
}
