/**
 * The legacy session flow (a service without the batch family, played by a proxy that answers
 * 404 there): the session is kept from the moment it is created, so a cut PUT is retried into the
 * same session; the profile's options reach the service; the PUT streams with byte progress.
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WatchProfile } from '../../../common/ipc';
import { DEMO, serviceLogin, startService, tempDirs, type RunningService } from '../../helpers/service';
import { countServiceRows } from '../../helpers/service-db';
import { speechWav } from '../../helpers/speech';
import { closeWatchTest, countingProxy, sparseWav, until, watchHarness, type CountingProxy, type Harness } from './helpers';

const NO_BATCH = /^\/api\/v3\/batch\//;
let svc: RunningService;
const dirs = tempDirs();
const proxies: CountingProxy[] = [];
const harnesses: Harness[] = [];
const dir = dirs.make;

const sessionsOnService = () => countServiceRows(svc.dataDir, 'sessions');

async function harness(proxy: CountingProxy): Promise<Harness> {
  proxies.push(proxy);
  const h = watchHarness(proxy.url, dir('s2t-watch-legacy-data-'));
  harnesses.push(h);
  await h.watch.start();
  return h;
}

beforeAll(async () => {
  svc = await startService();
}, 60_000);

afterAll(() => closeWatchTest({ watchers: harnesses, proxies, svc, dirs }));

it('retries a cut PUT into the session it already made, with the profile\'s options', async () => {
  let puts = 0;
  // The first media PUT loses its connection, as a flaky network (or a crash) would.
  const proxy = await countingProxy(svc.url, { hide: NO_BATCH, drop: (method, url) => method === 'PUT' && /\/speech-to-text\/session\/[^/]+$/.test(url) && ++puts === 1 });
  const h = await harness(proxy);
  const before = sessionsOnService();
  const watched = dir('s2t-watch-legacy-');
  await h.watch.addFolder(watched, WatchProfile.parse({ formats: [{ format: 'txt' }], diarization: true, punctuation: false }));
  copyFileSync(await speechWav('the second try goes into the same session'), join(watched, 'retry.wav'));
  const done = await until('delivery', () => h.watch.items().items.find((i) => i.state === 'delivered' || i.state === 'failed'), 90_000);
  expect(done).toMatchObject({ state: 'delivered', message: null });
  expect(puts).toBe(2);
  expect(h.progress.some((p) => p.message?.startsWith('waiting for the service'))).toBe(true);
  expect(sessionsOnService()).toBe(before + 1);
  expect(h.watch.store.item(done.itemId)).toMatchObject({ method: 'legacy', session_id: done.sessionId });
  const token = await serviceLogin(svc.url, DEMO);
  const s = (await (await fetch(`${svc.url}/api/v3/speech-to-text/session/${done.sessionId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { result: { diarization: boolean; session_mode: string } };
  expect(s.result).toMatchObject({ diarization: true, session_mode: 'decode' });
  expect(readFileSync(join(watched, 'retry.txt'), 'utf8').toLowerCase()).toMatch(/second|same|session/);
}, 120_000);

it('streams the PUT with byte progress, rate and ETA, and moves a source the service cannot transcribe to failed/', async () => {
  const proxy = await countingProxy(svc.url, { hide: NO_BATCH, bytesPerSecond: 8 * 1024 ** 2 });
  const h = await harness(proxy);
  const watched = dir('s2t-watch-legacy-big-');
  // German has no model in the local engine: the job fails at once after the upload.
  await h.watch.addFolder(watched, WatchProfile.parse({ language: 'de', formats: [{ format: 'txt' }], afterwards: 'move' }));
  const size = 40 * 1024 ** 2;
  sparseWav(join(watched, 'long.wav'), size);
  const failed = await until('the outcome', () => h.watch.items().items.find((i) => i.state === 'failed' || i.state === 'delivered'), 90_000);
  expect(failed.state).toBe('failed');
  expect(failed.message).toMatch(/no model for language "de"/);
  expect(failed.path).toBe(join(watched, 'failed', 'long.wav'));
  expect(existsSync(join(watched, 'failed', 'long.wav'))).toBe(true);
  expect(existsSync(join(watched, 'long.wav'))).toBe(false);

  const ups = h.progress.filter((p) => p.state === 'uploading' && p.bytesTotal === size);
  const middle = ups.filter((p) => p.bytesSent > 0 && p.bytesSent < size && p.rate !== null && p.rate > 0 && p.etaSeconds !== null);
  console.log(`watch legacy: ${ups.length} progress events for a ${size} B PUT, ${middle.length} mid-upload with rate and ETA (e.g. ${JSON.stringify(middle[Math.floor(middle.length / 2)])})`);
  expect(middle.length).toBeGreaterThan(3);
  expect(middle.some((p) => p.percent > 10 && p.percent < 90)).toBe(true);
  expect(h.watch.store.item(failed.itemId)!.method).toBe('legacy');
}, 120_000);
