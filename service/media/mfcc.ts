/**
 * Mel-frequency cepstral coefficients of a 16-bit mono WAV, the features the speaker step compares:
 * 25 ms Hamming windows every 10 ms (so frame i lines up with speech-regions' 10 ms frame i),
 * pre-emphasis 0.97, a 512-point FFT, 24 triangular mel filters from 100 Hz to 7.6 kHz, and
 * c1..c12 of the DCT of their log energies (c0, the loudness, says little about who speaks).
 * Read as a stream: an hour is 360 000 frames, 17 MB of features.
 */
import { createReadStream } from 'node:fs';
import { FRAME_MS, type PcmWav } from './speech-regions';

export const CEPSTRA = 19;
const WINDOW_MS = 25;
const FFT_SIZE = 512;
const FILTERS = 32;
const LOW_HZ = 100;
const HIGH_HZ = 7600;

const melOf = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hzOf = (mel: number) => 700 * (10 ** (mel / 2595) - 1);

/** Triangular mel filters over the FFT's bins: [first bin, weights] each. */
function melBank(sampleRate: number): { first: number; weights: Float64Array }[] {
  const high = Math.min(HIGH_HZ, sampleRate / 2);
  const edges = Array.from({ length: FILTERS + 2 }, (_, i) => hzOf(melOf(LOW_HZ) + ((melOf(high) - melOf(LOW_HZ)) * i) / (FILTERS + 1)));
  const bin = (hz: number) => (hz * FFT_SIZE) / sampleRate;
  return Array.from({ length: FILTERS }, (_, f) => {
    const [a, b, c] = [bin(edges[f]), bin(edges[f + 1]), bin(edges[f + 2])];
    const first = Math.ceil(a);
    const last = Math.floor(c);
    const weights = new Float64Array(Math.max(0, last - first + 1));
    for (let k = first; k <= last; k++) weights[k - first] = k <= b ? (k - a) / (b - a) : (c - k) / (c - b);
    return { first, weights };
  });
}

/** In-place iterative radix-2 FFT of (re, im), length a power of two. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

/** CEPSTRA coefficients per 10 ms frame, frame after frame in one array (frames = length / CEPSTRA). */
export async function mfcc(path: string, wav: PcmWav): Promise<Float32Array> {
  const hop = Math.round((wav.sampleRate * FRAME_MS) / 1000);
  const win = Math.round((wav.sampleRate * WINDOW_MS) / 1000);
  if (win > FFT_SIZE) throw new Error(`MFCC wants audio at 16 kHz or less, not ${wav.sampleRate} Hz`);
  const total = Math.floor(wav.dataBytes / 2);
  const frames = Math.ceil(total / hop);
  const out = new Float32Array(frames * CEPSTRA);
  const hamming = Float64Array.from({ length: win }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (win - 1)));
  const bank = melBank(wav.sampleRate);
  const dct = Array.from({ length: CEPSTRA }, (_, c) => Float64Array.from({ length: FILTERS }, (_, f) => Math.cos((Math.PI * (c + 1) * (f + 0.5)) / FILTERS)));
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  const logMel = new Float64Array(FILTERS);
  // A ring of the last `win` samples (pre-emphasised); a frame is taken every `hop` samples.
  const ring = new Float64Array(win);
  let seen = 0;
  let prev = 0;
  let frame = 0;
  const take = () => {
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < win; i++) re[i] = ring[(seen + i) % win] * hamming[i];
    fft(re, im);
    for (let f = 0; f < FILTERS; f++) {
      const { first, weights } = bank[f];
      let e = 0;
      for (let k = 0; k < weights.length; k++) e += weights[k] * (re[first + k] ** 2 + im[first + k] ** 2);
      logMel[f] = Math.log(e + 1e-3);
    }
    for (let c = 0; c < CEPSTRA; c++) {
      let s = 0;
      for (let f = 0; f < FILTERS; f++) s += dct[c][f] * logMel[f];
      out[frame * CEPSTRA + c] = s;
    }
    frame++;
  };
  let carry: Buffer | null = null;
  if (total > 0) {
    for await (const chunk of createReadStream(path, { start: wav.dataOffset, end: wav.dataOffset + total * 2 - 1, highWaterMark: 1 << 20 })) {
      let buf = chunk as Buffer;
      if (carry) buf = Buffer.concat([carry, buf]);
      const even = buf.length & ~1;
      for (let i = 0; i < even; i += 2) {
        const s = buf.readInt16LE(i) / 32768;
        ring[seen % win] = s - 0.97 * prev;
        prev = s;
        seen++;
        // Frame i starts at sample i*hop; it is complete once its window is in the ring.
        if (seen >= win && (seen - win) % hop === 0 && frame < frames) take();
      }
      carry = even < buf.length ? buf.subarray(even) : null;
    }
  }
  // The last frames run past the end: their windows are zero-padded.
  while (frame < frames) {
    ring[seen % win] = 0;
    seen++;
    if ((seen - win) % hop === 0) take();
  }
  return out;
}
