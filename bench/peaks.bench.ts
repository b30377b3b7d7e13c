/**
 * Waveform peaks for the caption editor: an hour of sound (sox pink noise, 16 kHz mono WAV)
 * turned into 100 peaks a second by main (ffmpeg to 8 kHz mono, then the peak pass), beside
 * ffmpeg's same decode alone written to nowhere (the peer: what the decode costs without us); and
 * the second ask, read from the disk cache, beside the first. S2T_BENCH_PEAKS_SECONDS (default 3600).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computePeaks, PeakCache } from '../main/media/peaks';
import { row, timedInTurns, timeMs, type BenchModule, type BenchRow } from './harness';

const SECONDS = Number(process.env.S2T_BENCH_PEAKS_SECONDS ?? 3600);
const RUNS = 5;

export const peaksBench: BenchModule = {
  name: 'peaks',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-peaks-'));
    try {
      const wav = join(dir, 'long.wav');
      execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', wav, 'synth', String(SECONDS), 'pinknoise', 'vol', '0.3']);
      const decodeAlone = () => void spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', wav, '-vn', '-ac', '1', '-ar', '8000', '-f', 's16le', '-y', '/dev/null']);
      // Five of each in turns, the medians: one decode of either moves by a third with the machine.
      const { ours, peer } = await timedInTurns(RUNS, () => computePeaks(wav), decodeAlone);
      const cache = new PeakCache(join(dir, 'peaks'));
      const first = await timeMs(() => cache.get(wav));
      const again = await timeMs(() => cache.get(wav));
      const hours = `${(SECONDS / 3600).toFixed(1)} h`;
      return [
        row({ name: `peaks ${hours} decode + peaks vs ffmpeg decode alone (medians of ${RUNS}, in turns)`, unit: 'ms', ours, peer, target: 'ratio <= 1.5', met: ours <= peer * 1.5 }),
        row({ name: `peaks ${hours} second ask (disk cache) vs first`, unit: 'ms', ours: again, peer: first, target: 'ratio <= 0.05', met: again <= first * 0.05 }),
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
