import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncState } from '../../common/ipc';
import { plainText } from '../../common/transcript/model';
import { DEMO, cleanup, startService, type RunningService } from '../helpers/service';
import { transcript } from './fixtures';
import { otherDevice, signedInCore, type TestCore } from './harness';
import { purgeSession, seedService } from './seed';

const cores: TestCore[] = [];
const services: RunningService[] = [];
afterAll(async () => {
  for (const c of cores) await c.core.close();
  for (const s of services) {
    await s.stop();
    cleanup(s.dataDir);
  }
  cores.forEach((c) => cleanup(c.dataDir));
});

async function service(dataDir?: string, port?: number) {
  const s = await startService({ dataDir, port });
  services.push(s);
  return s;
}

async function core(url: string) {
  const c = await signedInCore(url);
  cores.push(c);
  return c;
}

describe('sync against the local service', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await service();
  });

  it('first sync brings 200 sessions and their documents; changes and deletions arrive incrementally', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 200, docsPerSession: 1 });
    const c = await core(svc.url);
    const state = await c.h['sync.now']({});
    expect(state).toMatchObject({ connectivity: 'online', pending: 0, running: false });
    const list = await c.h['sessions.list']({ offset: 0, limit: 500 });
    expect(list.total).toBe(200);
    const device = await otherDevice(svc.url);
    for (const s of seeded.sessions.filter((_, i) => i % 20 === 0)) {
      const local = await c.h['sessions.get']({ sessionId: s.sessionId });
      expect(local?.documents.map((d) => d.id)).toEqual(s.documentIds);
      const remote = await device.call('documents.get', { params: { sessionId: s.sessionId, documentId: s.documentIds[0] } });
      expect((await c.h['documents.get']({ documentId: s.documentIds[0] }))?.body).toEqual(remote.document);
    }
    const progress = c.events.filter((e) => e.event === 'sync.progress').map((e) => e.payload as { phase: string; done: number; total: number });
    expect(progress).toContainEqual({ phase: 'pull', done: 200, total: 200 });
    const hits = await c.h['search.text']({ q: 'session 17 document', limit: 5 });
    expect(hits[0]).toMatchObject({ session_id: seeded.sessions[17].sessionId, time_ms: 0 });

    // A change made elsewhere arrives with the next (incremental) pull.
    const target = seeded.sessions[3];
    await device.call('documents.update', { params: { sessionId: target.sessionId, documentId: target.documentIds[0] }, body: { document: { document_type: 'transcript', metadata: {}, content: transcript(['edited on another device']) } } });
    c.events.length = 0;
    await c.h['sync.now']({});
    expect(plainText((await c.h['documents.get']({ documentId: target.documentIds[0] }))!.body!.content)).toBe('edited on another device');
    expect(c.events.some((e) => e.event === 'cache.changed' && (e.payload as { documents?: string[] }).documents?.includes(target.documentIds[0]))).toBe(true);

    // A session purged on the service disappears; one with an unsent edit stays, flagged.
    const gone = seeded.sessions[5];
    const kept = seeded.sessions[6];
    await c.h['documents.save']({ documentId: kept.documentIds[0], content: transcript(['my edit, not yet sent']) });
    purgeSession(svc.dataDir, gone.sessionId);
    purgeSession(svc.dataDir, kept.sessionId);
    await c.h['sync.now']({});
    expect(await c.h['sessions.get']({ sessionId: gone.sessionId })).toBeNull();
    const flagged = await c.h['sessions.get']({ sessionId: kept.sessionId });
    expect(flagged?.session).toMatchObject({ deleted_on_server: true, pending_edits: 1 });
    expect(plainText((await c.h['documents.get']({ documentId: kept.documentIds[0] }))!.body!.content)).toBe('my edit, not yet sent');
    expect((await c.h['sessions.list']({ offset: 0, limit: 500 })).total).toBe(199);
  });

  it('same document edited on both sides: merged where segments differ, a conflict copy where they overlap', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 1, texts: () => ['alpha one', 'beta two', 'gamma three'] });
    const { sessionId, documentIds: [docId] } = seeded.sessions[0];
    const c = await core(svc.url);
    await c.h['sync.now']({});
    // Ours: segments 1 and 2. Theirs: segments 2 and 3.
    await c.h['documents.save']({ documentId: docId, content: transcript(['alpha OURS', 'beta OURS', 'gamma three']) });
    const device = await otherDevice(svc.url);
    await device.call('documents.update', { params: { sessionId, documentId: docId }, body: { document: { document_type: 'transcript', metadata: {}, content: transcript(['alpha one', 'beta THEIRS', 'gamma THEIRS']) } } });
    await c.h['sync.now']({});
    const onService = await device.call('documents.get', { params: { sessionId, documentId: docId } });
    expect(plainText(onService.document!.content)).toBe('alpha OURS\nbeta THEIRS\ngamma THEIRS');
    const conflict = c.events.find((e) => e.event === 'sync.conflict')?.payload as { documentId: string; conflictCopyId: string; filename: string };
    expect(conflict).toMatchObject({ documentId: docId });
    expect(conflict.filename).toMatch(/\(conflict copy .*\)\.json$/);
    const docs = await device.call('documents.list', { params: { sessionId }, query: { include_content: true } });
    expect(docs.total_results).toBe(2);
    const copy = docs.result.find((d) => d.id !== docId)!;
    expect(copy.filename).toBe(conflict.filename);
    expect(plainText(copy.document!.content)).toBe('alpha OURS\nbeta OURS\ngamma three');
    const local = await c.h['sessions.get']({ sessionId });
    expect(local?.documents.map((d) => d.id).sort()).toEqual([docId, copy.id].sort());
    expect((await c.h['sync.state']({})).pending).toBe(0);
  });

  it('every document mutation goes through the outbox to the service', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 1, docsPerSession: 3, texts: (_i, d) => [`doc ${d} says hello`, `and goodbye ${d}`] });
    const { sessionId, documentIds: [a, b, cDoc] } = seeded.sessions[0];
    const c = await core(svc.url);
    await c.h['sync.now']({});
    const original = (await c.h['documents.get']({ documentId: a }))!.body!.content;
    await c.h['documents.mutate']({ documentId: a, mutation: { op: 'clearText' } });
    expect(plainText((await c.h['documents.get']({ documentId: a }))!.body!.content)).toBe('\n');
    await c.h['documents.mutate']({ documentId: a, mutation: { op: 'resetToOriginal' } });
    await c.h['documents.mutate']({ documentId: a, mutation: { op: 'finalize', finished: true } });
    await c.h['documents.mutate']({ documentId: a, mutation: { op: 'setTimecodeOffset', timecodeOffset: '01:00:00:00' } });
    await c.h['documents.mutate']({ documentId: b, mutation: { op: 'summarize' } });
    await c.h['documents.mutate']({ documentId: b, mutation: { op: 'share', allowEditing: false, allowExport: true } });
    await c.h['documents.merge']({ documentIds: [a, b], outputFilename: 'merged.json' });
    expect(await c.h['documents.mutate']({ documentId: cDoc, mutation: { op: 'delete' } })).toEqual({ documentId: null });
    expect(await c.h['documents.get']({ documentId: cDoc })).toBeNull();
    expect((await c.h['sync.state']({})).pending).toBe(8);
    const state = await c.h['sync.now']({});
    expect(state.pending).toBe(0);
    const device = await otherDevice(svc.url);
    const remoteA = await device.call('documents.get', { params: { sessionId, documentId: a } });
    expect(remoteA).toMatchObject({ finished: true, timecode_offset: '01:00:00:00' });
    expect(remoteA.document!.content).toEqual(original);
    const remoteB = await device.call('documents.get', { params: { sessionId, documentId: b } });
    expect(remoteB.document!.content.kind === 'transcript' && remoteB.document!.content.summary).toBeTruthy();
    const list = await device.call('documents.list', { params: { sessionId } });
    expect(list.result.map((d) => d.filename).sort()).toEqual(['merged.json', 'transcript-0-0.json', 'transcript-0-1.json']);
    const local = await c.h['sessions.get']({ sessionId });
    expect(local?.documents.map((d) => d.filename).sort()).toEqual(['merged.json', 'transcript-0-0.json', 'transcript-0-1.json']);
    expect(local?.documents.every((d) => d.local_state === 'synced')).toBe(true);
    const localA = await c.h['documents.get']({ documentId: a });
    expect(localA).toMatchObject({ finished: true, timecode_offset: '01:00:00:00', local_state: 'synced' });
    expect(localA!.body!.content).toEqual(original);
    // Exports render from the cache.
    const srt = await c.h['export.render']({ documentId: b, format: 'srt', options: {} });
    expect(Buffer.from(srt.base64, 'base64').toString()).toContain('doc 1 says hello');
    expect(srt.filename).toBe('transcript-0-1.srt');
    const pdf = await c.h['export.render']({ documentId: b, format: 'pdf', options: {} });
    expect(Buffer.from(pdf.base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a 401 signs the app out and says so', async () => {
    const c = await core(svc.url);
    const token = await c.secrets.get(`access-token@${svc.url}`);
    const res = await fetch(`${svc.url}/api/v3/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(res.ok).toBe(true);
    await c.h['sync.now']({});
    const changed = c.events.filter((e) => e.event === 'auth.changed').at(-1)?.payload as { signedIn: boolean; message: string };
    expect(changed).toMatchObject({ signedIn: false });
    expect(changed.message).toMatch(/sign in again/);
    expect((await c.h['auth.state']({})).signedIn).toBe(false);
    expect(await c.secrets.get(`access-token@${svc.url}`)).toBeNull();
    await expect(c.h['documents.save']({ documentId: 'x', content: transcript(['x']) })).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
  });

  it('an edit made while the service is stopped arrives after it restarts', async () => {
    const own = await service();
    const seeded = seedService(own.dataDir, { email: DEMO.email, sessions: 2 });
    const { sessionId, documentIds: [docId] } = seeded.sessions[1];
    const c = await core(own.url);
    await c.h['sync.now']({});
    const port = Number(new URL(own.url).port);
    await own.stop();
    const saved = await c.h['documents.save']({ documentId: docId, content: transcript(['written offline']) });
    expect(saved.local_state).toBe('pending');
    await c.h['documents.mutate']({ documentId: docId, mutation: { op: 'rename', filename: 'offline name.json' } });
    let state: SyncState = await c.h['sync.now']({});
    expect(state).toMatchObject({ connectivity: 'offline', pending: 2 });
    // Reads still answer from the cache.
    expect(plainText((await c.h['documents.get']({ documentId: docId }))!.body!.content)).toBe('written offline');
    const again = await service(own.dataDir, port);
    state = await c.h['sync.now']({});
    expect(state).toMatchObject({ connectivity: 'online', pending: 0 });
    const device = await otherDevice(again.url);
    const remote = await device.call('documents.get', { params: { sessionId, documentId: docId } });
    expect(plainText(remote.document!.content)).toBe('written offline');
    expect(remote.filename).toBe('offline name.json');
    const states = c.events.filter((e) => e.event === 'sync.state').map((e) => (e.payload as SyncState).connectivity);
    expect(states).toContain('offline');
    expect(states.at(-1)).toBe('online');
  });
});

/** Forwards to the service; for the first request matching `drop`, forwards it, waits for the answer, then cuts the connection. */
async function droppingProxy(target: string, drop: (method: string, url: string) => boolean) {
  const upstream = new URL(target);
  const applied: { method: string; url: string; status: number }[] = [];
  let dropped = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const fwd = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (up) => {
        const body: Buffer[] = [];
        up.on('data', (d: Buffer) => body.push(d));
        up.on('end', () => {
          applied.push({ method: req.method!, url: req.url!, status: up.statusCode! });
          if (dropped === 0 && drop(req.method!, req.url!)) {
            dropped++;
            req.socket.destroy(); // the service applied it; the client never hears
            return;
          }
          res.writeHead(up.statusCode!, up.headers);
          res.end(Buffer.concat(body));
        });
      });
      fwd.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, applied, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

describe('lost responses', () => {
  it('a save whose response is lost after the service applied it is applied exactly once', async () => {
    const svc = await service();
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 1 });
    const { sessionId, documentIds: [docId] } = seeded.sessions[0];
    const proxy = await droppingProxy(svc.url, (m, u) => m === 'PUT' && u.includes('/document/'));
    try {
      const c = await core(proxy.url);
      await c.h['sync.now']({});
      await c.h['documents.save']({ documentId: docId, content: transcript(['once', 'and only once']) });
      await c.h['sync.now']({});
      await c.h['sync.now']({});
      const puts = proxy.applied.filter((a) => a.method === 'PUT' && a.status === 200);
      expect(puts).toHaveLength(1);
      expect((await c.h['sync.state']({})).pending).toBe(0);
      const device = await otherDevice(svc.url);
      const remote = await device.call('documents.get', { params: { sessionId, documentId: docId } });
      expect(plainText(remote.document!.content)).toBe('once\nand only once');
      expect((await c.h['documents.get']({ documentId: docId }))?.local_state).toBe('synced');
    } finally {
      await proxy.close();
    }
  });

  it('a copy whose response is lost is made once and adopted, not made twice', async () => {
    const svc = await service();
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 1 });
    const { sessionId, documentIds: [docId] } = seeded.sessions[0];
    const proxy = await droppingProxy(svc.url, (m, u) => m === 'POST' && u.endsWith(`/session/${sessionId}/document`));
    try {
      const c = await core(proxy.url);
      await c.h['sync.now']({});
      const { documentId: localCopy } = await c.h['documents.mutate']({ documentId: docId, mutation: { op: 'copy', newFilename: 'the copy.json' } });
      expect(localCopy).toMatch(/^local-/);
      await c.h['sync.now']({}); // the copy lands, its answer is lost
      await c.h['sync.now']({}); // the retry finds it instead of copying again
      expect(proxy.applied.filter((a) => a.method === 'POST' && a.url.includes('/document'))).toHaveLength(1);
      const device = await otherDevice(svc.url);
      const docs = await device.call('documents.list', { params: { sessionId } });
      expect(docs.result.map((d) => d.filename).sort()).toEqual(['the copy.json', 'transcript-0-0.json']);
      const local = await c.h['sessions.get']({ sessionId });
      expect(local?.documents.map((d) => d.id).sort()).toEqual(docs.result.map((d) => d.id).sort());
      expect((await c.h['sync.state']({})).pending).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
