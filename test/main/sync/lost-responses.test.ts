/**
 * Lost responses: for every mutation kind, the proxy lets the service apply the request and then
 * cuts the connection, so the app never hears. The retry must find what landed and apply it
 * exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentMutation } from '../../../common/ipc';
import { plainText } from '../../../common/transcript/model';
import type { ApiClient } from '../../../main/api';
import { DEMO, startService, type RunningService } from '../../helpers/service';
import { transcript } from '../helpers/fixtures';
import { closeCoreAndService, otherDevice, signedInCore, type TestCore } from '../helpers/harness';
import { applied, recordingProxy, type RecordingProxy } from '../helpers/proxy';
import { openServiceDb, seedService } from '../helpers/seed';

const STT = '/api/v3/speech-to-text';
let svc: RunningService;
let proxy: RecordingProxy;
let c: TestCore;
let device: ApiClient;
let sessionId: string;
let docs: string[];

beforeAll(async () => {
  svc = await startService();
  const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 1, docsPerSession: 12, texts: (_i, d) => [`document ${d} opens`, `and document ${d} closes`] });
  ({ sessionId, documentIds: docs } = seeded.sessions[0]);
  proxy = await recordingProxy(svc.url);
  c = await signedInCore(proxy.url);
  device = await otherDevice(svc.url);
  await c.h['sync.now']({});
});

afterAll(() => closeCoreAndService({ core: c, proxy, svc }));

const remote = (documentId: string) => device.call('documents.get', { params: { sessionId, documentId } });
const docPath = (id: string) => `${STT}/session/${sessionId}/document/${id}`;

/** Makes the change, loses the answer of its first send, syncs until the outbox is empty, and returns the sends the service applied (the lost one included). */
async function loseOnce(method: string, path: string, change: () => Promise<unknown>) {
  const before = proxy.seen.length;
  proxy.dropNext((m, u) => m === method && u.split('?')[0] === path);
  await change();
  await c.h['sync.now']({});
  expect(proxy.seen.slice(before).filter((r) => r.dropped)).toHaveLength(1);
  await c.h['sync.now']({});
  const settled = await c.h['sync.now']({});
  expect(settled).toMatchObject({ pending: 0, blocked: 0, lastError: null, connectivity: 'online' });
  return applied(proxy.seen.slice(before), method, (p) => p === path);
}

const mutate = (documentId: string, mutation: DocumentMutation) => () => c.h['documents.mutate']({ documentId, mutation });

