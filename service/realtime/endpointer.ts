/**
 * Where phrases begin and end in a live stream, on the audio clock: the same idea as the batch
 * speech map (service/media/speech-regions.ts), loudness per 10 ms frame against a threshold set
 * from the stream's own noise floor, but decided as the audio arrives.
 */
export const SAMPLE_RATE = 16_000;
export const FRAME_SAMPLES = 160;
/** Speech must last this long to open a phrase (a click does not). */
const ONSET_FRAMES = 3;
/** Quiet this long ends a phrase (sentence pauses; commas are shorter). */
export const END_SILENCE_MS = 500;
/** A phrase never grows past this: the decoder's search stays small and finals keep coming. */
export const MAX_PHRASE_MS = 20_000;
/** Audio kept from before the onset: pocketsphinx wants some silence before a phrase's first word. */
export const PRE_ROLL_MS = 300;
/** Below this no frame is speech, however quiet the room (dBFS). */
const ABSOLUTE_FLOOR_DB = -50;
/** Speech stands this far above the noise floor. */
const ABOVE_FLOOR_DB = 12;

export type Boundary = { kind: 'start'; atSample: number } | { kind: 'end'; atSample: number };

export class Endpointer {
  private floorDb = -70;
  private speechRun = 0;
  private quietRun = 0;
  private phraseStart: number | null = null;
  private samples: number;
  private partial = new Int16Array(FRAME_SAMPLES);
  private partialLength = 0;

  /** `startSample`: where on the stream's clock the first sample pushed lies (a resumed stream). */
  constructor(startSample = 0) {
    this.samples = startSample;
  }

  get inPhrase(): boolean {
    return this.phraseStart !== null;
  }

  /** Feeds samples; answers the phrase boundaries they cross, each at a sample index of the stream. */
  push(pcm: Int16Array): Boundary[] {
    const out: Boundary[] = [];
    let i = 0;
    while (i < pcm.length) {
      const take = Math.min(FRAME_SAMPLES - this.partialLength, pcm.length - i);
      this.partial.set(pcm.subarray(i, i + take), this.partialLength);
      this.partialLength += take;
      i += take;
      if (this.partialLength === FRAME_SAMPLES) {
        this.frame(this.partial, out);
        this.partialLength = 0;
      }
    }
    return out;
  }

  private frame(f: Int16Array, out: Boundary[]): void {
    let sum = 0;
    for (let k = 0; k < f.length; k++) sum += f[k] * f[k];
    const db = sum === 0 ? -120 : 10 * Math.log10(sum / f.length / (32768 * 32768));
    // The floor follows quiet at once and loud only slowly (about 3 dB a second).
    this.floorDb = db < this.floorDb ? Math.max(db, -90) : this.floorDb + 0.03;
    const speech = db > Math.max(ABSOLUTE_FLOOR_DB, this.floorDb + ABOVE_FLOOR_DB);
    const frameStart = this.samples;
    this.samples += FRAME_SAMPLES;
    if (this.phraseStart === null) {
      this.speechRun = speech ? this.speechRun + 1 : 0;
      if (this.speechRun >= ONSET_FRAMES) {
        this.phraseStart = Math.max(0, frameStart - (ONSET_FRAMES - 1) * FRAME_SAMPLES - (PRE_ROLL_MS * SAMPLE_RATE) / 1000);
        this.quietRun = 0;
        out.push({ kind: 'start', atSample: this.phraseStart });
      }
      return;
    }
    this.quietRun = speech ? 0 : this.quietRun + 1;
    const tooLong = this.samples - this.phraseStart >= (MAX_PHRASE_MS * SAMPLE_RATE) / 1000;
    if (this.quietRun * 10 >= END_SILENCE_MS || tooLong) {
      out.push({ kind: 'end', atSample: this.samples });
      this.phraseStart = null;
      this.speechRun = 0;
    }
  }
}
