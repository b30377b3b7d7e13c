/**
 * Where the speech is, found by us rather than trusted from the decoder: the 16 kHz mono WAV that
 * decodeToWav made is read as 10 ms frames of loudness; frames quieter than a threshold set from
 * this recording's own levels (its noise floor and its speech level) are silence, and runs of
 * silence of at least MIN_PAUSE_MS are pauses. The recording is then cut into chunks for the
 * speech engine in pauses, so no chunk boundary cuts a word, and each chunk knows its offset
 * exactly. Speech that never pauses for MAX_CHUNK_MS is cut at its quietest stretch, and the
 * engine decodes across such a cut from both sides and keeps each word once.
 */
import { createReadStream } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';

export const FRAME_MS = 10;
/** A pause: at least this long below the threshold (espeak and people pause 300+ ms between sentences). */
export const MIN_PAUSE_MS = 300;
/**
 * Chunks grow to about this much audio before they are cut at the next pause. Each pocketsphinx
 * run starts its cepstral mean from cold, which costs words (later chunks are primed with the end
 * of the one before, engines/decode.ts): on the 9.2-minute test recording, before that priming,
 * 20 s chunks gave WER 0.630, 45 s chunks 0.605, the whole file at once 0.607 (a model load,
 * ~0.3 s, is small at either size).
 */
export const TARGET_CHUNK_MS = 45_000;
/** Speech without any pause is cut at its quietest 100 ms once a chunk reaches this length. */
export const MAX_CHUNK_MS = 90_000;

export interface PcmWav {
  sampleRate: number;
  /** Byte offset of the samples and their length (16-bit mono). */
  dataOffset: number;
  dataBytes: number;
}

/** Reads a WAV's header chunks: only the 16-bit mono PCM that decodeToWav writes is accepted. */
export async function readWavHeader(path: string): Promise<PcmWav> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await fh.read(head, 0, head.length, 0);
    if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') throw new Error('not a RIFF WAVE file');
    let at = 12;
    let fmt: { channels: number; sampleRate: number; bits: number; format: number } | null = null;
    while (at + 8 <= head.length) {
      const id = head.toString('latin1', at, at + 4);
      const len = head.readUInt32LE(at + 4);
      if (id === 'fmt ') fmt = { format: head.readUInt16LE(at + 8), channels: head.readUInt16LE(at + 10), sampleRate: head.readUInt32LE(at + 12), bits: head.readUInt16LE(at + 22) };
      if (id === 'data') {
        if (!fmt || fmt.format !== 1 || fmt.channels !== 1 || fmt.bits !== 16) throw new Error('the WAV is not 16-bit mono PCM');
        const dataOffset = at + 8;
        // A streamed WAV may say 0 or 0xFFFFFFFF: the file's size is the truth then.
        const dataBytes = Math.min(len === 0 ? Infinity : len, size - dataOffset) & ~1;
        return { sampleRate: fmt.sampleRate, dataOffset, dataBytes };
      }
      at += 8 + len + (len & 1);
    }
    throw new Error('the WAV has no data chunk');
  } finally {
    await fh.close();
  }
}

/** Loudness of each 10 ms frame in dBFS (-120 for digital silence), read as a stream (a 3-hour file is 1 M frames). */
export async function frameLevels(path: string, wav: PcmWav): Promise<Float32Array> {
  const frameSamples = Math.round((wav.sampleRate * FRAME_MS) / 1000);
  const frames = Math.ceil(wav.dataBytes / 2 / frameSamples);
  const levels = new Float32Array(frames);
  let frame = 0;
  let inFrame = 0;
  let sum = 0;
  let carry: Buffer | null = null;
  const push = () => {
    levels[frame++] = sum > 0 ? Math.max(-120, 10 * Math.log10(sum / inFrame / (32768 * 32768))) : -120;
    sum = 0;
    inFrame = 0;
  };
  if (wav.dataBytes === 0) return levels;
  for await (const chunk of createReadStream(path, { start: wav.dataOffset, end: wav.dataOffset + wav.dataBytes - 1, highWaterMark: 1 << 20 })) {
    let buf = chunk as Buffer;
    if (carry) buf = Buffer.concat([carry, buf]);
    const even = buf.length & ~1;
    for (let i = 0; i < even; i += 2) {
      const s = buf.readInt16LE(i);
      sum += s * s;
      if (++inFrame === frameSamples) push();
    }
    carry = even < buf.length ? buf.subarray(even) : null;
  }
  if (inFrame > 0) push();
  return levels.subarray(0, frame);
}

/**
 * Below this a frame is silence whatever the recording's own levels: speech recorded at all is
 * far louder. Without it a recording of nothing but silence (its floor and its "speech" level both
 * -120 dBFS) would be all speech, and the decoder would be run over hours of nothing.
 */
export const SILENCE_FLOOR_DB = -70;

/** The level between silence and speech: 40% of the way from the noise floor (10th percentile) to the speech level (95th), at least 30 dB below the speech, and never below SILENCE_FLOOR_DB. */
export function silenceThreshold(levels: Float32Array): number {
  if (levels.length === 0) return 0;
  const sorted = Float32Array.from(levels).sort();
  const floor = sorted[Math.floor(sorted.length * 0.1)];
  const loud = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
  return Math.max(floor + 0.4 * (loud - floor), loud - 30, SILENCE_FLOOR_DB);
}

export interface Span {
  startMs: number;
  endMs: number;
}

