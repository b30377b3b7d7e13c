/** Known speech for tests: espeak-ng speaks a given text to a WAV (the voice pocketsphinx hears best). */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Turn } from '../../service/media/diarize';

export const VOICE = 'en-us+klatt3';

/**
 * Returns the path of a 16-bit WAV of `text`, cached by content in the temp dir. Written under a
 * private name and renamed into place, so test files running at once never read a half-written WAV.
 */
export async function speechWav(text: string, opts: { voice?: string; wordsPerMinute?: number } = {}): Promise<string> {
  const voice = opts.voice ?? VOICE;
  const wpm = opts.wordsPerMinute ?? 150;
  const dir = join(tmpdir(), 's2t-speech');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${createHash('sha1').update(`${voice}|${wpm}|${text}`).digest('hex')}.wav`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.partial`;
    execFileSync('espeak-ng', ['-v', voice, '-s', String(wpm), '-w', partial, text]);
    renameSync(partial, file);
  }
  return file;
}

/** Two spoken phrases with 1.5 s of silence between them, written under `name` (one file per test, so runs do not share one). */
export async function twoPhraseWav(name: string): Promise<string> {
  const first = await speechWav('hello from the end to end test');
  const second = await speechWav('the weather is nice today and the sun is shining');
  const dir = join(tmpdir(), 's2t-speech');
  const padded = join(dir, `${name}-first-padded.wav`);
  const out = join(dir, `${name}-two-phrases.wav`);
  execFileSync('sox', [first, padded, 'pad', '0', '1.5']);
  execFileSync('sox', [padded, second, out]);
  return out;
}

/** The words of a text as WER counts them: lowercased, punctuation dropped. */
export function words(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').split(/\s+/).filter(Boolean);
}

/** Word error rate of a hypothesis against the reference (Levenshtein over lowercased words). */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const r = words(reference);
  const h = words(hypothesis);
  const d = Array.from({ length: r.length + 1 }, (_, i) => [i, ...Array(h.length).fill(0)] as number[]);
  for (let j = 0; j <= h.length; j++) d[0][j] = j;
  for (let i = 1; i <= r.length; i++)
    for (let j = 1; j <= h.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1));
  return r.length ? d[r.length][h.length] / r.length : h.length ? 1 : 0;
}

export interface PlacedSentence {
  text: string;
  /** Where its speech was placed in the file (espeak's own leading and trailing silence trimmed). */
  startMs: number;
  endMs: number;
}

export interface PlacedSpeech {
  path: string;
  sentences: PlacedSentence[];
  durationMs: number;
}

export interface PlacementSpec {
  /** Sentences in order; before each, `gapsMs[i]` of digital silence (the first gap is the lead-in; 0 = none). */
  sentences: string[];
  gapsMs: number[];
  /** Silence after the last sentence. */
  tailMs?: number;
  sampleRate: number;
  container: 'wav' | 'mp4';
  /** The espeak-ng voice of each sentence (default: VOICE for all), for meetings of several speakers. */
  voices?: string[];
}

/** The two sentences the live tests and the guide's pictures speak into the fake microphone. */
export const LIVE_SPEECH: PlacementSpec = { sentences: ['the weather is nice today', 'please send the report to my office'], gapsMs: [600, 1500], tailMs: 1500, sampleRate: 16_000, container: 'wav' };

/**
 * Sentences placed at known offsets with sox: each espeak sentence is trimmed to its speech,
 * resampled, and put after a silence of known length, so its start in the file is known to the
 * sample. 'mp4' wraps the audio (AAC) with a small video track, as a meeting recording is.
 * Cached by content, like speechWav, with the placements beside it as JSON.
 */
