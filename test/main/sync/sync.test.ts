import Database from 'better-sqlite3';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncState } from '../../../common/ipc';
import { plainText } from '../../../common/transcript/model';
import { CACHE_FILE, createCore } from '../../../main/core';
import { DEMO, cleanup, startService, type RunningService } from '../../helpers/service';
import { body, transcript } from '../helpers/fixtures';
import { otherDevice, signedInCore, type TestCore } from '../helpers/harness';
import { applied, recordingProxy, type RecordingProxy } from '../helpers/proxy';
import { changeBehindSession, openServiceDb, purgeSession, seedService } from '../helpers/seed';

const cores: TestCore[] = [];
const services: RunningService[] = [];
const proxies: RecordingProxy[] = [];
afterAll(async () => {
  for (const c of cores) await c.core.close();
  for (const p of proxies) await p.close();
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

async function core(url: string, dataDir?: string) {
  const c = await signedInCore(url, dataDir);
  cores.push(c);
  return c;
}

async function proxy(target: string) {
  const p = await recordingProxy(target);
  proxies.push(p);
  return p;
}

const lastSyncState = (c: TestCore) => c.events.filter((e) => e.event === 'sync.state').at(-1)?.payload as SyncState | undefined;

describe('sync against the local service', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await service();
  });

  it('first sync brings 200 sessions and their documents; changes and deletions arrive incrementally', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 200, docsPerSession: 1 });
    const counter = await proxy(svc.url);
    const c = await core(counter.url);
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

    // Nothing changed: one request, the first sessions page.
    counter.seen.length = 0;
    await c.h['sync.now']({});
    expect(counter.seen.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['GET /api/v3/speech-to-text/session']);

    // A change made elsewhere arrives with the next (incremental) pull.
    const target = seeded.sessions[3];
    await device.call('documents.update', { params: { sessionId: target.sessionId, documentId: target.documentIds[0] }, body: { document: { document_type: 'transcript', metadata: {}, content: transcript(['edited on another device']) } } });
    c.events.length = 0;
    await c.h['sync.now']({});
    expect(plainText((await c.h['documents.get']({ documentId: target.documentIds[0] }))!.body!.content)).toBe('edited on another device');
    expect(c.events.some((e) => e.event === 'cache.changed' && (e.payload as { documents?: string[] }).documents?.includes(target.documentIds[0]))).toBe(true);

    // A copy made on another device (it moves only the session's last_modified) arrives too, and
    // the incremental sync that brings it reads one sessions page plus that session's documents.
    const copied = seeded.sessions[150];
    const copy = await device.call('documents.copy', { params: { sessionId: copied.sessionId }, body: { source_document_id: copied.documentIds[0], new_filename: 'copied elsewhere.json' } });
    counter.seen.length = 0;
    await c.h['sync.now']({});
    expect(counter.seen.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
      'GET /api/v3/speech-to-text/session',
      `GET /api/v3/speech-to-text/session/${copied.sessionId}/document`,
    ]);
    expect(counter.seen.every((r) => r.status === 200)).toBe(true);
    expect(new URL(counter.seen[0].url, svc.url).searchParams.get('offset')).toBe('0');
    const withCopy = await c.h['sessions.get']({ sessionId: copied.sessionId });
    expect(withCopy?.documents.map((d) => d.id).sort()).toEqual([copied.documentIds[0], copy.id].sort());
    expect((await c.h['documents.get']({ documentId: copy.id }))?.body).toEqual(copy.document ?? (await device.call('documents.get', { params: { sessionId: copied.sessionId, documentId: copy.id } })).document);

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
    // The offset before finalize: a finished document refuses it (common/ipc/finished.ts).
    await c.h['documents.mutate']({ documentId: a, mutation: { op: 'setTimecodeOffset', timecodeOffset: '01:00:00:00' } });
    await c.h['documents.mutate']({ documentId: a, mutation: { op: 'finalize', finished: true } });
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

  it('the periodic full pass catches document changes and deletions that a session version does not show', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 3, docsPerSession: 2 });
    const c = await core(svc.url);
    await c.h['sync.now']({});
    const [changed, removed] = [seeded.sessions[0].documentIds[0], seeded.sessions[1].documentIds[1]];
    changeBehindSession(svc.dataDir, { rewrite: { documentId: changed, body: body(['rewritten quietly']) }, remove: removed });
    // An incremental pull cannot see these: the sessions' versions did not move.
    await c.h['sync.now']({});
    expect(plainText((await c.h['documents.get']({ documentId: changed }))!.body!.content)).not.toBe('rewritten quietly');
    expect(await c.h['documents.get']({ documentId: removed })).not.toBeNull();
    // The periodic full pass is due (as it is every few minutes): it compares each session's documents.
    const cache = new Database(join(c.dataDir, CACHE_FILE));
    cache.prepare("UPDATE sync_cursor SET value = '0' WHERE name = 'sessions.sweepAt'").run();
    cache.close();
    c.events.length = 0;
    await c.h['sync.now']({});
    expect(plainText((await c.h['documents.get']({ documentId: changed }))!.body!.content)).toBe('rewritten quietly');
    expect(await c.h['documents.get']({ documentId: removed })).toBeNull();
    expect((await c.h['sessions.get']({ sessionId: seeded.sessions[1].sessionId }))?.documents.map((d) => d.id)).toEqual([seeded.sessions[1].documentIds[0]]);
    const changedEvents = c.events.filter((e) => e.event === 'cache.changed').flatMap((e) => (e.payload as { documents?: string[] }).documents ?? []);
    expect(changedEvents).toEqual(expect.arrayContaining([changed, removed]));
  });

  it('share: the link is kept, shown over IPC, and asking again for the same rights makes no second link', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 1 });
    const { sessionId, documentIds: [docId] } = seeded.sessions[0];
    const counter = await proxy(svc.url);
    const c = await core(counter.url);
    await c.h['sync.now']({});
    await c.h['documents.mutate']({ documentId: docId, mutation: { op: 'share', allowEditing: false, allowExport: true } });
    expect(await c.h['documents.shareLinks']({ documentId: docId })).toEqual({ links: [], pending: true, listed: true });
    // Asked twice before it went out: still one request.
    await c.h['documents.mutate']({ documentId: docId, mutation: { op: 'share', allowEditing: false, allowExport: true } });
    expect((await c.h['sync.state']({})).pending).toBe(1);
    await c.h['sync.now']({});
    const { links, pending } = await c.h['documents.shareLinks']({ documentId: docId });
    expect(pending).toBe(false);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ documentId: docId, allowEditing: false, allowExport: true });
    expect(links[0].url).toContain(`/transcripts/shared/${sessionId}/${docId}?token=`);
    // The link works: the magic-link route answers with it, and without any sign-in.
    const token = new URL(links[0].url!).searchParams.get('token')!;
    const device = await otherDevice(svc.url);
    const shared = await device.call('shared.document', { params: { sessionId, documentId: docId }, query: { token } });
    expect(shared.id).toBe(docId);
    // Asking again for the same rights reuses the link; other rights make a second one.
    await c.h['documents.mutate']({ documentId: docId, mutation: { op: 'share', allowEditing: false, allowExport: true } });
    expect((await c.h['sync.state']({})).pending).toBe(0);
    await c.h['documents.mutate']({ documentId: docId, mutation: { op: 'share', allowEditing: true, allowExport: true } });
    await c.h['sync.now']({});
    const after = await c.h['documents.shareLinks']({ documentId: docId });
    expect(after.links.map((l) => [l.allowEditing, l.allowExport]).sort()).toEqual([[false, true], [true, true]]);
    expect(after.links.find((l) => !l.allowEditing)?.url).toBe(links[0].url);
    expect(applied(counter.seen, 'POST', (p) => p.endsWith('/share'))).toHaveLength(2);
    const db = openServiceDb(svc.dataDir);
    const rows = db.prepare('SELECT count(*) AS n FROM share_links WHERE document_id = ?').get(docId) as { n: number };
    db.close();
    expect(rows.n).toBe(2);
  });

  it('a malformed service response reaches the user as a sentence in the sync state', async () => {
    seedService(svc.dataDir, { email: DEMO.email, sessions: 2 });
    const broken = await proxy(svc.url);
    const c = await core(broken.url);
    broken.rules.after = (method, url, status, raw) => {
      if (method !== 'GET' || status !== 200 || url.split('?')[0] !== '/api/v3/speech-to-text/session') return undefined;
      const page = JSON.parse(raw.toString()) as { result: { duration: unknown }[] };
      page.result[0].duration = 'about a minute';
      return Buffer.from(JSON.stringify(page));
    };
    const state = await c.h['sync.now']({});
    expect(state.connectivity).toBe('degraded');
    expect(state.lastError).toMatch(/^The service sent an answer this app does not understand \(malformed response from sessions\.list: field "result\.0\.duration"/);
    expect(lastSyncState(c)?.lastError).toBe(state.lastError);
    // Reads still answer from the cache, and the next good answer clears the error.
    expect(await c.h['sessions.list']({ offset: 0, limit: 10 })).toMatchObject({ total: 0 });
    broken.rules.after = undefined;
    const fixed = await c.h['sync.now']({});
    expect(fixed).toMatchObject({ connectivity: 'online', lastError: null });
    expect(lastSyncState(c)).toMatchObject({ lastError: null });
  });

  it('a page that fails stops the downloads queued behind it; what came before is kept, and the next sync brings the rest', async () => {
    const own = await service();
    seedService(own.dataDir, { email: DEMO.email, sessions: 500 });
    const gate = await proxy(own.url);
    const isDocs = (method: string, url: string) => method === 'GET' && /\/session\/[^/]+\/document$/.test(url.split('?')[0]);
    let docAnswers = 0;
    let poisoned = '';
    // The session of the 150th documents answer is on the second page of 100; its answers stay bad.
    gate.rules.after = (method, url, status) => {
      if (!isDocs(method, url) || status !== 200) return undefined;
      if (++docAnswers === 150) poisoned = url.split('?')[0];
      return url.split('?')[0] === poisoned ? Buffer.from('{"result":"not a list"}') : undefined;
    };
    const c = await core(gate.url);
    const failed = await c.h['sync.now']({});
    expect(failed.lastError).toMatch(/documents\.list/);
    // Each pull (the one signing in started, and this one) reads pages ahead of the writer, but
    // none after the failing one: pages 3 to 5 brought no documents requests (at most the
    // sessions list of page 3, read ahead), and page 1, applied before the failure, stays.
    const docsPerPull: number[] = [];
    for (const r of gate.seen) {
      const offset = r.url.split('?')[0] === '/api/v3/speech-to-text/session' ? Number(new URL(r.url, own.url).searchParams.get('offset')) : null;
      expect(offset ?? 0).toBeLessThanOrEqual(200);
      if (offset === 0) docsPerPull.push(0);
      else if (isDocs(r.method, r.url)) docsPerPull[docsPerPull.length - 1] += 1;
    }
    expect(docsPerPull.length).toBeGreaterThan(0);
    for (const n of docsPerPull) expect(n).toBeGreaterThan(100);
    for (const n of docsPerPull) expect(n).toBeLessThanOrEqual(200);
    expect((await c.h['sessions.list']({ offset: 0, limit: 500 })).total).toBe(100);

    gate.rules.after = undefined;
    const fixed = await c.h['sync.now']({});
    expect(fixed).toMatchObject({ connectivity: 'online', lastError: null });
    expect((await c.h['sessions.list']({ offset: 0, limit: 500 })).total).toBe(500);
  });

  it('a body is cached as the service wrote it, whatever its JSON style; a bad word deep inside is named', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 3 });
    const styled = await proxy(svc.url);
    const c = await core(styled.url);
    const isDocs = (method: string, url: string, status: number) => method === 'GET' && status === 200 && /\/session\/[^/]+\/document$/.test(url.split('?')[0]);
    const sent = new Map<string, unknown>();
    // Another JSON writer: indented, non-ASCII as \u escapes, escaped keys, keys the schema does not know.
    styled.rules.after = (method, url, status, raw) => {
      if (!isDocs(method, url, status)) return undefined;
      const page = JSON.parse(raw.toString()) as { result: { id: string; document?: { content: { segments: { words: Record<string, unknown>[] }[] } } & Record<string, unknown> }[] };
      for (const d of page.result) {
        if (!d.document) continue;
        d.document.content.segments[0].words[0].text = 'Grüße 東京 🎧';
        d.document.content.segments[0].words[0].emphasis = 'strong';
        d.document.x_layout = { columns: 2 };
        sent.set(d.id, d.document);
      }
      const text = JSON.stringify(page, null, 2).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
      return Buffer.from(text.replace('"result"', '"res\\u0075lt"'));
    };
    await c.h['sync.now']({});
    expect(seeded.sessions.every((s) => sent.has(s.documentIds[0]))).toBe(true);
    const db = new Database(join(c.dataDir, CACHE_FILE), { readonly: true });
    for (const s of seeded.sessions) {
      const row = db.prepare('SELECT body FROM documents WHERE id = ?').get(s.documentIds[0]) as { body: string };
      expect(JSON.parse(row.body)).toEqual(sent.get(s.documentIds[0]));
      const cached = await c.h['documents.get']({ documentId: s.documentIds[0] });
      expect(plainText(cached!.body!.content)).toMatch(/^Grüße 東京 🎧 /);
    }
    db.close();
    expect((await c.h['search.text']({ q: 'Grüße', limit: 500 })).length).toBe(sent.size);

    // A word with a bad time, deep in a page of the first sync of another device.
    const other = await core(styled.url);
    styled.rules.after = (method, url, status, raw) => {
      if (!isDocs(method, url, status)) return undefined;
      const page = JSON.parse(raw.toString()) as { result: { document?: { content: { segments: { words: { start_ms: unknown }[] }[] } } }[] };
      page.result[0].document!.content.segments[0].words[1].start_ms = 'soon';
      return Buffer.from(JSON.stringify(page));
    };
    const state = await other.h['sync.now']({});
    expect(state.connectivity).toBe('degraded');
    expect(state.lastError).toMatch(/malformed response from documents\.list: field "result\.0\.document\.content\.segments\.0\.words\.1\.start_ms"/);
    styled.rules.after = undefined;
  });

  it('a failing entry is capped and blocked; other documents and the pull go on meanwhile', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 2 });
    const [a, b] = seeded.sessions;
    const gate = await proxy(svc.url);
    const c = await core(gate.url);
    await c.h['sync.now']({});
    // The service fails every write to document A (it answers, with a 500).
    const aPath = `/api/v3/speech-to-text/session/${a.sessionId}/document/${a.documentIds[0]}`;
    gate.rules.answer = (method, url) => (method === 'PUT' && url.split('?')[0] === aPath ? { status: 500, body: { error: 'internal', error_description: 'disk on fire', status: 500 } } : undefined);
    await c.h['documents.save']({ documentId: a.documentIds[0], content: transcript(['A first']) });
    await c.h['documents.save']({ documentId: b.documentIds[0], content: transcript(['B goes through']) });
    await c.h['documents.save']({ documentId: a.documentIds[0], content: transcript(['A second']) });
    const device = await otherDevice(svc.url);
    await device.call('documents.update', { params: { sessionId: b.sessionId, documentId: b.documentIds[0] }, body: { filename: 'renamed elsewhere.json' } });
    let state = await c.h['sync.now']({});
    // B's edit went, A's waits; the pull ran and brought the rename from elsewhere.
    const remoteB = await device.call('documents.get', { params: { sessionId: b.sessionId, documentId: b.documentIds[0] } });
    expect(plainText(remoteB.document!.content)).toBe('B goes through');
    expect((await c.h['documents.get']({ documentId: b.documentIds[0] }))?.filename).toBe('renamed elsewhere.json');
    expect(state).toMatchObject({ pending: 2, blocked: 0 });
    expect(state.lastError).toMatch(/The service had a problem \(HTTP 500: disk on fire\)/);
    for (let run = 2; run <= 5; run++) state = await c.h['sync.now']({});
    // Five failures: blocked, with the entry behind it, and said in words.
    expect(state).toMatchObject({ pending: 0, blocked: 2 });
    expect(state.lastError).toMatch(/^A change to "transcript-\d+-0\.json" \(save\) could not be sent: it failed 5 times, last with: disk on fire\. It is kept here/);
    expect((await c.h['documents.get']({ documentId: a.documentIds[0] }))?.local_state).toBe('conflict');
    expect(plainText((await c.h['documents.get']({ documentId: a.documentIds[0] }))!.body!.content)).toBe('A second');
    // No more tries at A; B's next edit still goes.
    const triesAtA = gate.seen.filter((r) => r.method === 'PUT' && r.url.split('?')[0] === aPath).length;
    await c.h['documents.save']({ documentId: b.documentIds[0], content: transcript(['B again']) });
    state = await c.h['sync.now']({});
    expect(gate.seen.filter((r) => r.method === 'PUT' && r.url.split('?')[0] === aPath).length).toBe(triesAtA);
    expect(state).toMatchObject({ pending: 0, blocked: 2, lastError: null });
    expect(plainText((await device.call('documents.get', { params: { sessionId: b.sessionId, documentId: b.documentIds[0] } })).document!.content)).toBe('B again');
    expect((await c.h['documents.get']({ documentId: a.documentIds[0] }))?.unsent_reason).toMatch(/^it failed 5 times, last with: .*disk on fire/);
    expect((await c.h['documents.get']({ documentId: b.documentIds[0] }))?.unsent_reason).toBeNull();
    // The service is mended. A retry of another document's changes leaves A's alone; A's own sends both, in order.
    gate.rules.answer = undefined;
    state = await c.h['sync.retryBlocked']({ documentId: b.documentIds[0] });
    expect(state).toMatchObject({ pending: 0, blocked: 2 });
    expect(gate.seen.filter((r) => r.method === 'PUT' && r.url.split('?')[0] === aPath).length).toBe(triesAtA);
    state = await c.h['sync.retryBlocked']({ documentId: a.documentIds[0] });
    expect(state).toMatchObject({ pending: 0, blocked: 0, lastError: null });
    expect((await c.h['documents.get']({ documentId: a.documentIds[0] }))?.unsent_reason).toBeNull();
    expect(plainText((await device.call('documents.get', { params: { sessionId: a.sessionId, documentId: a.documentIds[0] } })).document!.content)).toBe('A second');
    expect((await c.h['documents.get']({ documentId: a.documentIds[0] }))?.local_state).toBe('synced');
  });

  it('unsent changes the user gives up are dropped: the service version comes back, and a document the service lost goes', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 2, texts: () => ['as the service has it'] });
    const [a, b] = seeded.sessions;
    const gate = await proxy(svc.url);
    const c = await core(gate.url);
    await c.h['sync.now']({});
    const aDoc = a.documentIds[0];
    const aName = (await c.h['documents.get']({ documentId: aDoc }))!.filename;
    // The service refuses A's changes for good (422); another device deletes B.
    const aPath = `/api/v3/speech-to-text/session/${a.sessionId}/document/${aDoc}`;
    gate.rules.answer = (method, url) => (method === 'PUT' && url.split('?')[0] === aPath ? { status: 422, body: { error: 'unprocessable', error_description: 'not today', status: 422 } } : undefined);
    const device = await otherDevice(svc.url);
    await device.call('documents.delete', { params: { sessionId: b.sessionId, documentId: b.documentIds[0] } });
    await c.h['documents.save']({ documentId: aDoc, content: transcript(['my version of A']), filename: 'my name.json' });
    await c.h['documents.save']({ documentId: b.documentIds[0], content: transcript(['my version of B']) });
    let state = await c.h['sync.now']({});
    expect(state).toMatchObject({ pending: 0, blocked: 2 });
    expect((await c.h['documents.get']({ documentId: aDoc }))?.unsent_reason).toMatch(/not today/);
    expect((await c.h['documents.get']({ documentId: b.documentIds[0] }))?.unsent_reason).toMatch(/no longer has this document/);
    // Given up: A is the service's again (body at once, its name with the next pull); B is gone.
    expect(await c.h['documents.discardUnsent']({ documentId: aDoc })).toEqual({ documentId: aDoc });
    expect(plainText((await c.h['documents.get']({ documentId: aDoc }))!.body!.content)).toBe('as the service has it');
    expect(await c.h['documents.discardUnsent']({ documentId: b.documentIds[0] })).toEqual({ documentId: null });
    expect(await c.h['documents.get']({ documentId: b.documentIds[0] })).toBeNull();
    state = await c.h['sync.now']({});
    expect(state).toMatchObject({ pending: 0, blocked: 0, lastError: null });
    const localA = (await c.h['documents.get']({ documentId: aDoc }))!;
    expect(localA).toMatchObject({ filename: aName, local_state: 'synced', unsent_reason: null });
    expect(plainText(localA.body!.content)).toBe('as the service has it');
    expect(await c.h['search.text']({ q: 'version', limit: 10 })).toEqual([]);
    // Nothing of the dropped changes was sent: the service still has A as it was.
    expect(plainText((await device.call('documents.get', { params: { sessionId: a.sessionId, documentId: aDoc } })).document!.content)).toBe('as the service has it');
  });

  it('a corrupt cache is rebuilt at start, and the kept outbox edit reaches the service', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 40, texts: (i) => [`session ${i} `.repeat(200)] });
    const { sessionId, documentIds: [docId] } = seeded.sessions[7];
    const first = await signedInCore(svc.url);
    await first.h['sync.now']({});
    await first.h['documents.save']({ documentId: docId, content: transcript(['saved before the damage']) });
    await first.core.close();
    // Damage the search rows' pages (not the outbox's), as a bad sector would.
    const file = join(first.dataDir, CACHE_FILE);
    const db = new Database(file, { readonly: true });
    const pages = (db.prepare("SELECT pageno FROM dbstat WHERE name = 'text_segments' AND pageno > 1").all() as { pageno: number }[]).map((p) => p.pageno);
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    expect(pages.length).toBeGreaterThan(1);
    const fd = openSync(file, 'r+');
    for (const p of pages.slice(0, 4)) writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (p - 1) * pageSize);
    closeSync(fd);
    // The app starts again, still signed in (the token outlived the run).
    const restarted = await createCore({ dataDir: first.dataDir, serviceUrl: svc.url, mode: 'cloud', secrets: first.secrets, emit: () => {}, background: false });
    const c = { core: restarted, h: restarted.handlers, events: [], dataDir: first.dataDir, secrets: first.secrets };
    cores.push(c);
    expect((await c.h['auth.state']({})).message).toMatch(/The local cache was damaged and has been rebuilt \(1 unsent edit kept; the old file is at .*cache\.db\.corrupt-/);
    const state = await c.h['sync.now']({});
    expect(state).toMatchObject({ pending: 0, blocked: 0, lastError: null });
    const device = await otherDevice(svc.url);
    expect(plainText((await device.call('documents.get', { params: { sessionId, documentId: docId } })).document!.content)).toBe('saved before the damage');
    // The rebuilt cache was refilled from the service.
    expect((await c.h['sessions.list']({ offset: 0, limit: 1 })).total).toBeGreaterThanOrEqual(40);
  });
});
