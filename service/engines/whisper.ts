/**
 * The model engine: whisper.cpp through @fugood/whisper.node (prebuilt binaries in per-platform npm
 * packages, so nothing is compiled or fetched at install). It hears one pause-cut chunk at a time,
 * like pocketsphinx, with one-token segments and token timestamps (maxLen 1), which become words
 * with their own times; the model's punctuation and casing stay as it writes them.
 *
 * The binding's promise never settles when whisper.cpp fails inside a run (its error callback
 * passes one argument where it waits for two), so every run has a watchdog, and a cancel settles
 * our side at once.
 */
import { availableParallelism } from 'node:os';
import { statSync } from 'node:fs';
import type { WhisperContext } from '@fugood/whisper.node';
import { PermanentEngineError, type RecognizedWord, type Recognizer } from './engine';
import { modelServes, whisperLanguage } from '../speech-models/catalog';
import type { InstalledModel } from '../speech-models/store';

/** How long a chunk may take before the run counts as stalled: generous, a large model on two slow cores. */
const stallLimitMs = (chunkMs: number) => 120_000 + 40 * chunkMs;

interface Loaded {
  ctx: Promise<WhisperContext>;
  bytes: number;
}

const contexts = new Map<string, Loaded>();

async function load(path: string): Promise<WhisperContext> {
  const { initWhisper } = await import('@fugood/whisper.node');
  try {
    return await initWhisper({ filePath: path, useGpu: false });
  } catch (e) {
    throw new PermanentEngineError(`The speech model file ${path} could not be loaded (${(e as Error).message}); it may be damaged: delete it and install it again.`);
  }
}

/** Frees a model's loaded context (the model was deleted or replaced). */
export async function releaseModel(path: string): Promise<void> {
  const loaded = contexts.get(path);
  contexts.delete(path);
  if (loaded) await (await loaded.ctx.catch(() => null))?.release();
}

/** The file must still be the one installed: a model deleted or replaced under a running job fails that job. */
function assertUnchanged(model: InstalledModel, path: string): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new PermanentEngineError(`The speech model "${model.name}" was deleted while this job was using it; install it again, or choose another engine.`);
  }
  if (size !== model.bytes) throw new PermanentEngineError(`The speech model "${model.name}" changed on disk while this job was using it (${size} bytes, ${model.bytes} installed); it may be damaged: delete it and install it again.`);
}

interface TokenSegment {
  text: string;
  t0: number;
  t1: number;
}

/** One-token segments to words: a token that starts with a space starts a word; bracketed non-speech marks ([BLANK_AUDIO], [_TT_…]) are dropped. */
export function tokensToWords(segments: TokenSegment[]): RecognizedWord[] {
  const words: RecognizedWord[] = [];
  let sentenceEnded = true;
  for (const s of segments) {
    const text = s.text;
    if (!text.trim() || /^\s*[[(].*[\])]\s*$/.test(text)) continue;
    const start = Math.max(0, Math.round(s.t0));
    const end = Math.max(start, Math.round(s.t1));
    const prev = words.at(-1);
    if (prev && !/^\s/.test(text)) {
      prev.text += text;
      prev.end_ms = Math.max(prev.end_ms, end);
    } else {
      words.push({ text: text.trim(), start_ms: start, end_ms: end, confidence: 1, utteranceStart: sentenceEnded });
    }
    sentenceEnded = /[.!?]["')\]]?$/.test(words.at(-1)!.text);
  }
  return words;
}

export function whisperRecognizer(model: InstalledModel, path: string): Recognizer {
  return {
    id: `whisper:${model.name}`,
    label: `Whisper ${model.name}`,
    punctuates: true,
    supports: (language) => modelServes(model.languages, language),
    async decodeChunk(file, language, signal) {
      assertUnchanged(model, path);
      let loaded = contexts.get(path);
      if (!loaded || loaded.bytes !== model.bytes) {
        loaded = { ctx: load(path), bytes: model.bytes };
        contexts.set(path, loaded);
        loaded.ctx.catch(() => contexts.delete(path));
      }
      const ctx = await loaded.ctx;
      signal.throwIfAborted();
      const chunkMs = wavMs(file);
      const run = ctx.transcribeFile(file, { language: whisperLanguage(language), maxLen: 1, tokenTimestamps: true, maxThreads: Math.max(1, availableParallelism()), temperatureInc: 0 });
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      try {
        const result = await Promise.race([
          run.promise,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`The speech model "${model.name}" gave no result for a ${Math.round(chunkMs / 1000)} s chunk in ${Math.round(stallLimitMs(chunkMs) / 1000)} s; whisper.cpp failed on it.`)), stallLimitMs(chunkMs));
            onAbort = () => reject(signal.reason ?? new Error('aborted'));
            signal.addEventListener('abort', onAbort, { once: true });
          }),
        ]);
        if (result.isAborted) throw new Error('The speech model run was stopped.');
        return tokensToWords(result.segments);
      } catch (e) {
        void run.stop();
        // The model may have gone while it ran: say that rather than the run's own error.
        assertUnchanged(model, path);
        throw e;
      } finally {
        clearTimeout(timer);
        if (onAbort) signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

/** A 16-bit mono 16 kHz WAV's length from its size (the chunks are written that way). */
function wavMs(file: string): number {
  try {
    return Math.max(0, (statSync(file).size - 44) / 32);
  } catch {
    return 0;
  }
}

/** The longest a speed measurement may take (a large model on a slow computer); then it is left unmeasured. */
const MEASURE_LIMIT_MS = 15 * 60_000;

/**
 * Seconds of compute per second of audio on this computer: one run over a 30 s window of quiet
 * noise, the unit whisper.cpp always works in (shorter audio is padded to it). whisper.cpp's own
 * bench repeats its steps hundreds of times, far too long to run after every install.
 */
export async function measureSpeed(path: string): Promise<number> {
  const ctx = await load(path);
  try {
    const samples = new Float32Array(16000 * 30);
    let seed = 1;
    for (let i = 0; i < samples.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      samples[i] = (seed / 0x7fffffff - 0.5) * 0.002;
    }
    const started = performance.now();
    const run = ctx.transcribeData(samples.buffer, { language: 'en', maxThreads: Math.max(1, availableParallelism()), temperatureInc: 0 });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([run.promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the measurement did not finish')), MEASURE_LIMIT_MS)))]).finally(() => clearTimeout(timer));
    return (performance.now() - started) / 30_000;
  } finally {
    await ctx.release();
  }
}
