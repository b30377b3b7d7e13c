/**
 * The uploader on a bad day, against the real service behind a proxy: pause and resume, the
 * network gone for a while, the token revoked mid-upload, and a service without the batch family.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WatchProfile } from '../../../common/ipc';
import { startService, tempDirs, type RunningService } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { closeWatchTest, countingProxy, sparseWav, until, watchHarness, type CountingProxy, type Harness } from './helpers';

let svc: RunningService;
const dirs = tempDirs();
const proxies: CountingProxy[] = [];
const harnesses: Harness[] = [];
const dir = dirs.make;

beforeAll(async () => {
  svc = await startService();
}, 60_000);

afterAll(() => closeWatchTest({ watchers: harnesses, proxies, svc, dirs }));

it('falls back to the legacy session flow when the service has no batch family', async () => {
  const proxy = await countingProxy(svc.url, { hide: /^\/api\/v3\/batch\// });
  proxies.push(proxy);
  const h = watchHarness(proxy.url, dir('s2t-watch-legacy-data-'));
  harnesses.push(h);
  await h.watch.start();
  const watched = dir('s2t-watch-legacy-');
  await h.watch.addFolder(watched, WatchProfile.parse({ formats: [{ format: 'txt' }] }));
  copyFileSync(await speechWav('welcome to the legacy upload of this recording'), join(watched, 'legacy.wav'));
  await until('delivery', () => h.progress.find((p) => p.state === 'delivered' || p.state === 'failed'), 90_000);
  const [item] = h.watch.items().items;
  expect(item.message).toBeNull();
  expect(item.state).toBe('delivered');
  expect(item.sessionId).toBeTruthy();
  expect(h.watch.store.item(item.itemId)!.method).toBe('legacy');
  expect(readFileSync(join(watched, 'legacy.txt'), 'utf8').toLowerCase()).toMatch(/welcome|legacy|recording/);
}, 120_000);

it('pauses, waits out an outage and a revoked token, and still sends the file about once', async () => {
  const proxy = await countingProxy(svc.url);
  proxies.push(proxy);
  // 40 chunks, so each step below (pause, outage, sign-out) lands with chunks still to send.
  const size = 320 * 1024 ** 2;
  const h = watchHarness(proxy.url, dir('s2t-watch-net-data-'), { chunkBytes: 8 * 1024 ** 2 });
  harnesses.push(h);
  let refreshes = 0;
  const refresh = h.auth.refresh.bind(h.auth);
  h.auth.refresh = () => (refreshes++, refresh());
  await h.watch.start();
  const watched = dir('s2t-watch-net-');
  await h.watch.addFolder(watched, WatchProfile.parse({ formats: [{ format: 'txt' }] }));
  sparseWav(join(watched, 'long.wav'), size);
  const uploading = (min: number) => until(`upload past ${min}%`, () => h.progress.find((p) => p.state === 'uploading' && p.percent >= min), 60_000, 20);

  await uploading(15);
  h.watch.pause(true);
  await new Promise((r) => setTimeout(r, 300));
  const frozen = proxy.sent();
  await new Promise((r) => setTimeout(r, 1000));
  expect(proxy.sent() - frozen).toBeLessThan(1024 ** 2);
  h.watch.pause(false);

  await uploading(35);
  proxy.offline = true;
  await until('a wait for the network', () => h.watch.items().items.find((i) => i.message?.startsWith('waiting for the service')), 30_000, 50);
  proxy.offline = false;

  await uploading(60);
  // Sign the token out on the service: the next PATCH gets 401, the uploader signs in again and goes on.
  const token = await h.auth.token();
  const out = await fetch(`${svc.url}/api/v3/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  expect(out.status).toBe(200);

  await until('the job', () => h.watch.items().items.find((i) => i.state === 'transcribing'), 120_000);
  const sent = proxy.sent();
  console.log(`watch network: ${size} B file, ${sent} B sent (${(sent / size).toFixed(3)}x) across a pause, an outage and a token refresh (${refreshes} refresh)`);
  expect(sent).toBeLessThan(1.2 * size);
  expect(refreshes).toBeGreaterThanOrEqual(1);
  const ups = h.progress.filter((p) => p.state === 'uploading' && p.rate !== null && p.etaSeconds !== null);
  expect(ups.length).toBeGreaterThan(3);
  expect(ups.some((p) => p.rate! > 0 && p.bytesTotal === size && p.bytesSent > 0 && p.bytesSent < size && p.percent > 0 && p.percent < 100)).toBe(true);
}, 200_000);
