/**
 * Waveform peaks for the caption editor: 100 a second (one per 10 ms), each the loudest sample of
 * its 10 ms scaled to 0..255. From the service's waveform (audiowaveform JSON, its wave_info_url)
 * when it has one, else decoded here from the media file with ffmpeg (8 kHz mono is plenty for a
 * picture of speech and quick to decode) and kept on disk by the file's path, size and time.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { toolPath } from '../../node/tools';
import { isFile } from '../platform/is-file';
import { writeAtomic } from '../platform/write-atomic';

export const PEAKS_PER_SECOND = 100;
const RATE = 8000;
const SAMPLES_PER_PEAK = RATE / PEAKS_PER_SECOND;

/**
 * Peaks of a media file decoded by ffmpeg (any format it reads, video's first audio stream).
 * ffmpeg writes the samples into a file of its own, read once it has finished: through a pipe it
 * stopped every 64 KB until this process took the block, and on a computer whose other core is
 * busy each of those waits was a wait for a core, so the pass took two turns of the scheduler per
 * block where the decode alone takes one (1.7x the decode under load against 1.2x this way).
 */
export async function computePeaks(path: string, ffmpeg = toolPath('ffmpeg')): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 's2t-peaks-'));
  try {
    const raw = join(dir, 'samples.s16le');
    await decodeSamples(ffmpeg, path, raw);
    return await peaksOfSamples(raw);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function decodeSamples(ffmpeg: string, path: string, out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = ['-nostdin', '-v', 'error', '-i', path, '-vn', '-ac', '1', '-ar', String(RATE), '-f', 's16le', '-y', out];
    const proc = spawn(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-2000)));
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg could not read the media (${stderr.trim().split('\n').pop() ?? `exit ${code}`})`))));
  });
}

/** The loudest of each SAMPLES_PER_PEAK signed 16-bit little-endian samples, scaled to 0..255. */
async function peaksOfSamples(file: string): Promise<Uint8Array> {
  const handle = await open(file);
  try {
    const { size } = await handle.stat();
    const out = new Uint8Array(Math.ceil(size / 2 / SAMPLES_PER_PEAK));
    // A whole number of peaks a read, so no peak spans two blocks; a typed view reads samples
    // several times faster than readInt16LE (machines here are little-endian, as s16le is).
    const block = new Int16Array(SAMPLES_PER_PEAK * 8192);
    const bytes = new Uint8Array(block.buffer);
    let k = 0;
    for (;;) {
      let filled = 0;
      for (let n = -1; n !== 0 && filled < bytes.length; filled += n) n = (await handle.read(bytes, filled, bytes.length - filled, null)).bytesRead;
      if (filled === 0) break;
      const count = filled >> 1;
      for (let i = 0; i < count; i += SAMPLES_PER_PEAK) {
        const stop = Math.min(count, i + SAMPLES_PER_PEAK);
        let peak = 0;
        for (let j = i; j < stop; j++) {
          const x = block[j];
          const v = x < 0 ? -x : x;
          if (v > peak) peak = v;
        }
        out[k++] = Math.min(255, peak >> 7);
      }
    }
    return k === out.length ? out : out.subarray(0, k);
  } finally {
    await handle.close();
  }
}

/** The service's waveform: audiowaveform JSON, version 1 or 2, 8- or 16-bit min/max pairs, one channel. */
export const Audiowaveform = z.object({
  sample_rate: z.number().int().positive(),
  samples_per_pixel: z.number().int().positive(),
  bits: z.union([z.literal(8), z.literal(16)]),
  channels: z.number().int().positive().optional(),
  data: z.array(z.number()),
});

/** Audiowaveform pairs resampled to PEAKS_PER_SECOND, each the loudest of the pairs it covers. */
export function peaksFromAudiowaveform(json: unknown): Uint8Array {
  const w = Audiowaveform.parse(json);
  const channels = w.channels ?? 1;
  const full = w.bits === 8 ? 128 : 32768;
  const pixelMs = (w.samples_per_pixel / w.sample_rate) * 1000;
  const pixels = Math.floor(w.data.length / (2 * channels));
  const out = new Uint8Array(Math.ceil((pixels * pixelMs) / 10));
  for (let p = 0; p < pixels; p++) {
    let v = 0;
    for (let ch = 0; ch < channels; ch++) {
      const k = 2 * (p * channels + ch);
      v = Math.max(v, Math.abs(w.data[k]), Math.abs(w.data[k + 1]));
    }
    const level = Math.min(255, Math.round((v / full) * 255));
    // A pixel wider than 10 ms fills every peak it covers; narrower pixels share one.
    const from = Math.floor((p * pixelMs) / 10);
    const to = Math.max(from + 1, Math.floor(((p + 1) * pixelMs) / 10));
    for (let i = from; i < to && i < out.length; i++) out[i] = Math.max(out[i], level);
  }
  return out;
}

/**
 * Peaks kept on disk: a file's by its path, size and modification time; the service's by the
 * session (a session's media never changes, and its waveform JSON is megabytes for a long one).
 * One decode or download at a time per key.
 */
export class PeakCache {
  private readonly running = new Map<string, Promise<Uint8Array>>();

  constructor(private readonly dir: string, private readonly compute: (path: string) => Promise<Uint8Array> = computePeaks) {}

  /** Whether `path`'s peaks are on disk already (for tests and the bench). */
  async has(path: string): Promise<boolean> {
    return isFile(await this.fileFor(path));
  }

  get(path: string): Promise<Uint8Array> {
    return this.fileFor(path).then((file) => this.kept(file, () => this.compute(path)));
  }

  /** The service's peaks for a session, fetched once. */
  forSession(key: string, fetchPeaks: () => Promise<Uint8Array>): Promise<Uint8Array> {
    return this.kept(this.sessionFile(key), fetchPeaks);
  }

  /** The service's peaks for a session when they are on disk already (no need to ask it for a link); else null. */
  keptSession(key: string): Promise<Uint8Array | null> {
    return readFile(this.sessionFile(key)).then((b) => new Uint8Array(b), () => null);
  }

  private sessionFile(key: string): string {
    return join(this.dir, `${createHash('sha1').update(`session|${key}`).digest('hex')}.peaks`);
  }

  private async kept(file: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
    try {
      return new Uint8Array(await readFile(file));
    } catch {
      // Not computed yet.
    }
    const going = this.running.get(file);
    if (going) return going;
    const work = make().then(async (peaks) => {
      await writeAtomic(file, peaks, { mode: 0o600, dirMode: 0o700 });
      return peaks;
    });
    this.running.set(file, work);
    try {
      return await work;
    } finally {
      this.running.delete(file);
    }
  }

  private async fileFor(path: string): Promise<string> {
    const s = await stat(path);
    return join(this.dir, `${createHash('sha1').update(`${path}|${s.size}|${s.mtimeMs}`).digest('hex')}.peaks`);
  }
}
