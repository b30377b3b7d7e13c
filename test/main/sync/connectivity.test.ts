/**
 * Connectivity with the app's own background sync (no sync.now): the service stops, the app
 * probes with backoff (a handful of requests, no storm), and when the service is back the
 * outbox empties by itself.
 */
import { afterAll, expect, it, vi } from 'vitest';
import type { SyncState } from '../../../common/ipc';
import { plainText } from '../../../common/transcript/model';
import { DEMO, startService, type RunningService } from '../../helpers/service';
import { transcript } from '../helpers/fixtures';
import { closeCoreAndService, otherDevice, signedInCore, type TestCore } from '../helpers/harness';
import { recordingProxy, type RecordingProxy } from '../helpers/proxy';
import { seedService } from '../helpers/seed';

const OUTAGE_MS = 10_000;
let svc: RunningService | undefined;
let proxy: RecordingProxy | undefined;
let c: TestCore | undefined;
afterAll(() => closeCoreAndService({ core: c, proxy, svc }));

const syncStates = (core: TestCore) => core.events.filter((e) => e.event === 'sync.state').map((e) => e.payload as SyncState);

it('background sync: an outage costs a few backoff probes, and the outbox empties by itself once the service is back', async () => {
  svc = await startService();
  const { sessionId, documentIds: [docId] } = seedService(svc.dataDir, { email: DEMO.email, sessions: 2 }).sessions[1];
  const port = Number(new URL(svc.url).port);
  proxy = await recordingProxy(svc.url);
  c = await signedInCore(proxy.url, undefined, { background: true });
  const core = c;
  // Signing in starts a sync by itself.
  await vi.waitFor(async () => expect(await core.h['documents.get']({ documentId: docId })).not.toBeNull(), { timeout: 10_000 });

  const dataDir = svc.dataDir;
  await svc.stop();
  const stoppedAt = Date.now();
  await core.h['documents.save']({ documentId: docId, content: transcript(['written during the outage']) });
  await core.h['documents.mutate']({ documentId: docId, mutation: { op: 'rename', filename: 'outage name.json' } });
  await new Promise((r) => setTimeout(r, OUTAGE_MS));
  const during = proxy.seen.filter((r) => r.at >= stoppedAt);
  // Probes back off (about 0.5-1 s, then doubling): a handful in ten seconds, each at most one retry.
  expect(during.length).toBeGreaterThanOrEqual(2);
  expect(during.length).toBeLessThanOrEqual(12);
  expect(during.every((r) => r.status === 0)).toBe(true);
  const gaps = during.slice(1).map((r, i) => r.at - during[i].at);
  expect(Math.max(...gaps)).toBeGreaterThan(1500); // later probes are further apart
  const offline = syncStates(core).at(-1)!;
  expect(offline).toMatchObject({ connectivity: 'offline', pending: 2 });
  expect(offline.lastError).toMatch(/cannot be reached/);
  // Reads still answer from the cache.
  expect(plainText((await core.h['documents.get']({ documentId: docId }))!.body!.content)).toBe('written during the outage');

  svc = await startService({ dataDir, port });
  await vi.waitFor(async () => expect(await core.h['sync.state']({})).toMatchObject({ pending: 0, connectivity: 'online', lastError: null }), { timeout: 60_000, interval: 250 });
  const device = await otherDevice(svc.url);
  const remote = await device.call('documents.get', { params: { sessionId, documentId: docId } });
  expect(plainText(remote.document!.content)).toBe('written during the outage');
  expect(remote.filename).toBe('outage name.json');
  expect(syncStates(core).at(-1)).toMatchObject({ connectivity: 'online', pending: 0 });
}, 120_000);
