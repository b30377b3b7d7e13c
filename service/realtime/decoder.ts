/**
 * The streaming decoder: native/stream-decoder (a node-addon-api module over libpocketsphinx) with
 * a queue per decoder, so calls never overlap, and a small stock of loaded decoders, so a new
 * stream does not wait for the model to load (seconds on a busy machine).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface NativeWord {
  word: string;
  startFrame: number;
  endFrame: number;
  prob: number;
}
interface NativeDecoder {
  start(samples?: Int16Array): Promise<{ hyp: string }>;
  process(samples: Int16Array): Promise<{ hyp: string }>;
  end(samples?: Int16Array): Promise<{ hyp: string; words: NativeWord[] }>;
  close(): void;
}
interface NativeModule {
  load(args: string[]): Promise<NativeDecoder>;
}

const MODEL = '/usr/share/pocketsphinx/model/en-us';
/**
 * A narrower first-pass search than the batch decoder's defaults: about 40% less CPU per second of
 * audio (measured on espeak speech: 0.68 → 0.43 s of CPU per second), with the same words there.
 */
const SPEED = ['-maxhmmpf', '3000', '-pl_window', '5'];
/** The batch decoder's model; no silence removal, so frame numbers stay on the audio clock (10 ms each). */
const ARGS = ['-hmm', `${MODEL}/en-us`, '-lm', `${MODEL}/en-us.lm.bin`, '-dict', `${MODEL}/cmudict-en-us.dict`, '-remove_silence', 'no', '-logfn', '/dev/null', ...SPEED];
export const FRAME_MS = 10;

export class DecoderUnavailable extends Error {}

let loaded: NativeModule | Error | undefined;

/** Finds the built addon above this file (service/realtime in source, dist/service when bundled). */
function addonPath(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const p = join(dir, 'native', 'stream-decoder', 'build', 'Release', 'stream_decoder.node');
    if (existsSync(p)) return p;
    dir = dirname(dir);
  }
  return undefined;
}

function nativeModule(): NativeModule {
  if (!loaded) {
    const path = addonPath();
    if (!path) loaded = new DecoderUnavailable('Live transcription is not available: the streaming decoder is not built. Install libpocketsphinx-dev, pkg-config and build-essential, then run `npm run build:native`.');
    else if (!existsSync(`${MODEL}/en-us.lm.bin`)) loaded = new DecoderUnavailable('Live transcription is not available: install the Debian package pocketsphinx-en-us (the English speech model).');
    else {
      try {
        loaded = createRequire(import.meta.url)(path) as NativeModule;
      } catch (e) {
        loaded = new DecoderUnavailable(`Live transcription is not available: the streaming decoder did not load (${(e as Error).message}). Run \`npm run build:native\`.`);
      }
    }
  }
  if (loaded instanceof Error) throw loaded;
  return loaded;
}

/** Why live transcription cannot run here, or null when it can. */
export function decoderProblem(): string | null {
  try {
    nativeModule();
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

export interface DecodedWord {
  text: string;
  startMs: number;
  endMs: number;
  confidence: number;
}

/** One decoder, its calls run one after another (each runs off the event loop in the addon). */
export class StreamDecoder {
  private tail: Promise<unknown> = Promise.resolve();
  constructor(private readonly native: NativeDecoder) {}

  private queue<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }

  start(samples?: Int16Array): Promise<string> {
    return this.queue(async () => (await this.native.start(samples)).hyp);
  }

  process(samples: Int16Array): Promise<string> {
    return this.queue(async () => (await this.native.process(samples)).hyp);
  }

  /** Ends the phrase: its words, times from the phrase's first sample; fillers and silences dropped. */
  end(): Promise<DecodedWord[]> {
    return this.queue(async () => {
      const r = await this.native.end();
      // Frame numbers run on across a decoder's phrases: its first segment (<s>) marks where this one began.
      const base = Math.min(...r.words.map((w) => w.startFrame));
      return r.words
        .filter((w) => !/^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/.test(w.word))
        .map((w) => ({ text: w.word.replace(/\(\d+\)$/, ''), startMs: (w.startFrame - base) * FRAME_MS, endMs: (w.endFrame + 1 - base) * FRAME_MS, confidence: Math.round(Math.min(1, Math.max(0, w.prob)) * 1000) / 1000 }));
    });
  }

  /** Waits for queued work, then frees the model. */
  async close(): Promise<void> {
    await this.tail;
    this.native.close();
  }

  /** Ends any open phrase, so the decoder can go back to the stock. */
  async reset(): Promise<void> {
    await this.queue(() => this.native.end());
  }
}

/** Loaded decoders kept ready once streaming has begun: a stream takes one, and gives it back when it ends. */
export class DecoderStock {
  private idle: StreamDecoder[] = [];
  private loading: Promise<void> | null = null;

  constructor(private readonly keep = 2) {}

  /** The load under way, if any: loads run one at a time. */
  private lastLoad: Promise<unknown> = Promise.resolve();

  /**
   * One decoder loads at a time: pocketsphinx's set-up (ps_init) keeps process-wide state, and
   * several at once on the thread pool could stop them all, and with them every other use of the
   * pool (file writes, password hashing): the whole service.
   */
  private load(): Promise<StreamDecoder> {
    const next = this.lastLoad.then(async () => new StreamDecoder(await nativeModule().load(ARGS)));
    this.lastLoad = next.catch(() => undefined);
    return next;
  }

  /** Loads one in the background so the next stream starts at once. */
  warm(): void {
    if (this.idle.length > 0 || this.loading || decoderProblem()) return;
    this.loading = this.load()
      .then((d) => void this.idle.push(d))
      .catch(() => undefined)
      .finally(() => (this.loading = null));
  }

  async take(): Promise<StreamDecoder> {
    nativeModule();
    if (this.loading) await this.loading;
    const d = this.idle.pop() ?? (await this.load());
    this.warm();
    return d;
  }

  async give(d: StreamDecoder): Promise<void> {
    try {
      await d.reset();
      if (this.idle.length < this.keep) this.idle.push(d);
      else await d.close();
    } catch {
      await d.close().catch(() => undefined);
    }
  }

  async closeAll(): Promise<void> {
    if (this.loading) await this.loading;
    const all = this.idle.splice(0);
    await Promise.all(all.map((d) => d.close()));
  }
}
