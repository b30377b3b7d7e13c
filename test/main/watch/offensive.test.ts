/**
 * Offensive words through a watch folder and the real local service: by default the delivered SRT
 * never holds one, even where espeak-ng says it; a profile that allows and masks them delivers it
 * masked.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WatchProfile } from '../../../common/ipc';
import { startService, tempDirs, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
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

async function delivered(profile: Partial<WatchProfile>): Promise<string> {
  const watched = dirs.make('s2t-watched-');
  await h.watch.addFolder(watched, WatchProfile.parse({ language: 'en', formats: [{ format: 'srt' }], ...profile }));
  const media = join(watched, 'said.wav');
  copyFileSync(await speechWav('Damn. What the hell is that? Oh shit, damn it.'), media);
  await until('delivery', () => h.progress.find((p) => p.path === media && p.state === 'delivered'), 180_000);
  return readFileSync(join(watched, 'said.srt'), 'utf8');
}

describe('offensive words in a watch folder', () => {
  it('are left out by default and masked when the profile allows and masks them', async () => {
    const plain = await delivered({});
    expect(plain.toLowerCase()).not.toContain('shit');
    const masked = await delivered({ allowProfanity: true, maskProfanity: true });
    expect(masked).toContain('s***');
    expect(masked.toLowerCase()).not.toContain('shit');
  }, 400_000);
});
