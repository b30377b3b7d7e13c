/**
 * Renaming a session in the app against the local service over HTTP: the new name shows at once
 * (list, page, search) and goes with the next sync; offline (service stopped) it waits in the
 * outbox, one entry however often the person renames, and goes when the service is back; a pull
 * that brings another device's name meanwhile does not undo ours; a session the service no longer
 * has blocks the rename, kept and named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../main/api';
import { dispatch, type Handlers } from '../../../main/ipc/registry';
import { DEMO, cleanup, startService, type RunningService } from '../../helpers/service';
import { otherDevice, signedInCore, type TestCore } from '../helpers/harness';
import { recordingProxy, type RecordingProxy } from '../helpers/proxy';
import { purgeSession, seedService, type Seeded } from '../helpers/seed';

let svc: RunningService;
let proxy: RecordingProxy;
let c: TestCore;
let seeded: Seeded;
let dataDir: string;

beforeAll(async () => {
  svc = await startService();
  dataDir = svc.dataDir;
  seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 4 });
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

const listedName = async (sessionId: string) => (await c.h['sessions.list']({ offset: 0, limit: 100 })).items.find((s) => s.session_id === sessionId)?.filename;
const serviceName = async (device: ApiClient, sessionId: string) => (await device.call('sessions.get', { params: { sessionId } })).result.filename;
const renames = () => proxy.seen.filter((r) => r.method === 'PATCH' && r.url.includes('/speech-to-text/session/'));

describe('renaming a session', () => {
  it('online: the new name shows at once (list, page, search) and the next sync gives it to the service', async () => {
    const { sessionId } = seeded.sessions[0];
    expect(await c.h['sessions.rename']({ sessionId, filename: 'Quarterly review' })).toEqual({ renamed: true });
    expect(await listedName(sessionId)).toBe('Quarterly review');
    expect((await c.h['sessions.get']({ sessionId }))?.session).toMatchObject({ filename: 'Quarterly review', pending_edits: 1 });
    expect((await c.h['sessions.list']({ offset: 0, limit: 100, q: 'quarterly' })).items.map((s) => s.session_id)).toEqual([sessionId]);
    expect(c.events.some((e) => e.event === 'cache.changed' && (e.payload as { sessions?: string[] }).sessions?.includes(sessionId))).toBe(true);
    expect(await c.h['sync.now']({})).toMatchObject({ pending: 0, blocked: 0, lastError: null });
    expect(await serviceName(await otherDevice(svc.url), sessionId)).toBe('Quarterly review');
    await c.h['sync.now']({});
    expect((await c.h['sessions.get']({ sessionId }))?.session).toMatchObject({ filename: 'Quarterly review', pending_edits: 0 });
  });

  it('refuses a name that is not one line, in words, and keeps the old one', async () => {
    const { sessionId } = seeded.sessions[0];
    // Through the dispatch every transport uses, which checks the arguments with the contract.
    const refused = async (filename: string) => dispatch(c.h as unknown as Handlers, 'sessions.rename', { sessionId, filename });
    expect(await refused('two\nlines')).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS', message: expect.stringMatching(/one line: no line breaks/) } });
    expect(await refused('   ')).toMatchObject({ ok: false, error: { message: expect.stringMatching(/Give the session a name/) } });
    expect(await c.h['sync.now']({})).toMatchObject({ pending: 0, blocked: 0 });
    expect(await listedName(sessionId)).toBe('Quarterly review');
  });

  it('offline then online: renamed twice while away, one rename waits and the last name goes when the service is back', async () => {
    const { sessionId } = seeded.sessions[1];
    const port = Number(new URL(svc.url).port);
    await svc.stop();
    await c.h['sessions.rename']({ sessionId, filename: 'Draft name' });
    await c.h['sessions.rename']({ sessionId, filename: 'Interview with Ada' });
    expect(await c.h['sync.now']({})).toMatchObject({ connectivity: 'offline', pending: 1 });
    expect(await listedName(sessionId)).toBe('Interview with Ada');

    svc = await startService({ dataDir, port });
    const sent = renames().length;
    expect(await c.h['sync.now']({})).toMatchObject({ connectivity: 'online', pending: 0, blocked: 0 });
    expect(renames().length - sent).toBe(1);
    expect(await serviceName(await otherDevice(svc.url), sessionId)).toBe('Interview with Ada');
    expect(await listedName(sessionId)).toBe('Interview with Ada');
  }, 60_000);

  it('a pull that brings another device\'s name before ours is sent does not undo ours; ours lands after', async () => {
    const { sessionId } = seeded.sessions[2];
    const device = await otherDevice(svc.url);
    await c.h['sessions.rename']({ sessionId, filename: 'Our name' });
    await device.call('sessions.rename', { params: { sessionId }, body: { filename: 'Their name' } });
    // Our send fails once (an error answer), so this run's pull sees their name first.
    proxy.rules.answer = (method, url) => (method === 'PATCH' && url.includes(`/session/${sessionId}`) ? { status: 500, body: { error: 'internal', error_description: 'try later', status: 500 } } : undefined);
    try {
      const state = await c.h['sync.now']({});
      expect(state).toMatchObject({ pending: 1, blocked: 0 });
      expect(await listedName(sessionId)).toBe('Our name');
    } finally {
      proxy.rules.answer = undefined;
    }
    expect(await c.h['sync.now']({})).toMatchObject({ pending: 0, blocked: 0 });
    expect(await serviceName(device, sessionId)).toBe('Our name');
    await c.h['sync.now']({});
    expect(await listedName(sessionId)).toBe('Our name');
  }, 60_000);

  it('a session the service no longer has blocks the rename, kept and named by the session', async () => {
    const { sessionId } = seeded.sessions[3];
    await c.h['sessions.rename']({ sessionId, filename: 'Gone meanwhile' });
    purgeSession(dataDir, sessionId);
    const state = await c.h['sync.now']({});
    expect(state).toMatchObject({ pending: 0, blocked: 1 });
    expect(state.blockedReasons.join(' ')).toContain('A change to "Gone meanwhile" (rename session) could not be sent: the service no longer has this session');
  }, 60_000);
});
