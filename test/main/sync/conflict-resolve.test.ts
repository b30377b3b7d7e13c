/**
 * A real conflict, resolved side by side: the same segment edited here (in the cache) and on the
 * service (another device, over HTTP), pushed, then the pair read segment by segment and the
 * user's picks written back: the original holds them, the copy is gone, here and on the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConflictPair } from '../../../common/ipc';
import { plainText } from '../../../common/transcript/model';
import { DEMO, startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { transcript } from '../helpers/fixtures';
import { otherDevice, signedInCore, type TestCore } from '../helpers/harness';
import { seedService } from '../helpers/seed';

let svc: RunningService;
let c: TestCore;
beforeAll(async () => {
  svc = await startService();
  c = await signedInCore(svc.url);
}, 60_000);
afterAll(async () => {
  await c?.core.close();
  await stopAndRemove(svc, c?.dataDir);
});

const texts = (d: { body: { content: Parameters<typeof plainText>[0] } | null } | null) => (d?.body ? plainText(d.body.content).split('\n') : null);

describe('conflict copies resolved side by side', () => {
  it('aligns the pair by segment, refuses missing picks and stale reads, and writes the picks through sync', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 1, texts: () => ['alpha one', 'beta two', 'gamma three', 'delta four'] });
    const { sessionId, documentIds: [docId] } = seeded.sessions[0];
    await c.h['sync.now']({});
    // Ours changes segments 1 and 2; theirs 2 and 3: segment 2 clashes.
    await c.h['documents.save']({ documentId: docId, content: transcript(['alpha OURS', 'beta OURS', 'gamma three', 'delta four']) });
    const device = await otherDevice(svc.url);
    const params = { sessionId, documentId: docId };
    await device.call('documents.update', { params, body: { document: { document_type: 'transcript', metadata: {}, content: transcript(['alpha one', 'beta THEIRS', 'gamma THEIRS', 'delta four']) } } });
    await c.h['sync.now']({});

    const listed = await c.h['conflicts.list']({ sessionId });
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ originalId: docId, originalFilename: 'transcript-0-0.json' });
    expect(listed[0].copyFilename).toMatch(/^transcript-0-0 \(conflict copy .*\)\.json$/);
    const copyId = listed[0].copyId;
    // The copy was sent: it is known by its service id, and the sync.conflict event's local id still finds it.
    expect(copyId).not.toMatch(/^local-/);
    const event = c.events.find((e) => e.event === 'sync.conflict')?.payload as { conflictCopyId: string };
    expect((await c.h['conflicts.get']({ documentId: event.conflictCopyId }))?.copyId).toBe(copyId);

    const pair = (await c.h['conflicts.get']({ documentId: copyId }))!;
    expect(pair.kind).toBe('transcript');
    expect(pair.rows.map((r) => [r.id, r.status, r.bothChanged, r.theirs?.text ?? null, r.ours?.text ?? null])).toEqual([
      ['seg1', 'equal', false, 'alpha OURS', 'alpha OURS'],
      ['seg2', 'differs', true, 'beta THEIRS', 'beta OURS'],
      ['seg3', 'differs', false, 'gamma THEIRS', 'gamma three'],
      ['seg4', 'equal', false, 'delta four', 'delta four'],
    ]);
    // The original finds the same pair.
    expect((await c.h['conflicts.get']({ documentId: docId }))?.version).toBe(pair.version);

    // A pick missing for a differing segment is refused, and nothing changes.
    await expect(c.h['conflicts.resolve']({ copyId, version: pair.version, choices: { seg2: 'ours' } })).rejects.toMatchObject({ code: 'UNDECIDED' });
    expect(await c.h['documents.get']({ documentId: copyId })).not.toBeNull();

    // The service changes the original again and the pull brings it: the read is stale now.
    await device.call('documents.update', { params, body: { document: { document_type: 'transcript', metadata: {}, content: transcript(['alpha OURS', 'beta THEIRS', 'gamma THEIRS', 'delta LATER']) } } });
    await c.h['sync.now']({});
    await expect(c.h['conflicts.resolve']({ copyId, version: pair.version, choices: { seg2: 'ours', seg3: 'theirs' } })).rejects.toMatchObject({ code: 'CHANGED' });
    const fresh = (await c.h['conflicts.get']({ documentId: copyId })) as ConflictPair;
    expect(fresh.version).not.toBe(pair.version);
    expect(fresh.rows.filter((r) => r.status === 'differs').map((r) => r.id)).toEqual(['seg2', 'seg3', 'seg4']);

    const r = await c.h['conflicts.resolve']({ copyId, version: fresh.version, choices: { seg2: 'ours', seg3: 'theirs', seg4: 'theirs' } });
    expect(r).toEqual({ documentId: docId });
    const picked = ['alpha OURS', 'beta OURS', 'gamma THEIRS', 'delta LATER'];
    expect(texts(await c.h['documents.get']({ documentId: docId }))).toEqual(picked);
    expect(await c.h['documents.get']({ documentId: copyId })).toBeNull();
    expect(await c.h['conflicts.list']({ sessionId })).toEqual([]);
    expect((await c.h['sessions.get']({ sessionId }))?.documents.map((d) => d.id)).toEqual([docId]);

    // The next sync takes both to the service: the original holds the picks, the copy is deleted.
    const state = await c.h['sync.now']({});
    expect(state.pending).toBe(0);
    const onService = await device.call('documents.list', { params: { sessionId }, query: { include_content: true } });
    expect(onService.result.map((d) => d.id)).toEqual([docId]);
    expect(plainText(onService.result[0].document!.content).split('\n')).toEqual(picked);
    // And no new conflict came of it.
    expect(c.events.filter((e) => e.event === 'sync.conflict')).toHaveLength(1);
  });

  it('all theirs leaves the original as the service has it and only deletes the copy', async () => {
    const seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: 1, texts: () => ['one a', 'two b'] });
    const { sessionId, documentIds: [docId] } = seeded.sessions[0];
    await c.h['sync.now']({});
    await c.h['documents.save']({ documentId: docId, content: transcript(['one MINE', 'two b']) });
    const device = await otherDevice(svc.url);
    await device.call('documents.update', { params: { sessionId, documentId: docId }, body: { document: { document_type: 'transcript', metadata: {}, content: transcript(['one YOURS', 'two b']) } } });
    await c.h['sync.now']({});
    const [pairSummary] = await c.h['conflicts.list']({ sessionId });
    const pair = (await c.h['conflicts.get']({ documentId: pairSummary.copyId }))!;
    // "All theirs": the original stays as the service has it, so nothing but the delete is queued.
    await c.h['conflicts.resolve']({ copyId: pair.copyId, version: pair.version, choices: { seg1: 'theirs' } });
    expect(texts(await c.h['documents.get']({ documentId: docId }))).toEqual(['one YOURS', 'two b']);
    expect((await c.h['sync.state']({})).pending).toBe(1);
    await c.h['sync.now']({});
    const onService = await device.call('documents.list', { params: { sessionId }, query: { include_content: true } });
    expect(onService.result.map((d) => d.id)).toEqual([docId]);
    expect(plainText(onService.result[0].document!.content)).toBe('one YOURS\ntwo b');
  });
});
