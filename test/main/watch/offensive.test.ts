/**
 * Offensive words through a watch folder and the real local service: by default the delivered SRT
 * never holds one, even where espeak-ng says it; a profile that allows and masks them delivers it
 * masked; and every one of the ordinary sentences the timing tests place (the fox's "jumps" was
 * once heard as "dumb ass") is delivered with none. Five minutes of them through the service alone,
 * chunk after chunk, are in service/work/timing.test.ts; here the watch's path needs each once.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WatchProfile } from '../../../common/ipc';
import { startService, tempDirs, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { excludedFromDecoder } from '../../../service/engines/profanity';
import { fixture, meetingSpec, SENTENCES } from '../../service/work/timing-fixtures';
import { closeWatchTest, until, watchHarness, type Harness } from './helpers';

let svc: RunningService;
let h: Harness;
const dirs = tempDirs();

beforeAll(async () => {
  svc = await startService();
  h = watchHarness(svc.url, dirs.make('s2t-watch-data-'));
  await h.watch.start();
}, 60_000);

afterAll(() => closeWatchTest({ watchers: [h], svc, dirs }));

/** Drops `source` into a new watched folder with `profile` and answers the export it delivers beside it. */
async function delivered(profile: Partial<WatchProfile>, source: string, format: 'srt' | 'txt' = 'srt'): Promise<string> {
  const watched = dirs.make('s2t-watched-');
  await h.watch.addFolder(watched, WatchProfile.parse({ language: 'en', formats: [{ format }], ...profile }));
  const media = join(watched, 'said.wav');
  copyFileSync(source, media);
  await until('delivery', () => h.progress.find((p) => p.path === media && p.state === 'delivered'), 600_000);
  return readFileSync(join(watched, `said.${format}`), 'utf8');
}

describe('offensive words in a watch folder', () => {
  it('are left out by default and masked when the profile allows and masks them', async () => {
    const said = await speechWav('Damn. What the hell is that? Oh shit, damn it.');
    const plain = await delivered({}, said);
    expect(plain.toLowerCase()).not.toContain('shit');
    const masked = await delivered({ allowProfanity: true, maskProfanity: true }, said);
    expect(masked).toContain('s***');
    expect(masked.toLowerCase()).not.toContain('shit');
  }, 400_000);

  it('are none in the ordinary sentences, each said once, by default', async () => {
    // 80 s holds all of SENTENCES once (about 5.3 s each with its pause).
    const passage = await fixture(meetingSpec(80, 16000, 'wav'));
    expect(new Set(passage.sentences.map((s) => s.text))).toEqual(new Set(SENTENCES));
    const text = await delivered({}, passage.path, 'txt');
    const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
    expect(words.length).toBeGreaterThan(100);
    expect(words.filter((w) => excludedFromDecoder('en')(w))).toEqual([]);
  }, 700_000);
});