describe('a response lost after the service applied the request', () => {
  it('save', async () => {
    const sends = await loseOnce('PUT', docPath(docs[0]), () => c.h['documents.save']({ documentId: docs[0], content: transcript(['once', 'and only once']) }));
    expect(sends).toHaveLength(1);
    expect(plainText((await remote(docs[0])).document!.content)).toBe('once\nand only once');
    expect((await c.h['documents.get']({ documentId: docs[0] }))?.local_state).toBe('synced');
  });

  it('rename', async () => {
    expect(await loseOnce('PUT', docPath(docs[1]), mutate(docs[1], { op: 'rename', filename: 'renamed once.json' }))).toHaveLength(1);
    expect((await remote(docs[1])).filename).toBe('renamed once.json');
  });

  it('timecode offset', async () => {
    expect(await loseOnce('PUT', docPath(docs[2]), mutate(docs[2], { op: 'setTimecodeOffset', timecodeOffset: '10:00:00:00' }))).toHaveLength(1);
    expect((await remote(docs[2])).timecode_offset).toBe('10:00:00:00');
  });

  it('finalize', async () => {
    expect(await loseOnce('POST', `${docPath(docs[3])}/finished_status`, mutate(docs[3], { op: 'finalize', finished: true }))).toHaveLength(1);
    expect((await remote(docs[3])).finished).toBe(true);
  });

  it('reset to original', async () => {
    // Changed elsewhere first, so the reset has something to undo.
    await device.call('documents.update', { params: { sessionId, documentId: docs[4] }, body: { document: { document_type: 'transcript', metadata: {}, content: transcript(['changed elsewhere']) } } });
    await c.h['sync.now']({});
    expect(await loseOnce('PUT', `${docPath(docs[4])}/reset_to_original`, mutate(docs[4], { op: 'resetToOriginal' }))).toHaveLength(1);
    expect(plainText((await remote(docs[4])).document!.content)).toBe('document 4 opens\nand document 4 closes');
    expect(plainText((await c.h['documents.get']({ documentId: docs[4] }))!.body!.content)).toBe('document 4 opens\nand document 4 closes');
  });

  it('clear text', async () => {
    expect(await loseOnce('PUT', `${docPath(docs[5])}/clear_text`, mutate(docs[5], { op: 'clearText' }))).toHaveLength(1);
    expect(plainText((await remote(docs[5])).document!.content)).toBe('\n');
  });

  it('summarize', async () => {
    expect(await loseOnce('POST', `${docPath(docs[6])}/export/summarize`, mutate(docs[6], { op: 'summarize' }))).toHaveLength(1);
    const content = (await remote(docs[6])).document!.content;
    expect(content.kind === 'transcript' && content.summary).toBeTruthy();
  });

  it('delete', async () => {
    // The retry's DELETE finds nothing (404): one deletion applied.
    expect(await loseOnce('DELETE', docPath(docs[7]), mutate(docs[7], { op: 'delete' }))).toHaveLength(1);
    await expect(remote(docs[7])).rejects.toMatchObject({ status: 404 });
    expect(await c.h['documents.get']({ documentId: docs[7] })).toBeNull();
  });

  it('copy', async () => {
    let localId = '';
    const sends = await loseOnce('POST', `${STT}/session/${sessionId}/document`, async () => {
      localId = (await c.h['documents.mutate']({ documentId: docs[8], mutation: { op: 'copy', newFilename: 'copied once.json' } })).documentId!;
    });
    expect(localId).toMatch(/^local-/);
    expect(sends).toHaveLength(1);
    const listed = await device.call('documents.list', { params: { sessionId } });
    expect(listed.result.filter((d) => d.filename === 'copied once.json')).toHaveLength(1);
    const local = await c.h['sessions.get']({ sessionId });
    expect(local?.documents.map((d) => d.id).sort()).toEqual(listed.result.map((d) => d.id).sort());
  });

  it('merge', async () => {
    const sends = await loseOnce('POST', `${STT}/merge`, () => c.h['documents.merge']({ documentIds: [docs[9], docs[10]], outputFilename: 'merged once.json' }));
    expect(sends).toHaveLength(1);
    const listed = await device.call('documents.list', { params: { sessionId }, query: { include_content: true } });
    const merged = listed.result.filter((d) => d.filename === 'merged once.json');
    expect(merged).toHaveLength(1);
    expect(plainText(merged[0].document!.content)).toBe('document 9 opens\nand document 9 closes\ndocument 10 opens\nand document 10 closes');
    expect((await c.h['sessions.get']({ sessionId }))?.documents.filter((d) => d.filename === 'merged once.json')).toHaveLength(1);
  });

  it('share: the app ends with one working link, and the lost one is listed and can be revoked', async () => {
    const path = `${docPath(docs[11])}/share`;
    const sends = await loseOnce('POST', path, mutate(docs[11], { op: 'share', allowEditing: false, allowExport: false }));
    const { links, listed } = await c.h['documents.shareLinks']({ documentId: docs[11] });
    expect(listed).toBe(true);
    const withAddress = links.filter((l) => l.url);
    expect(withAddress).toHaveLength(1);
    const token = new URL(withAddress[0].url!).searchParams.get('token')!;
    expect((await device.call('shared.document', { params: { sessionId, documentId: docs[11] }, query: { token } })).id).toBe(docs[11]);
    // The service keeps only a hash of each token, so the retry made a second link; the lost one
    // reached no one, and the service's list shows it (no address) so it can be revoked.
    expect(sends).toHaveLength(2);
    const lost = links.filter((l) => !l.url);
    expect(lost).toHaveLength(1);
    expect((await c.h['documents.revokeShare']({ documentId: docs[11], linkId: lost[0].id! })).revoked).toBe(true);
    expect((await c.h['documents.shareLinks']({ documentId: docs[11] })).links.map((l) => l.url)).toEqual([withAddress[0].url]);
    const db = openServiceDb(svc.dataDir);
    const rows = (db.prepare('SELECT count(*) AS n FROM share_links WHERE document_id = ?').get(docs[11]) as { n: number }).n;
    db.close();
    expect(rows).toBe(2);
  });
});
