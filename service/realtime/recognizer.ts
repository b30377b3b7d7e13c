/**
 * A live recogniser: audio in, partial hypotheses and finished phrases out. The endpointer finds
 * where each phrase starts and ends on the audio clock; the decoder hears only the phrase (with a
 * little audio before it) and is asked for its hypothesis as audio arrives, never re-decoding.
 * Word times are on the audio clock: milliseconds from the stream's first sample, at any pace.
 */
import type { StreamDecoder } from './decoder';
import { Endpointer, SAMPLE_RATE } from './endpointer';

export interface FinalPhrase {
  words: { text: string; startMs: number; endMs: number; confidence: number }[];
}

export interface RecognizerEvents {
  partial(text: string): void;
  final(phrase: FinalPhrase): void;
  error(e: Error): void;
}

/** Audio kept for the phrase's pre-roll (more than the endpointer asks for). */
const HISTORY_SAMPLES = SAMPLE_RATE;
/** Audio is handed to the decoder in blocks about this long, and a partial may follow each. */
const BLOCK_SAMPLES = SAMPLE_RATE / 10;
/** At most one partial per this much audio (the vendor's engine sends one about every 200 ms). */
const PARTIAL_EVERY_SAMPLES = SAMPLE_RATE / 5;

export class LiveRecognizer {
  private readonly endpointer: Endpointer;
  private history = new Int16Array(HISTORY_SAMPLES);
  private total: number;
  private phraseStartSample = 0;
  private block: Int16Array[] = [];
  private blockLength = 0;
  private lastPartial = '';
  private lastPartialAt = -Infinity;
  private work: Promise<void> = Promise.resolve();
  /** Samples handed to the decoder and not yet decoded: the stream reads slower while it is large. */
  backlogSamples = 0;

  /** `startSample`: where the first pushed sample lies on the stream's clock (a resumed stream goes on from there). */
  constructor(private readonly decoder: StreamDecoder, private readonly on: RecognizerEvents, startSample = 0) {
    this.total = startSample;
    this.endpointer = new Endpointer(startSample);
  }

  /** Milliseconds of audio received so far. */
  get receivedMs(): number {
    return Math.round((this.total * 1000) / SAMPLE_RATE);
  }

  push(pcm: Int16Array): void {
    const boundaries = this.endpointer.push(pcm);
    let from = 0;
    const base = this.total;
    for (const b of boundaries) {
      const upTo = Math.max(from, b.atSample - base);
      if (b.kind === 'start') {
        this.remember(pcm.subarray(from, upTo));
        this.openPhrase(b.atSample);
      } else {
        this.feed(pcm.subarray(from, upTo));
        this.closePhrase();
      }
      from = upTo;
    }
    const rest = pcm.subarray(from);
    if (this.endpointer.inPhrase) this.feed(rest);
    else this.remember(rest);
  }

  /** Ends the open phrase, if any; resolves when every final has been given. */
  async flush(): Promise<void> {
    if (this.endpointer.inPhrase || this.blockLength > 0) this.closePhrase();
    await this.work;
  }

  private remember(pcm: Int16Array): void {
    this.total += pcm.length;
    if (pcm.length >= HISTORY_SAMPLES) {
      this.history = pcm.slice(pcm.length - HISTORY_SAMPLES);
      return;
    }
    const next = new Int16Array(HISTORY_SAMPLES);
    next.set(this.history.subarray(pcm.length));
    next.set(pcm, HISTORY_SAMPLES - pcm.length);
    this.history = next;
  }

  private openPhrase(atSample: number): void {
    const back = Math.min(HISTORY_SAMPLES, this.total - atSample);
    this.phraseStartSample = this.total - back;
    const preRoll = this.history.slice(HISTORY_SAMPLES - back);
    this.lastPartial = '';
    this.lastPartialAt = -Infinity;
    this.enqueue(async () => {
      await this.decoder.start(preRoll);
    });
  }

  private feed(pcm: Int16Array): void {
    if (pcm.length === 0) return;
    this.remember(pcm);
    this.block.push(pcm.slice());
    this.blockLength += pcm.length;
    if (this.blockLength >= BLOCK_SAMPLES) this.sendBlock();
  }

  private sendBlock(): void {
    if (this.blockLength === 0) return;
    const samples = concat(this.block, this.blockLength);
    this.block = [];
    this.blockLength = 0;
    const endSample = this.total;
    this.backlogSamples += samples.length;
    this.enqueue(async () => {
      const hyp = await this.decoder.process(samples);
      this.backlogSamples -= samples.length;
      if (hyp && hyp !== this.lastPartial && endSample - this.lastPartialAt >= PARTIAL_EVERY_SAMPLES) {
        this.lastPartial = hyp;
        this.lastPartialAt = endSample;
        this.on.partial(hyp);
      }
    });
  }

  private closePhrase(): void {
    this.sendBlock();
    const offsetMs = (this.phraseStartSample * 1000) / SAMPLE_RATE;
    this.enqueue(async () => {
      const words = await this.decoder.end();
      if (words.length === 0) return;
      this.on.final({ words: words.map((w) => ({ ...w, startMs: Math.round(w.startMs + offsetMs), endMs: Math.round(w.endMs + offsetMs) })) });
    });
  }

  private enqueue(fn: () => Promise<void>): void {
    this.work = this.work.then(fn).catch((e: Error) => this.on.error(e));
  }
}

function concat(parts: Int16Array[], length: number): Int16Array {
  if (parts.length === 1) return parts[0];
  const out = new Int16Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
