/**
 * Speech recognition with CMU PocketSphinx (Debian packages pocketsphinx, pocketsphinx-en-us):
 * `pocketsphinx_continuous -infile X.wav -time yes` prints one line per word with start, end and
 * posterior probability, which becomes the word's confidence. Its times drift with its own
 * silence removal (whole seconds on long files), so it only ever sees one pause-cut chunk at a time.
 */
import type { Segment, TranscriptContent, Word } from '../../common/transcript/model';
import { CONTENT_VERSION } from '../../common/transcript/model';
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runTool, ToolError } from '../media/run-tool';
import { speechMap, writeWavSlice, type Span } from '../media/speech-regions';
import type { DecoderPool } from './decoder-pool';
import type { Lexicon } from './lexicon';
import { diarizationNote, PermanentEngineError, type Engine, type EngineInput, type RecognizedWord, type Recognizer } from './engine';
import { PUNCTUATION_NOTE, sentencePerSegment } from './punctuate';

/** Language keys the installed acoustic model serves. */
export function decodeSupports(language: string): boolean {
  return /^en([-_](us|gb|au|ca))?$/i.test(language) || language.toLowerCase() === 'english';
}

export type { RecognizedWord } from './engine';

const LINE = /^(\S+) (\d+\.\d+) (\d+\.\d+) (\d+(?:\.\d+)?)$/;

/** Parses pocketsphinx's -time yes output: drops <s>, </s>, <sil>, fillers ([NOISE]), and "word(2)" variants' suffix. */
export function parsePocketsphinx(stdout: string): RecognizedWord[] {
  const words: RecognizedWord[] = [];
  let newUtterance = true;
  for (const line of stdout.split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const token = m[1];
    if (token === '<s>') {
      newUtterance = true;
      continue;
    }
    if (token === '</s>' || token === '<sil>' || /^[[<+].*[\]>+]$/.test(token)) continue;
    const text = token.replace(/\(\d+\)$/, '');
    const start = Math.round(Number(m[2]) * 1000);
    const end = Math.max(start, Math.round(Number(m[3]) * 1000));
    const confidence = Math.min(1, Math.max(0, Number(m[4])));
    words.push({ text, start_ms: start, end_ms: end, confidence, utteranceStart: newUtterance });
    newUtterance = false;
  }
  return words;
}

/** Cuts words into segments at utterance boundaries and pauses, at most 30 words each. */
export function segmentWords(words: RecognizedWord[] | Word[], pauseMs = 600, maxWords = 30): Segment[] {
  const segments: Segment[] = [];
  let current: Word[] = [];
  const flush = () => {
    if (current.length === 0) return;
    segments.push({ id: `s${segments.length + 1}`, speaker_id: null, start_ms: current[0].start_ms, end_ms: current.at(-1)!.end_ms, words: current });
    current = [];
  };
  for (const w of words) {
    const prev = current.at(-1);
    const boundary = (w as RecognizedWord).utteranceStart || (prev && w.start_ms - prev.end_ms > pauseMs) || current.length >= maxWords;
    if (boundary) flush();
    current.push({ text: w.text, start_ms: w.start_ms, end_ms: w.end_ms, confidence: w.confidence });
  }
  flush();
  return segments;
}

/** A detected pause at least this long starts a new segment (sentence ends; commas are shorter). */
export const SEGMENT_PAUSE_MS = 400;

/** Silence kept around a chunk's speech when it is decoded: pocketsphinx's VAD wants ~200 ms of it before an utterance. */
const CHUNK_PAD_MS = 400;
/** How far a chunk is decoded past a cut made in speech: a few words, so the one on the cut is whole on both sides. */
const OVERLAP_MS = 2000;
/**
 * How much of the previous chunk's last speech a pocketsphinx chunk's decode starts with (its words
 * dropped). Each pocketsphinx run starts its live cepstral mean at the model's feat.params value
 * (c0 41, c1 -5; -cmninit on the command line is overridden by that file) and replaces it only
 * when its first utterance ends, so every chunk heard its first sentence through a wrong mean (the
 * bench's espeak speech settles at c0 ~52, c1 ~12): on the 9.2-minute bench recording the chunks'
 * first sentences had 90 errors where one whole-file run had 74; with this, 67, and WER 0.644 to
 * 0.594 (one run over the whole file: 0.609 on the same samples).
 */
const PRIME_MS = 3000;
/** No primer across a longer silence: decoding the gap costs more than a mean from that far back gives. */
const PRIME_MAX_GAP_MS = 30_000;

export interface Recognition {
  words: RecognizedWord[];
  /** Chunks whose decoder times broke (outside the chunk or backwards) and were mapped onto the chunk's speech. */
  repairedChunks: number;
  chunks: number;
  /** Cuts made in speech (no pause for the longest chunk), decoded across from both sides. */
  cutsInSpeech: number;
}

