/**
 * Waveform peaks in audiowaveform's JSON format (version 2, 8-bit, min/max pairs), computed once
 * from the engine WAV and stored beside it. Streams the file, so length does not matter.
 */
import { createReadStream } from 'node:fs';

export interface Waveform {
  version: 2;
  channels: 1;
  sample_rate: number;
  samples_per_pixel: number;
  bits: 8;
  length: number;
  data: number[];
}

const WAV_HEADER = 44;

/** From a 16-bit mono PCM WAV at 16 kHz (what decodeToWav writes): 100 peak pairs a second. */
export async function computeWaveform(wavPath: string, sampleRate = 16000, samplesPerPixel = 160): Promise<Waveform> {
  const data: number[] = [];
  let min = 127;
  let max = -128;
  let n = 0;
  let carry: Buffer | null = null;
  for await (const chunk of createReadStream(wavPath, { start: WAV_HEADER, highWaterMark: 1 << 16 })) {
    let buf = chunk as Buffer;
    if (carry) {
      buf = Buffer.concat([carry, buf]);
      carry = null;
    }
    const even = buf.length - (buf.length % 2);
    for (let i = 0; i < even; i += 2) {
      const v = buf.readInt16LE(i) >> 8;
      if (v < min) min = v;
      if (v > max) max = v;
      if (++n === samplesPerPixel) {
        data.push(min, max);
        min = 127;
        max = -128;
        n = 0;
      }
    }
    if (even < buf.length) carry = buf.subarray(even);
  }
  if (n > 0) data.push(min, max);
  return { version: 2, channels: 1, sample_rate: sampleRate, samples_per_pixel: samplesPerPixel, bits: 8, length: data.length / 2, data };
}
