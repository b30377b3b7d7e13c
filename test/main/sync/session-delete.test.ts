/**
 * Deleting sessions against the local service over HTTP: online, the delete goes with the next
 * sync; offline (service stopped), the session leaves the list at once, the delete waits in the
 * outbox and goes when the service is back; in bulk, every selected session goes. In each case
 * the service has erased it (no name, no documents) and later syncs do not bring it back. A refused
 * delete shows the session again; one that keeps failing is blocked like any change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../main/api';
import { DEMO, cleanup, startService, type RunningService } from '../../helpers/service';
import { otherDevice, signedInCore, type TestCore } from '../helpers/harness';
import { recordingProxy, type RecordingProxy } from '../helpers/proxy';
import { seedService, type Seeded } from '../helpers/seed';

let svc: RunningService;
let proxy: RecordingProxy;
let c: TestCore;
let seeded: Seeded;
let dataDir: string;

beforeAll(async () => {
  svc = await startService();
  dataDir = svc.dataDir;
  seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 6, docsPerSession: 2 });
  proxy = await recordingProxy(svc.url);
  c = await signedInCore(proxy.url);
  await c.h['sync.now']({});
}, 60_000);
afterAll(async () => {
  await c?.core.close();
  await proxy?.close();
  await svc?.stop();
  cleanup(dataDir);
  if (c) cleanup(c.dataDir);
});

const listedIds = async () => (await c.h['sessions.list']({ offset: 0, limit: 100 })).items.map((s) => s.session_id);

/** The service's own view, as another device of the same user sees it. */
async function erasedOnService(device: ApiClient, sessionId: string): Promise<boolean> {
  const s = await device.call('sessions.get', { params: { sessionId } });
  const docs = await device.call('documents.list', { params: { sessionId }, query: {} });
  return s.result.filename === '' && docs.total_results === 0;
}

describe('deleting sessions', () => {
  it('online: gone from the list at once, erased on the service by the next sync, and not brought back', async () => {
    const { sessionId } = seeded.sessions[0];
    expect(await listedIds()).toContain(sessionId);
    expect(await c.h['sessions.delete']({ sessionIds: [sessionId] })).toEqual({ deleted: 1 });
    expect(await listedIds()).not.toContain(sessionId);
    expect(await c.h['sessions.get']({ sessionId })).toBeNull();
    expect(c.events.some((e) => e.event === 'cache.changed' && (e.payload as { sessions?: string[] }).sessions?.includes(sessionId))).toBe(true);
    expect(await c.h['sync.now']({})).toMatchObject({ pending: 0, blocked: 0, lastError: null });
    expect(await erasedOnService(await otherDevice(svc.url), sessionId)).toBe(true);
    await c.h['sync.now']({});
    expect(await listedIds()).not.toContain(sessionId);
  });

  it('offline then online: the delete waits in the outbox and goes when the service is back', async () => {
    const { sessionId } = seeded.sessions[1];
    const port = Number(new URL(svc.url).port);
    await svc.stop();
    expect(await c.h['sessions.delete']({ sessionIds: [sessionId] })).toEqual({ deleted: 1 });
    expect(await listedIds()).not.toContain(sessionId);
    const offline = await c.h['sync.now']({});
    expect(offline).toMatchObject({ connectivity: 'offline', pending: 1 });
    expect(await listedIds()).not.toContain(sessionId);

    svc = await startService({ dataDir, port });
    const back = await c.h['sync.now']({});
    expect(back).toMatchObject({ connectivity: 'online', pending: 0, blocked: 0 });
    expect(await erasedOnService(await otherDevice(svc.url), sessionId)).toBe(true);
    expect(await listedIds()).not.toContain(sessionId);
  }, 60_000);

  it('in bulk: every selected session goes, the others stay', async () => {
    const picked = [seeded.sessions[2].sessionId, seeded.sessions[3].sessionId, seeded.sessions[4].sessionId];
    const kept = seeded.sessions[5].sessionId;
    expect(await c.h['sessions.delete']({ sessionIds: picked })).toEqual({ deleted: 3 });
    expect(await c.h['sync.now']({})).toMatchObject({ pending: 0, blocked: 0 });
    const device = await otherDevice(svc.url);
    for (const id of picked) expect(await erasedOnService(device, id)).toBe(true);
    expect(await erasedOnService(device, kept)).toBe(false);
    const ids = await listedIds();
    expect(ids).toContain(kept);
    for (const id of picked) expect(ids).not.toContain(id);
  }, 60_000);

  it('a delete the service refuses brings the session back with the reason, and nothing stays queued', async () => {
    const { sessionId } = seeded.sessions[5];
    proxy.rules.answer = (method, url) =>
      method === 'DELETE' && url.includes(`/session/${sessionId}`) ? { status: 403, body: { error: { code: 'LEGAL_HOLD', message: 'this session is under legal hold', details: {} } } } : undefined;
    try {
      await c.h['sessions.delete']({ sessionIds: [sessionId] });
      expect(await listedIds()).not.toContain(sessionId);
      const state = await c.h['sync.now']({});
      expect(state).toMatchObject({ pending: 0, blocked: 0 });
      const back = (await c.h['sessions.list']({ offset: 0, limit: 100 })).items.find((s) => s.session_id === sessionId);
      expect(back?.delete_refused).toMatch(/legal hold/);
      expect(await erasedOnService(await otherDevice(svc.url), sessionId)).toBe(false);
    } finally {
      proxy.rules.answer = undefined;
    }
  }, 60_000);

  it('a delete that keeps failing is blocked, named by its session, and goes on retry', async () => {
    const { sessionId } = seeded.sessions[5];
    const name = (await c.h['sessions.get']({ sessionId }))!.session.filename;
    proxy.rules.answer = (method, url) =>
      method === 'DELETE' && url.includes(`/session/${sessionId}`) ? { status: 500, body: { error: 'internal', error_description: 'disk on fire', status: 500 } } : undefined;
    try {
      await c.h['sessions.delete']({ sessionIds: [sessionId] });
      let state = await c.h['sync.now']({});
      for (let run = 2; run <= 5; run++) state = await c.h['sync.now']({});
      expect(state).toMatchObject({ pending: 0, blocked: 1 });
      expect(state.lastError).toContain(`A change to "${name}" (delete session) could not be sent: it failed 5 times, last with: disk on fire`);
    } finally {
      proxy.rules.answer = undefined;
    }
    expect(await c.h['sync.retryBlocked']({})).toMatchObject({ pending: 0, blocked: 0 });
    expect(await erasedOnService(await otherDevice(svc.url), sessionId)).toBe(true);
    expect(await listedIds()).not.toContain(sessionId);
  }, 90_000);
});