/** Runs of silence at least MIN_PAUSE_MS long, in time order (a silent start or end counts). */
export function findPauses(levels: Float32Array, threshold = silenceThreshold(levels), minPauseMs = MIN_PAUSE_MS): Span[] {
  const pauses: Span[] = [];
  const minFrames = Math.ceil(minPauseMs / FRAME_MS);
  let runStart = -1;
  for (let i = 0; i <= levels.length; i++) {
    const quiet = i < levels.length && levels[i] < threshold;
    if (quiet && runStart < 0) runStart = i;
    if (!quiet && runStart >= 0) {
      if (i - runStart >= minFrames || runStart === 0 || i === levels.length) pauses.push({ startMs: runStart * FRAME_MS, endMs: i * FRAME_MS });
      runStart = -1;
    }
  }
  return pauses;
}

export interface Chunk extends Span {
  /** The speech inside the chunk (first to last loud frame), for checking what the decoder reports. */
  speech: Span;
  /** The cut before or after it is in speech (no pause for MAX_CHUNK_MS): decode across it and de-duplicate. */
  forcedStart: boolean;
  forcedEnd: boolean;
}

/**
 * Cuts [0, duration) into chunks at pause midpoints: a chunk closes at the first pause after it
 * holds TARGET_CHUNK_MS; speech with no pause for MAX_CHUNK_MS is cut at its quietest 100 ms.
 * Chunks with no loud frame at all are dropped (nothing to decode there).
 */
export function planChunks(levels: Float32Array, threshold = silenceThreshold(levels), pauses = findPauses(levels, threshold), targetMs = TARGET_CHUNK_MS, maxMs = MAX_CHUNK_MS): Chunk[] {
  const totalMs = levels.length * FRAME_MS;
  const cuts: number[] = [];
  const forced = new Set<number>();
  let start = 0;
  const mids = pauses.map((p) => Math.round((p.startMs + p.endMs) / 2 / FRAME_MS) * FRAME_MS);
  let k = 0;
  while (totalMs - start > targetMs) {
    while (k < mids.length && mids[k] <= start) k++;
    let j = k;
    while (j < mids.length && mids[j] - start < targetMs) j++;
    const next = j < mids.length && mids[j] < totalMs ? mids[j] : null;
    let cut: number;
    if (next !== null && next - start <= maxMs) cut = next;
    else if (totalMs - start <= maxMs) break;
    else if (j > k && mids[j - 1] - start >= targetMs / 4) cut = mids[j - 1];
    else {
      cut = quietestCut(levels, start + targetMs / 2, start + maxMs);
      forced.add(cut);
    }
    cuts.push(cut);
    start = cut;
  }
  const bounds = [0, ...cuts, totalMs];
  const chunks: Chunk[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const speech = loudSpan(levels, threshold, bounds[i], bounds[i + 1]);
    if (speech) chunks.push({ startMs: bounds[i], endMs: bounds[i + 1], speech, forcedStart: forced.has(bounds[i]), forcedEnd: forced.has(bounds[i + 1]) });
  }
  return chunks;
}

/** The middle of the quietest 100 ms window in [fromMs, toMs). */
function quietestCut(levels: Float32Array, fromMs: number, toMs: number): number {
  const w = 10;
  const a = Math.floor(fromMs / FRAME_MS);
  const b = Math.max(a + w, Math.floor(toMs / FRAME_MS));
  let best = a;
  let bestSum = Infinity;
  let sum = 0;
  for (let i = a; i < b && i < levels.length; i++) {
    sum += levels[i];
    if (i - a >= w) sum -= levels[i - w];
    if (i - a >= w - 1 && sum < bestSum) {
      bestSum = sum;
      best = i - w + 1 + w / 2;
    }
  }
  return best * FRAME_MS;
}

function loudSpan(levels: Float32Array, threshold: number, fromMs: number, toMs: number): Span | null {
  const a = fromMs / FRAME_MS;
  const b = Math.min(levels.length, toMs / FRAME_MS);
  let first = -1;
  let last = -1;
  for (let i = a; i < b; i++) {
    if (levels[i] >= threshold) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return first < 0 ? null : { startMs: first * FRAME_MS, endMs: (last + 1) * FRAME_MS };
}

/** The speech map of a WAV: its header, its pauses and its chunks. */
export async function speechMap(path: string, chunkMs: { target: number; max: number } = { target: TARGET_CHUNK_MS, max: MAX_CHUNK_MS }): Promise<{ wav: PcmWav; pauses: Span[]; chunks: Chunk[]; durationMs: number }> {
  const wav = await readWavHeader(path);
  const levels = await frameLevels(path, wav);
  const threshold = silenceThreshold(levels);
  const pauses = findPauses(levels, threshold);
  return { wav, pauses, chunks: planChunks(levels, threshold, pauses, chunkMs.target, chunkMs.max), durationMs: Math.round((wav.dataBytes / 2 / wav.sampleRate) * 1000) };
}

/** Writes the samples of [startMs, endMs) of a PCM WAV as a WAV of its own (pocketsphinx reads files). */
export async function writeWavSlice(path: string, wav: PcmWav, span: Span, out: string): Promise<void> {
  const bytesPerMs = (wav.sampleRate * 2) / 1000;
  const from = Math.floor(span.startMs * bytesPerMs) & ~1;
  const to = Math.min(wav.dataBytes, Math.floor(span.endMs * bytesPerMs) & ~1);
  const body = Buffer.alloc(Math.max(0, to - from));
  const fh = await open(path, 'r');
  try {
    await fh.read(body, 0, body.length, wav.dataOffset + from);
  } finally {
    await fh.close();
  }
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + body.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(wav.sampleRate, 24);
  h.writeUInt32LE(wav.sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(body.length, 40);
  await writeFile(out, Buffer.concat([h, body]));
}
