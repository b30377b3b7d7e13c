/**
 * The copy a session keeps for the editors (keep_source) of a video: 360p H.264 + AAC from a 720p
 * source (S2T_BENCH_KEPT_SECONDS long, default 60; ffmpeg's testsrc over sox pink noise), timed
 * beside the media's own length (the copy must be made well inside real time on 2 cores) and beside
 * the audio-only MP3 copy of the same file (what keeping the picture adds); its size beside the source's.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeKeptCopy } from '../service/media/decode';
import { row, timeMs, type BenchModule, type BenchRow } from './harness';

const SECONDS = Number(process.env.S2T_BENCH_KEPT_SECONDS ?? 60);

export const keptCopyBench: BenchModule = {
  name: 'kept-copy',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-kept-'));
    try {
      const wav = join(dir, 'noise.wav');
      const source = join(dir, 'source.mp4');
      execFileSync('sox', ['-n', '-r', '44100', '-c', '2', '-b', '16', wav, 'synth', String(SECONDS), 'pinknoise', 'vol', '0.3']);
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=1280x720:rate=25:duration=${SECONDS}`, '-i', wav, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', source]);
      const video = await timeMs(() => encodeKeptCopy(source, join(dir, 'kept.mp4'), true));
      const audio = await timeMs(() => encodeKeptCopy(source, join(dir, 'kept.mp3'), false));
      const keptBytes = statSync(join(dir, 'kept.mp4')).size;
      const sourceBytes = statSync(source).size;
      return [
        row({ name: `kept copy of a ${SECONDS} s 720p video (360p H.264/AAC) vs the media's length`, unit: 'ms', ours: video, peer: SECONDS * 1000, target: 'ratio <= 0.5', met: video <= SECONDS * 500 }),
        row({ name: `kept copy of a ${SECONDS} s video: with its picture vs audio only (MP3)`, unit: 'ms', ours: video, peer: audio, target: 'ratio reported (the cost of the picture)', met: true }),
        row({ name: `kept copy of a ${SECONDS} s video: its size vs the 720p source`, unit: 'bytes', ours: keptBytes, peer: sourceBytes, target: 'ratio <= 1', met: keptBytes <= sourceBytes }),
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
