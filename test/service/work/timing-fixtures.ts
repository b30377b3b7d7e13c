/**
 * Recordings with known truth for the timing tests and the bench: espeak sentences placed with sox
 * at known offsets (test/helpers/speech placedSpeech), and the measure of recognized words against
 * where the sentences were placed. No vitest here: the bench uses it too.
 */
import { placedSpeech, type PlacedSpeech, type PlacementSpec } from '../../helpers/speech';

export const SENTENCES = [
  'Good morning everyone, thanks for joining the meeting today.',
  'We will start with the budget for the next quarter.',
  'The sales team reported strong growth in the north region.',
  'Marketing wants more money for the spring campaign.',
  'Please send your comments before Friday afternoon.',
  'The new office opens in March, and we need volunteers to help with the move.',
  'Any questions before we close?',
  'Children play football on the green grass near the river.',
  'The weather today is sunny and warm.',
  'Many people walk in the park with their dogs.',
  'In the evening, families gather for dinner and talk about their day.',
  'Our customers asked for a faster delivery service.',
  'The quick brown fox jumps over the lazy dog.',
];

/** Pauses between sentences, from a short breath to a long silence. */
const GAPS = [700, 1500, 900, 3000, 600, 2000, 1200, 5000];

/** About `seconds` of speech: sentences in turn with the gaps above; `leadMs` of silence before the first. */
export function meetingSpec(seconds: number, sampleRate: number, container: 'wav' | 'mp4', leadMs = 500): PlacementSpec {
  const sentences: string[] = [];
  const gapsMs: number[] = [];
  // ~3.6 s a sentence plus its gap.
  let t = leadMs;
  for (let i = 0; t < seconds * 1000 - 5000; i++) {
    sentences.push(SENTENCES[i % SENTENCES.length]);
    gapsMs.push(i === 0 ? leadMs : GAPS[i % GAPS.length]);
    t += 3600 + (i === 0 ? 0 : GAPS[i % GAPS.length]);
  }
  return { sentences, gapsMs, tailMs: 1000, sampleRate, container };
}

/**
 * Speech from 0 s with no pause at all between sentences (4 sentences: about 15 s). `commas: false`
 * drops the commas, where espeak pauses 300 ms, for speech with no pause anywhere.
 */
export function noPauseSpec(sampleRate: number, container: 'wav' | 'mp4', count = 4, commas = true): PlacementSpec {
  const sentences = Array.from({ length: count }, (_, i) => (commas ? SENTENCES[i % SENTENCES.length] : SENTENCES[i % SENTENCES.length].replace(/,/g, '')));
  return { sentences, gapsMs: sentences.map(() => 0), tailMs: 300, sampleRate, container };
}

export const fixture = (spec: PlacementSpec): Promise<PlacedSpeech> => placedSpeech(spec);

export interface TimedWord {
  text: string;
  start_ms: number;
  end_ms: number;
}

export interface SentenceCheck {
  placedMs: number;
  firstWord: TimedWord | null;
  errorMs: number;
}

/**
 * "The first recognized word of a sentence": the first word that starts after the middle of the
 * placed silence before it, or, where that silence is shorter than 600 ms (none, in speech without
 * pauses), after 300 ms before the sentence. Its error is its start minus the placed start.
 */
export function firstWords(placed: PlacedSpeech, words: TimedWord[]): SentenceCheck[] {
  return placed.sentences.map((s, i) => {
    const prevEnd = i === 0 ? 0 : placed.sentences[i - 1].endMs;
    const from = Math.min(prevEnd + (s.startMs - prevEnd) / 2, s.startMs - 300);
    const w = words.find((x) => x.start_ms >= from) ?? null;
    return { placedMs: s.startMs, firstWord: w, errorMs: w ? w.start_ms - s.startMs : Infinity };
  });
}

export function summary(checks: SentenceCheck[]): { worstMs: number; meanAbsMs: number; over: number } {
  const abs = checks.map((c) => Math.abs(c.errorMs));
  return { worstMs: Math.max(...abs), meanAbsMs: abs.reduce((a, b) => a + b, 0) / abs.length, over: abs.filter((x) => x > 300).length };
}
