/**
 * Per-folder behaviour against the real service: pausing one folder while another keeps
 * uploading, align chosen by a same-named .txt beside the media, and a failed source moved to
 * failed/ (then retried from there into done/).
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync } from 'subtitle';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WatchProfile } from '../../../common/ipc';
import { DEMO, serviceLogin, startService, tempDirs, type RunningService } from '../../helpers/service';
import { speechWav, words } from '../../helpers/speech';
import { closeWatchTest, countingProxy, sparseWav, until, watchHarness, type CountingProxy, type Harness } from './helpers';

let svc: RunningService;
let proxy: CountingProxy;
let h: Harness;
const dirs = tempDirs();
const dir = dirs.make;

beforeAll(async () => {
  svc = await startService();
  // Uploads at about 4 MB/s a connection, so one can be watched while it runs.
  proxy = await countingProxy(svc.url, { bytesPerSecond: 4 * 1024 ** 2 });
  h = watchHarness(proxy.url, dir('s2t-watch-folders-data-'), { chunkBytes: 1024 ** 2, tusThresholdBytes: 1024 ** 2 });
  await h.watch.start();
}, 60_000);

afterAll(() => closeWatchTest({ watchers: [h], proxies: [proxy], svc, dirs }));

const item = (path: string) => h.watch.items().items.find((i) => i.path === path);

it('pauses one folder while another keeps uploading, and resumes it', async () => {
  const paused = dir('s2t-watch-paused-');
  const busy = dir('s2t-watch-busy-');
  // German: the local engine has no model, so the jobs fail at once after the upload (no long transcription of silence).
  const profile = WatchProfile.parse({ language: 'de', formats: [{ format: 'txt' }] });
  const p = await h.watch.addFolder(paused, profile);
  await h.watch.addFolder(busy, profile);
  const size = 24 * 1024 ** 2;
  sparseWav(join(paused, 'a.wav'), size, 1);
  sparseWav(join(busy, 'b.wav'), size, 2);
  const a = join(paused, 'a.wav');
  const b = join(busy, 'b.wav');
  await until('both uploading', () => item(a)?.state === 'uploading' && item(a)!.bytesSent > 0 && item(b)?.state === 'uploading' && item(b)!.bytesSent > 0, 60_000, 50);

  h.watch.pause(true, p.id);
  await new Promise((r) => setTimeout(r, 500));
  const frozen = item(a)!.bytesSent;
  const otherThen = item(b)!.bytesSent;
  await new Promise((r) => setTimeout(r, 1500));
  expect(item(a)).toMatchObject({ state: 'uploading', bytesSent: frozen });
  expect(frozen).toBeLessThan(size);
  // The other folder went on meanwhile (and may have finished its upload).
  expect(item(b)!.bytesSent > otherThen || item(b)!.state !== 'uploading').toBe(true);
  expect(h.watch.state().folders.find((f) => f.id === p.id)?.paused).toBe(true);

  h.watch.pause(false, p.id);
  const done = await until('the paused folder finishes after resuming', () => (item(a)?.state === 'failed' || item(a)?.state === 'transcribing' ? item(a) : null), 60_000, 50);
  expect(done.bytesSent).toBe(size);
  // The service's own reason reaches the item, in words.
  const failed = await until('the job outcome', () => (item(a)?.state === 'failed' ? item(a) : null), 60_000);
  expect(failed.message).toMatch(/no model for language "de"/);
}, 150_000);

it('aligns to a same-named .txt beside the media (session mode auto)', async () => {
  const watched = dir('s2t-watch-align-');
  await h.watch.addFolder(watched, WatchProfile.parse({ formats: [{ format: 'srt' }] }));
  const text = 'The river flows past the old mill, and the miller waves hello.';
  writeFileSync(join(watched, 'mill.txt'), text);
  copyFileSync(await speechWav('the river flows past the old mill and the miller waves hello'), join(watched, 'mill.wav'));
  const done = await until('delivery', () => (['delivered', 'failed'].includes(item(join(watched, 'mill.wav'))?.state ?? '') ? item(join(watched, 'mill.wav')) : null), 90_000);
  expect(done).toMatchObject({ state: 'delivered', message: null });
  const token = await serviceLogin(svc.url, DEMO);
  const session = (await (await fetch(`${svc.url}/api/v3/speech-to-text/session/${done.sessionId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { result: { session_mode: string } };
  expect(session.result.session_mode).toBe('align');
  const cues = parseSync(readFileSync(join(watched, 'mill.srt'), 'utf8')).filter((n) => n.type === 'cue');
  // Every word of the given text, in order, with times: what align makes and decoding would not.
  expect(words(cues.map((c) => (c.data as { text: string }).text).join(' '))).toEqual(words(text));
  expect(readFileSync(join(watched, 'mill.txt'), 'utf8')).toBe(text);
}, 120_000);

it('moves a source that failed into failed/, and a retry from there delivers and moves it to done/', async () => {
  const watched = dir('s2t-watch-fail-');
  await h.watch.addFolder(watched, WatchProfile.parse({ sessionMode: 'align', formats: [{ format: 'srt' }], afterwards: 'move' }));
  copyFileSync(await speechWav('please file this under failed for now'), join(watched, 'memo.wav'));
  const failedPath = join(watched, 'failed', 'memo.wav');
  const failed = await until('failure', () => h.watch.items().items.find((i) => i.state === 'failed' && i.path === failedPath), 30_000);
  expect(failed.message).toMatch(/align needs a \.txt/);
  expect(existsSync(join(watched, 'memo.wav'))).toBe(false);
  expect(existsSync(failedPath)).toBe(true);

  // The person adds the text it needed beside the failed file and retries.
  writeFileSync(join(watched, 'failed', 'memo.txt'), 'Please file this under failed for now.');
  h.watch.retry(failed.itemId);
  const donePath = join(watched, 'done', 'memo.wav');
  const done = await until('delivery after the retry', () => h.watch.items().items.find((i) => i.itemId === failed.itemId && (i.state === 'delivered' || (i.state === 'failed' && i.attempts >= 1))), 90_000);
  expect(done).toMatchObject({ state: 'delivered', path: donePath });
  expect(existsSync(donePath)).toBe(true);
  expect(existsSync(join(watched, 'failed', 'memo.srt'))).toBe(true);
  expect(h.watch.items({ folderId: failed.folderId }).total).toBe(1);
}, 120_000);
