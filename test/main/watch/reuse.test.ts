/**
 * Exactly once across folders, against the real service: media moved or copied from one watched
 * folder into another is not uploaded or transcribed again; the new folder gets the existing
 * result written with its own profile. Also when the same file lands in two folders at once.
 */
import { copyFileSync, existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WatchProfile } from '../../../common/ipc';
import { startService, tempDirs, type RunningService } from '../../helpers/service';
import { countServiceRows } from '../../helpers/service-db';
import { speechWav } from '../../helpers/speech';
import { closeWatchTest, until, watchHarness, type Harness } from './helpers';

let svc: RunningService;
let h: Harness;
const dirs = tempDirs();
const dir = dirs.make;

/** What the service holds: uploaded files and jobs (the ground truth for "sent once"). */
const serviceCounts = () => ({ uploads: countServiceRows(svc.dataDir, 'uploads'), jobs: countServiceRows(svc.dataDir, 'jobs') });

const delivered = (path: string) => until(`delivery of ${path}`, () => h.watch.items().items.find((i) => i.path === path && (i.state === 'delivered' || i.state === 'failed')), 90_000);

beforeAll(async () => {
  svc = await startService();
  h = watchHarness(svc.url, dir('s2t-watch-reuse-data-'));
  await h.watch.start();
}, 60_000);

afterAll(() => closeWatchTest({ watchers: [h], svc, dirs }));

it('delivers media moved into another watched folder from the first upload, with that folder\'s formats', async () => {
  const inbox = dir('s2t-watch-inbox-');
  const archive = dir('s2t-watch-archive-');
  await h.watch.addFolder(inbox, WatchProfile.parse({ formats: [{ format: 'txt' }] }));
  await h.watch.addFolder(archive, WatchProfile.parse({ formats: [{ format: 'vtt' }] }));
  copyFileSync(await speechWav('the quarterly report is ready for review'), join(inbox, 'report.wav'));
  const first = await delivered(join(inbox, 'report.wav'));
  expect(first.state).toBe('delivered');
  const before = serviceCounts();
  expect(before).toEqual({ uploads: 1, jobs: 1 });

  renameSync(join(inbox, 'report.wav'), join(archive, 'report.wav'));
  const moved = await delivered(join(archive, 'report.wav'));
  expect(moved).toMatchObject({ state: 'delivered', sessionId: first.sessionId, message: null });
  expect(moved.outputs).toEqual([join(archive, 'report.vtt')]);
  expect(readFileSync(join(archive, 'report.vtt'), 'utf8')).toMatch(/^WEBVTT[\s\S]*-->/);
  expect(existsSync(join(archive, 'report.txt'))).toBe(false);
  expect(serviceCounts()).toEqual(before);
}, 150_000);

it('uploads once when the same file lands in two watched folders at the same time', async () => {
  const left = dir('s2t-watch-left-');
  const right = dir('s2t-watch-right-');
  await h.watch.addFolder(left, WatchProfile.parse({ formats: [{ format: 'txt' }] }));
  await h.watch.addFolder(right, WatchProfile.parse({ formats: [{ format: 'srt' }] }));
  const before = serviceCounts();
  const wav = await speechWav('two folders share one recording today');
  copyFileSync(wav, join(left, 'shared.wav'));
  copyFileSync(wav, join(right, 'shared.wav'));
  const [a, b] = await Promise.all([delivered(join(left, 'shared.wav')), delivered(join(right, 'shared.wav'))]);
  expect([a.state, b.state]).toEqual(['delivered', 'delivered']);
  expect(a.sessionId).toBe(b.sessionId);
  expect(existsSync(join(left, 'shared.txt'))).toBe(true);
  expect(existsSync(join(right, 'shared.srt'))).toBe(true);
  expect(serviceCounts()).toEqual({ uploads: before.uploads + 1, jobs: before.jobs + 1 });
}, 150_000);
