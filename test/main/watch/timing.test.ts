/**
 * Word times through the watch folder, against known truth: sox-placed espeak sentences (a 60 s
 * 22.05 kHz WAV and a 15 s MP4) dropped into a watched folder; the VTT the watch writes beside
 * each is read back with ffmpeg (ffprobe), and every placed sentence has a cue starting within
 * 0.3 s of it, the first cue within 0.3 s of the first sentence, and no cue past the end.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WatchProfile } from '../../../common/ipc';
import { startService, tempDirs, type RunningService } from '../../helpers/service';
import type { PlacedSpeech } from '../../helpers/speech';
import { fixture, meetingSpec } from '../../service/work/timing-fixtures';
import { closeWatchTest, until, watchHarness, type Harness } from './helpers';

let svc: RunningService;
let h: Harness;
const dirs = tempDirs();

beforeAll(async () => {
  svc = await startService({ args: ['--engine-concurrency', '2'] });
  h = watchHarness(svc.url, dirs.make('s2t-watch-timing-data-'));
  await h.watch.start();
}, 60_000);

afterAll(() => closeWatchTest({ watchers: [h], svc, dirs }));

/** The cues of a caption file as ffmpeg reads them, in ms. */
function cuesByFfmpeg(path: string): { start: number; end: number }[] {
  const out = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'packet=pts_time,duration_time', '-of', 'json', path]).toString()) as { packets: { pts_time: string; duration_time: string }[] };
  return out.packets.map((p) => ({ start: Number(p.pts_time) * 1000, end: (Number(p.pts_time) + Number(p.duration_time)) * 1000 }));
}

describe('watch folder timing', () => {
  it('the VTT written beside each recording has a cue within 0.3 s of every placed sentence and none past the end', async () => {
    const watched = dirs.make('s2t-watched-timing-');
    await h.watch.addFolder(watched, WatchProfile.parse({ language: 'en', formats: [{ format: 'vtt' }] }));
    const files: [string, PlacedSpeech][] = [
      ['meeting-60s.wav', await fixture(meetingSpec(60, 22050, 'wav'))],
      ['meeting-15s.mp4', await fixture(meetingSpec(15, 22050, 'mp4'))],
    ];
    for (const [name, p] of files) copyFileSync(p.path, join(watched, name));
    for (const [name, p] of files) {
      const media = join(watched, name);
      await until(`delivery of ${name}`, () => h.progress.find((x) => x.path === media && x.state === 'delivered'), 240_000, 200);
      const cues = cuesByFfmpeg(join(watched, name.replace(/\.\w+$/, '.vtt')));
      const errors = p.sentences.map((s) => Math.min(...cues.map((q) => Math.abs(q.start - s.startMs))));
      console.log(`watch ${name}: ${cues.length} cues; nearest cue start to each placed sentence: ${errors.map((e) => Math.round(e)).join(' ')} ms`);
      expect(Math.abs(cues[0].start - p.sentences[0].startMs), `${name}: first cue`).toBeLessThanOrEqual(300);
      errors.forEach((e, i) => expect(e, `${name}: sentence ${i + 1} at ${Math.round(p.sentences[i].startMs)} ms`).toBeLessThanOrEqual(300));
      for (const q of cues) expect(q.end, `${name}: cue inside the media`).toBeLessThanOrEqual(p.durationMs);
    }
  }, 300_000);
});
