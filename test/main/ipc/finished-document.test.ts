/**
 * A document marked finished is read-only until reopened, on main's side too: a change
 * that bypasses the editor's locked history (reset, clear text, the timecode offset, a save, a
 * caption rebuild) reaching main for a finished document is refused with words that say how to go
 * on, and nothing is written to the cache, the outbox or the local service. What does not change
 * the document (rename, copy) still works, and once reopened the same changes go through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINISHED_REFUSAL } from '../../../common/ipc/finished';
import type { DocumentBody, TranscriptContent } from '../../../common/transcript';
import { transcriptToCaptions } from '../../../common/transcript/captions';
import { plainText } from '../../../common/transcript/model';
import { insertDocument } from '../../../service/documents/store';
import { DEMO, startService, type RunningService } from '../../helpers/service';
import { transcript } from '../helpers/fixtures';
import { closeCoreAndService, otherDevice, signedInCore, type TestCore } from '../helpers/harness';
import { openServiceDb } from '../helpers/seed';

const TEXT = ['the first line is finished', 'and so is the second'];
let svc: RunningService;
let c: TestCore;
let sessionId: string;
let transcriptId: string;
let captionId: string;

beforeAll(async () => {
  svc = await startService();
  const db = openServiceDb(svc.dataDir);
  try {
    const u = db.prepare('SELECT id, org_id FROM users WHERE email = ?').get(DEMO.email) as { id: number; org_id: number };
    sessionId = `finished${Date.now()}`;
    const stamp = new Date().toISOString();
    const pk = Number(
      db
        .prepare("INSERT INTO sessions (session_id, org_id, user_id, filename, duration, media_type, language, status, session_mode, created_at, last_modified) VALUES (?, ?, ?, 'finished.wav', 10, 'audio/wav', 'en', 'completed', 'upload', ?, ?)")
        .run(sessionId, u.org_id, u.id, stamp, stamp).lastInsertRowid,
    );
    const t: DocumentBody = { document_type: 'transcript', metadata: {}, content: transcript(TEXT) };
    transcriptId = insertDocument(db, { sessionPk: pk, filename: 'finished.json', type: 'document', language: 'en', body: t });
    const caps: DocumentBody = { document_type: 'caption', metadata: {}, content: transcriptToCaptions(t.content as TranscriptContent) };
    captionId = insertDocument(db, { sessionPk: pk, filename: 'finished (captions)', type: 'caption', language: 'en', body: caps });
  } finally {
    db.close();
  }
  c = await signedInCore(svc.url);
  await c.h['sync.now']({});
}, 60_000);

afterAll(() => closeCoreAndService({ core: c, svc }));

const local = async (id: string) => (await c.h['documents.get']({ documentId: id }))!;
const refused = { code: 'FINISHED', message: FINISHED_REFUSAL };

describe('a finished document on main', () => {
  it('refuses reset, clear text, the timecode offset, a save and a caption rebuild, in words; nothing is written or sent', async () => {
    for (const id of [transcriptId, captionId]) await c.h['documents.mutate']({ documentId: id, mutation: { op: 'finalize', finished: true } });
    expect((await c.h['sync.now']({})).pending).toBe(0);
    const before = await local(transcriptId);
    const captionsBefore = await local(captionId);
    expect(before.finished).toBe(true);

    await expect(c.h['documents.mutate']({ documentId: transcriptId, mutation: { op: 'clearText' } })).rejects.toMatchObject(refused);
    await expect(c.h['documents.mutate']({ documentId: transcriptId, mutation: { op: 'resetToOriginal' } })).rejects.toMatchObject(refused);
    await expect(c.h['documents.mutate']({ documentId: transcriptId, mutation: { op: 'setTimecodeOffset', timecodeOffset: '10:00:00:00' } })).rejects.toMatchObject(refused);
    await expect(c.h['documents.save']({ documentId: transcriptId, content: transcript(['typed into a finished document']) })).rejects.toMatchObject(refused);
    await expect(c.h['captions.rebuild']({ documentId: captionId })).rejects.toMatchObject(refused);

    const after = await local(transcriptId);
    expect(plainText(after.body!.content)).toBe(TEXT.join('\n'));
    expect(after).toMatchObject({ timecode_offset: before.timecode_offset, local_state: 'synced' });
    expect((await local(captionId)).body).toEqual(captionsBefore.body);
    expect((await c.h['sync.state']({})).pending).toBe(0);

    const device = await otherDevice(svc.url);
    const remote = await device.call('documents.get', { params: { sessionId, documentId: transcriptId } });
    expect(remote.finished).toBe(true);
    expect(plainText(remote.document!.content)).toBe(TEXT.join('\n'));
    expect(remote.timecode_offset).toBe('00:00:00:00');
  });

  it('still renames and copies a finished document', async () => {
    await c.h['documents.mutate']({ documentId: transcriptId, mutation: { op: 'rename', filename: 'finished, renamed.json' } });
    const copy = await c.h['documents.mutate']({ documentId: transcriptId, mutation: { op: 'copy', newFilename: 'finished copy.json' } });
    expect(copy.documentId).not.toBe(transcriptId);
    expect((await local(transcriptId)).filename).toBe('finished, renamed.json');
    expect(plainText((await local(copy.documentId!)).body!.content)).toBe(TEXT.join('\n'));
  });

  it('reopened, the same changes go through and reach the service', async () => {
    await c.h['documents.mutate']({ documentId: transcriptId, mutation: { op: 'finalize', finished: false } });
    await c.h['documents.mutate']({ documentId: transcriptId, mutation: { op: 'setTimecodeOffset', timecodeOffset: '10:00:00:00' } });
    await c.h['documents.save']({ documentId: transcriptId, content: transcript(['edited after reopening', 'and saved']) });
    await c.h['documents.mutate']({ documentId: captionId, mutation: { op: 'finalize', finished: false } });
    await c.h['captions.rebuild']({ documentId: captionId });
    expect((await c.h['sync.now']({})).pending).toBe(0);

    const device = await otherDevice(svc.url);
    const remote = await device.call('documents.get', { params: { sessionId, documentId: transcriptId } });
    expect(remote).toMatchObject({ finished: false, timecode_offset: '10:00:00:00' });
    expect(plainText(remote.document!.content)).toBe('edited after reopening\nand saved');
  });
});