export interface RecognizeOptions {
  signal: AbortSignal;
  decoders: DecoderPool;
  /** The media's duration as probed (0: unknown): words never end past it. */
  mediaMs?: number;
  /** Chunk sizes other than the defaults (tests: a cut in speech on a short file). */
  chunkMs?: { target: number; max: number };
  /** Share of the audio decoded so far, 0..100, after each chunk. */
  onProgress?(percent: number): void;
  /** Who hears each chunk; pocketsphinx when absent. */
  recognizer?: Recognizer;
  /** The job's dictionary and language model (offensive words left out, glossary terms added). */
  lexicon?: Lexicon | null;
}

/**
 * Recognises a 16 kHz WAV chunk by chunk: our own speech map cuts it in pauses, each chunk is
 * decoded on its own (in parallel, bounded by the pool) and its words get the chunk's known offset.
 * pocketsphinx's own time base is trusted only inside one chunk and only after a check.
 */
export async function recognize(wavPath: string, language: string, opts: RecognizeOptions): Promise<Recognition> {
  const recognizer = opts.recognizer ?? pocketsphinx;
  if (!recognizer.supports(language)) {
    throw new PermanentEngineError(
      recognizer === pocketsphinx
        ? `The local speech engine has no model for language "${language}"; only English (en) is installed (Debian package pocketsphinx-en-us). A Whisper model (Preferences, Speech models) serves many more.`
        : `The speech engine ${recognizer.label} does not serve language "${language}".`,
    );
  }
  const map = await speechMap(wavPath, opts.chunkMs);
  // The decoded WAV can run a few ms past the container's duration (codec padding): the media's own length wins.
  const limit = opts.mediaMs ? Math.min(map.durationMs, opts.mediaMs) : map.durationMs;
  // Each chunk is decoded from just before its first speech to just after its last: a long
  // silence in front of an utterance throws off pocketsphinx's first words (measured: a 2.5 s
  // lead turned "marketing wants more money" into "why").
  // Across a cut made in speech (no pause for 90 s), both neighbours decode OVERLAP_MS past it and
  // each keeps only the words that start on its own side, so the word on the cut is heard whole once.
  // After a cut in a pause, a pocketsphinx chunk's decode starts PRIME_MS before the end of the
  // previous chunk's speech (words there are that chunk's and are dropped), so its own first words
  // are heard with a settled cepstral mean, as one run over the whole file hears them.
  const primeMs = recognizer === pocketsphinx ? PRIME_MS : 0;
  const chunks = map.chunks
    .filter((c) => c.startMs < limit)
    .map((c, i, all) => {
      const prev = i > 0 ? all[i - 1].speech : null;
      const primed = primeMs > 0 && !c.forcedStart && prev !== null && c.speech.startMs - prev.endMs <= PRIME_MAX_GAP_MS;
      const startMs = c.forcedStart ? Math.max(0, c.startMs - OVERLAP_MS) : primed ? Math.max(prev.startMs, prev.endMs - primeMs) : Math.max(c.startMs, c.speech.startMs - CHUNK_PAD_MS);
      const endMs = c.forcedEnd ? Math.min(limit, c.endMs + OVERLAP_MS) : Math.min(c.endMs, c.speech.endMs + CHUNK_PAD_MS, limit);
      const speech = { startMs: c.forcedStart || primed ? startMs : c.speech.startMs, endMs: c.forcedEnd ? endMs : c.speech.endMs };
      return { ...c, startMs, endMs, speech, own: { startMs: c.forcedStart || primed ? c.startMs : -Infinity, endMs: c.forcedEnd ? c.endMs : Infinity } };
    });
  const dir = await mkdtemp(join(dirname(wavPath), 'chunks-'));
  try {
    const total = chunks.reduce((n, c) => n + c.endMs - c.startMs, 0) || 1;
    let done = 0;
    let repaired = 0;
    const perChunk = await Promise.all(
      chunks.map((chunk, i) =>
        opts.decoders.run(async () => {
          const file = join(dir, `${i}.wav`);
          await writeWavSlice(wavPath, map.wav, chunk, file);
          const raw = await recognizer.decodeChunk(file, language, opts.signal, opts.lexicon);
          await rm(file, { force: true });
          const placed = placeChunkWords(raw, chunk);
          if (placed.repaired) repaired++;
          const own = placed.words.filter((w) => w.start_ms >= chunk.own.startMs && w.start_ms < chunk.own.endMs);
          done += chunk.endMs - chunk.startMs;
          opts.onProgress?.((100 * done) / total);
          return own;
        }, opts.signal),
      ),
    );
    const words = perChunk.flat();
    markPauses(words, map.pauses.filter((p) => p.endMs - p.startMs >= SEGMENT_PAUSE_MS));
    return { words, repairedChunks: repaired, chunks: chunks.length, cutsInSpeech: chunks.filter((c) => c.forcedEnd).length };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function runDecoder(file: string, signal: AbortSignal, lexicon?: Lexicon | null): Promise<RecognizedWord[]> {
  try {
    const { stdout } = await runTool('pocketsphinx_continuous', ['-infile', file, '-time', 'yes', '-logfn', '/dev/null', ...(lexicon?.args ?? [])], { signal });
    const words = parsePocketsphinx(stdout);
    // A glossary's term comes back as the glossary writes it.
    return lexicon ? words.map((w) => ({ ...w, text: lexicon.spelling.get(w.text) ?? w.text })) : words;
  } catch (e) {
    if (e instanceof ToolError && e.code === null && /not installed/.test(e.message)) {
      throw new PermanentEngineError('Speech recognition is not available: install the Debian packages pocketsphinx and pocketsphinx-en-us.');
    }
    if (e instanceof ToolError) throw new Error(`The speech engine stopped unexpectedly (${e.message}).`);
    throw e;
  }
}

/** The engine that needs no download: Debian's pocketsphinx with its US English model. */
export const pocketsphinx: Recognizer = {
  id: 'pocketsphinx',
  label: 'pocketsphinx (built in, English)',
  punctuates: false,
  supports: decodeSupports,
  decodeChunk: (file, _language, signal, lexicon) => runDecoder(file, signal, lexicon),
};

/**
 * Moves a chunk's words (times relative to the chunk) onto the recording's time line. If the
 * decoder's times leave the chunk or go backwards, its time base slipped: the words keep their
 * order and relative lengths but are mapped onto the span where our speech map heard speech.
 */
export function placeChunkWords(words: RecognizedWord[], chunk: Span & { speech: Span }): { words: RecognizedWord[]; repaired: boolean } {
  if (words.length === 0) return { words, repaired: false };
  const length = chunk.endMs - chunk.startMs;
  const broken = words.some((w, i) => w.start_ms < 0 || w.end_ms > length || (i > 0 && w.start_ms < words[i - 1].start_ms));
  let map = (t: number) => t;
  if (broken) {
    const from = Math.min(...words.map((w) => w.start_ms));
    const to = Math.max(...words.map((w) => w.end_ms));
    const a = chunk.speech.startMs - chunk.startMs;
    const b = chunk.speech.endMs - chunk.startMs;
    const scale = to > from ? (b - a) / (to - from) : 0;
    map = (t: number) => a + (t - from) * scale;
  }
  const sorted = broken ? [...words].sort((x, y) => x.start_ms - y.start_ms) : words;
  const placed = sorted.map((w, i) => {
    const start = Math.min(chunk.endMs, Math.max(chunk.startMs, Math.round(chunk.startMs + map(w.start_ms))));
    const end = Math.min(chunk.endMs, Math.max(start, Math.round(chunk.startMs + map(w.end_ms))));
    return { ...w, start_ms: start, end_ms: end, utteranceStart: w.utteranceStart || i === 0 };
  });
  return { words: placed, repaired: broken };
}

/** The first word after the middle of each pause starts a new utterance. */
function markPauses(words: RecognizedWord[], pauses: Span[]): void {
  let k = 0;
  for (const p of pauses) {
    const mid = (p.startMs + p.endMs) / 2;
    while (k < words.length && words[k].start_ms < mid) k++;
    if (k > 0 && k < words.length) words[k].utteranceStart = true;
  }
}

/** What the metadata says about the decoder's words: offensive words left out, glossary words added. */
export function lexiconNote(lexicon: Lexicon | null | undefined): Record<string, unknown> {
  if (!lexicon) return { vocabulary: { offensive_words: 'allowed', glossary_words: 0 } };
  return { vocabulary: { offensive_words: lexicon.excluded > 0 ? 'left out' : 'allowed', glossary_words: lexicon.spelling.size, pronounced_by_rules: lexicon.guessed } };
}

export const decodeEngine: Engine = {
  name: 'decode',
  supports: decodeSupports,
  async run(input: EngineInput) {
    if (!input.wavPath) throw new PermanentEngineError('This session has no media to transcribe.');
    const recognizer = input.recognizer ?? pocketsphinx;
    const { words, repairedChunks, chunks } = await recognize(input.wavPath, input.language, { signal: input.signal, decoders: input.decoders, mediaMs: input.durationMs, onProgress: input.onProgress, recognizer, lexicon: input.lexicon });
    const segments = segmentWords(words);
    // A model engine's own punctuation and casing are kept; only pocketsphinx's bare words get the pause-based sentences.
    const added = input.punctuation && !recognizer.punctuates;
    const transcript: TranscriptContent = { kind: 'transcript', version: CONTENT_VERSION, speakers: [], segments: added ? sentencePerSegment(segments) : segments };
    const punctuation = recognizer.punctuates ? { requested: input.punctuation, note: 'Punctuation and casing are the speech model\'s own.' } : { requested: input.punctuation, ...(input.punctuation ? { note: PUNCTUATION_NOTE } : {}) };
    return {
      transcript,
      metadata: { engine: recognizer.id, ...(recognizer === pocketsphinx ? lexiconNote(input.lexicon) : {}), chunks, repaired_chunks: repairedChunks, diarization: diarizationNote(input.diarization), punctuation },
    };
  },
};