export async function placedSpeech(spec: PlacementSpec): Promise<PlacedSpeech> {
  const dir = join(tmpdir(), 's2t-speech');
  mkdirSync(dir, { recursive: true });
  const key = createHash('sha1').update(JSON.stringify({ v: 2, voice: VOICE, ...spec })).digest('hex');
  const path = join(dir, `placed-${key}.${spec.container}`);
  const meta = `${path}.json`;
  if (existsSync(path) && existsSync(meta)) return { path, ...(JSON.parse(readFileSync(meta, 'utf8')) as Omit<PlacedSpeech, 'path'>) };
  const work = join(dir, `placed-${key}.${process.pid}.parts`);
  mkdirSync(work, { recursive: true });
  const rate = String(spec.sampleRate);
  const parts: string[] = [];
  const sentences: PlacedSentence[] = [];
  let samples = 0;
  const silence = (ms: number) => {
    const n = Math.round((ms / 1000) * spec.sampleRate);
    if (n === 0) return;
    const f = join(work, `${parts.length}.wav`);
    // The null input's rate is set too, else its default (48 kHz) counts the samples.
    execFileSync('sox', ['-r', rate, '-c', '1', '-n', '-r', rate, '-c', '1', '-b', '16', f, 'trim', '0s', `${n}s`]);
    parts.push(f);
    samples += n;
  };
  for (const [i, text] of spec.sentences.entries()) {
    silence(spec.gapsMs[i] ?? 0);
    const f = join(work, `${parts.length}.wav`);
    // Trim espeak's leading and trailing silence, so the placed offset is where the speech begins.
    execFileSync('sox', [await speechWav(text, { voice: spec.voices?.[i] }), '-r', rate, '-c', '1', '-b', '16', f, 'silence', '1', '0.005', '-45d', 'reverse', 'silence', '1', '0.005', '-45d', 'reverse']);
    const n = Number(execFileSync('soxi', ['-s', f]).toString().trim());
    sentences.push({ text, startMs: (samples / spec.sampleRate) * 1000, endMs: ((samples + n) / spec.sampleRate) * 1000 });
    parts.push(f);
    samples += n;
  }
  silence(spec.tailMs ?? 0);
  const wav = join(work, 'all.wav');
  execFileSync('sox', [...parts, wav]);
  const partial = `${path}.${process.pid}.partial.${spec.container}`;
  if (spec.container === 'mp4') {
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=160x120:r=5', '-i', wav, '-shortest', '-c:v', 'mpeg4', '-c:a', 'aac', '-b:a', '64k', partial]);
  } else renameSync(wav, partial);
  const durationMs = (samples / spec.sampleRate) * 1000;
  writeFileSync(meta, JSON.stringify({ sentences, durationMs }));
  renameSync(partial, path);
  rmSync(work, { recursive: true, force: true });
  return { path, sentences, durationMs };
}

/** Lines of a planning meeting, spoken in turns by the speaker tests and the diarization bench. */
export const MEETING_LINES = [
  'Good morning everyone, thanks for joining the planning meeting today.',
  'Thanks. I would like to start with the budget for the next quarter.',
  'Before that, can we review the schedule for the product launch?',
  'Sure, the launch is planned for the second week of March.',
  'That works for marketing, as long as the designs are ready.',
  'The designs will be finished by the end of this month.',
];

/** A meeting: `lines` spoken in turn by `voices` (line i by voices[i % voices.length]), half a second apart. */
export function meetingSpeech(lines: string[], voices: string[]): Promise<PlacedSpeech> {
  return placedSpeech({ sentences: lines, voices: lines.map((_, i) => voices[i % voices.length]), gapsMs: lines.map((_, i) => (i === 0 ? 300 : 500)), tailMs: 300, sampleRate: 16000, container: 'wav' });
}

/**
 * The share of `counts` (found|true pairs, each with its amount) that falls on the best one-to-one
 * mapping of found to true speakers, taken greedily from the largest (speakers are few); a found
 * speaker `none` maps to nobody.
 */
export function mappedShare(counts: Map<string, number>, none?: string): number {
  const usedFound = new Set<string>();
  const usedTrue = new Set<string>();
  let right = 0;
  let total = 0;
  for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1])) {
    total += n;
    const [found, real] = key.split('|');
    if (found === none || usedFound.has(found) || usedTrue.has(real)) continue;
    usedFound.add(found);
    usedTrue.add(real);
    right += n;
  }
  return total ? right / total : 0;
}

/** Share of true speech time (10 ms steps) given to the wrong speaker or to none, after the best one-to-one mapping. */
export function diarizationErrorRate(audio: PlacedSpeech, truthSpeaker: (i: number) => number, turns: Turn[]): number {
  const at = (ms: number) => turns.find((t) => ms >= t.startMs && ms < t.endMs)?.speaker ?? -1;
  const counts = new Map<string, number>();
  audio.sentences.forEach((s, i) => {
    for (let ms = s.startMs; ms < s.endMs; ms += 10) {
      const key = `${at(ms)}|${truthSpeaker(i)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  });
  return counts.size ? 1 - mappedShare(counts, '-1') : 0;
}
