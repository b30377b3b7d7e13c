/**
 * Captions follow their transcript, at the core's level against the real local service: a
 * session with a transcript and the captions cut from it (as the service's jobs make them); a
 * word and a speaker corrected in the transcript and saved; the captions rebuilt with the caption
 * profile, a hand edit elsewhere kept, the SRT export (editor, bulk, watch-folder delivery)
 * carrying both, and the rebuilt captions reaching the service. Offline, the same save rebuilds the captions in the cache and the outbox
 * sends them once the service is back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../main/api';
import { WatchProfile, type CaptionsRebuilt } from '../../../common/ipc';
import { deliver } from '../../../main/watch/deliver';
import { documentsFromCache } from '../../../main/watch/in-app';
import { transcriptToCaptions } from '../../../common/transcript/captions';
import type { CaptionContent, DocumentBody, TranscriptContent } from '../../../common/transcript/model';
import { insertDocument } from '../../../service/documents/store';
import { closeCoreAndService, otherDevice, signedInCore, type TestCore } from '../helpers/harness';
import { openServiceDb } from '../helpers/seed';
import { cleanup, DEMO, startService, tempDir, type RunningService } from '../../helpers/service';

let svc: RunningService;
let c: TestCore;

function spoken(id: string, speaker: string, startMs: number, text: string) {
  const words = text.split(' ').map((w, i) => ({ text: w, start_ms: startMs + i * 400, end_ms: startMs + i * 400 + 350, confidence: 0.9 }));
  return { id, speaker_id: speaker, start_ms: startMs, end_ms: startMs + words.length * 400, words };
}

const TRANSCRIPT: TranscriptContent = {
  kind: 'transcript',
  version: 1,
  speakers: [{ id: 'S1', name: 'Anna' }, { id: 'S2', name: 'Ben' }],
  segments: [
    spoken('seg1', 'S1', 0, 'the whether is nice today'),
    spoken('seg2', 'S1', 5_000, 'we will walk to the river'),
    spoken('seg3', 'S2', 10_000, 'and eat lunch by the water'),
  ],
};

/** A session made as a job makes one: the transcript and the captions cut from it with the default profile. */
function seedSession(name: string): { sessionId: string; transcriptId: string; captionId: string } {
  const db = openServiceDb(svc.dataDir);
  try {
    const u = db.prepare('SELECT id, org_id FROM users WHERE email = ?').get(DEMO.email) as { id: number; org_id: number };
    const sessionId = `cf${name}${Date.now()}`;
    const stamp = new Date().toISOString();
    const pk = Number(
      db
        .prepare("INSERT INTO sessions (session_id, org_id, user_id, filename, duration, media_type, language, status, session_mode, created_at, last_modified) VALUES (?, ?, ?, ?, 15, 'audio/wav', 'en', 'completed', 'upload', ?, ?)")
        .run(sessionId, u.org_id, u.id, `${name}.wav`, stamp, stamp).lastInsertRowid,
    );
    const transcript: DocumentBody = { document_type: 'transcript', metadata: {}, content: TRANSCRIPT };
    const captions: DocumentBody = { document_type: 'caption', metadata: {}, content: transcriptToCaptions(TRANSCRIPT) };
    const transcriptId = insertDocument(db, { sessionPk: pk, filename: name, type: 'document', language: 'en', body: transcript });
    const captionId = insertDocument(db, { sessionPk: pk, filename: `${name} (captions)`, type: 'caption', language: 'en', body: captions });
    return { sessionId, transcriptId, captionId };
  } finally {
    db.close();
  }
}

const captionsOf = async (id: string) => (await c.h['documents.get']({ documentId: id }))!.body!.content as CaptionContent;
const transcriptOf = async (id: string) => structuredClone((await c.h['documents.get']({ documentId: id }))!.body!.content as TranscriptContent);
const srtOf = async (id: string) => Buffer.from((await c.h['export.render']({ documentId: id, format: 'srt', options: {} })).base64, 'base64').toString('utf8');

/** Corrects "whether" to "weather" in the first segment and gives the second segment to Ben. */
function corrected(t: TranscriptContent): TranscriptContent {
  t.segments[0].words[1].text = 'weather';
  t.segments[1].speaker_id = 'S2';
  return t;
}

/** Edits the cue over the third segment by hand ("water" -> "water's edge"); returns its id. */
async function handEdit(captionId: string): Promise<string> {
  const caps = structuredClone(await captionsOf(captionId));
  const cue = caps.cues.find((q) => q.lines.join(' ').includes('lunch'))!;
  cue.lines = cue.lines.map((l) => l.replace('water', "water's edge"));
  await c.h['documents.save']({ documentId: captionId, content: caps });
  return cue.id;
}

async function captionsOnService(device: ApiClient, sessionId: string, captionId: string): Promise<string> {
  const d = await device.call('documents.get', { params: { sessionId, documentId: captionId } });
  return JSON.stringify(d.document?.content ?? null);
}

beforeAll(async () => {
  svc = await startService();
}, 60_000);
afterAll(async () => {
  await closeCoreAndService({ core: c, svc });
});

describe('captions follow the transcript', () => {
  it('a saved correction of a word and a speaker rebuilds the captions, keeps a hand edit, exports and syncs', async () => {
    const s = seedSession('online');
    c = await signedInCore(svc.url);
    await c.h['sync.now']({});
    const editedCue = await handEdit(s.captionId);
    expect(await srtOf(s.captionId)).not.toMatch(/weather/);

    c.events.length = 0;
    await c.h['documents.save']({ documentId: s.transcriptId, content: corrected(await transcriptOf(s.transcriptId)) });

    const caps = await captionsOf(s.captionId);
    const text = caps.cues.map((q) => q.lines.join(' ')).join(' | ');
    expect(text).toMatch(/the weather is nice today/);
    expect(text).not.toMatch(/whether/);
    // The hand edit sits over words that did not change: kept, with its id.
    const kept = caps.cues.find((q) => q.id === editedCue)!;
    expect(kept.lines.join(' ')).toContain("water's edge");
    expect(caps.cues.find((q) => q.lines.join(' ').includes('river'))!.speaker_id).toBe('S2');

    const rebuilt = c.events.filter((e) => e.event === 'captions.rebuilt').map((e) => e.payload as CaptionsRebuilt);
    expect(rebuilt).toHaveLength(1);
    expect(rebuilt[0]).toMatchObject({ documentId: s.captionId, transcriptId: s.transcriptId });
    expect(rebuilt[0].changed.length).toBeGreaterThanOrEqual(2);
    expect(rebuilt[0].changed).not.toContain(editedCue);
    expect(c.events.some((e) => e.event === 'cache.changed' && (e.payload as { documents?: string[] }).documents?.includes(s.captionId))).toBe(true);

    const srt = await srtOf(s.captionId);
    expect(srt).toMatch(/Anna: the weather is nice today/);
    expect(srt).toMatch(/Ben: we will walk to the river/);
    expect(srt).toContain("water's edge");

    // Bulk export into a folder takes the session's captions, rebuilt.
    const folder = tempDir('s2t-captions-bulk-');
    try {
      const bulk = await c.h['export.bulk']({ sessionIds: [s.sessionId], format: 'srt', folder, options: {} });
      expect(bulk.written).toHaveLength(1);
      const file = readFileSync(bulk.written[0], 'utf8');
      expect(file).toMatch(/Anna: the weather is nice today/);
      expect(file).toContain("water's edge");
    } finally {
      cleanup(folder);
    }

    // Watch folders deliver from the cache (documentsFromCache, as the app wires them) with deliver().
    const watched = tempDir('s2t-captions-watch-');
    try {
      const folder = { id: 'w1', path: watched, paused: false, profile: WatchProfile.parse({ formats: [{ format: 'srt', options: {} }] }) };
      const docs = await documentsFromCache(c.h)(s.sessionId);
      const [file] = await deliver(folder, join(watched, 'online.wav'), docs!);
      const delivered = readFileSync(file, 'utf8');
      expect(delivered).toMatch(/Anna: the weather is nice today/);
      expect(delivered).toContain("water's edge");
    } finally {
      cleanup(watched);
    }

    // Saved like any edit: the next sync sends the rebuilt captions to the service.
    expect(await c.h['sync.now']({})).toMatchObject({ pending: 0, blocked: 0, lastError: null });
    expect(await captionsOnService(await otherDevice(svc.url), s.sessionId, s.captionId)).toBe(JSON.stringify(await captionsOf(s.captionId)));
  }, 60_000);

  it('offline: the save rebuilds the captions in the cache, and they go to the service when it is back', async () => {
    const s = seedSession('offline');
    await c.h['sync.now']({});
    const editedCue = await handEdit(s.captionId);
    const port = Number(new URL(svc.url).port);
    await svc.stop();
    try {
      await c.h['documents.save']({ documentId: s.transcriptId, content: corrected(await transcriptOf(s.transcriptId)) });
      // Rebuilt and saved by the save itself (not only by the export, which applies a pending rebuild too).
      expect((await captionsOf(s.captionId)).cues.map((q) => q.lines.join(' ')).join(' ')).toMatch(/weather/);
      expect((await c.h['documents.get']({ documentId: s.captionId }))!.local_state).toBe('pending');
      const srt = await srtOf(s.captionId);
      expect(srt).toMatch(/Anna: the weather is nice today/);
      expect(srt).toMatch(/Ben: we will walk to the river/);
      expect(srt).toContain("water's edge");
      expect((await captionsOf(s.captionId)).cues.some((q) => q.id === editedCue)).toBe(true);
      expect(await c.h['sync.now']({})).toMatchObject({ connectivity: 'offline' });
      expect((await c.h['documents.get']({ documentId: s.captionId }))!.local_state).toBe('pending');
    } finally {
      svc = await startService({ dataDir: svc.dataDir, port });
    }
    expect(await c.h['sync.now']({})).toMatchObject({ connectivity: 'online', pending: 0, blocked: 0 });
    expect(await captionsOnService(await otherDevice(svc.url), s.sessionId, s.captionId)).toBe(JSON.stringify(await captionsOf(s.captionId)));
  }, 60_000);

  it('a transcript changed on another device rebuilds the captions when the pull brings it', async () => {
    const s = seedSession('pulled');
    await c.h['sync.now']({});
    const device = await otherDevice(svc.url);
    const onService = await device.call('documents.get', { params: { sessionId: s.sessionId, documentId: s.transcriptId } });
    const content = corrected(structuredClone(onService.document!.content as TranscriptContent));
    await device.call('documents.update', { params: { sessionId: s.sessionId, documentId: s.transcriptId }, body: { document: { document_type: 'transcript', metadata: {}, content } } });
    c.events.length = 0;
    await c.h['sync.now']({});
    expect(await srtOf(s.captionId)).toMatch(/Anna: the weather is nice today/);
    expect(c.events.some((e) => e.event === 'captions.rebuilt' && (e.payload as CaptionsRebuilt).documentId === s.captionId)).toBe(true);
  }, 60_000);

  it('the explicit rebuild brings back a cue deleted by mistake and keeps the hand edit', async () => {
    const s = seedSession('explicit');
    await c.h['sync.now']({});
    const editedCue = await handEdit(s.captionId);
    const caps = structuredClone(await captionsOf(s.captionId));
    const gone = caps.cues.find((q) => q.lines.join(' ').includes('river'))!;
    await c.h['documents.save']({ documentId: s.captionId, content: { ...caps, cues: caps.cues.filter((q) => q.id !== gone.id) } });
    expect(await srtOf(s.captionId)).not.toMatch(/river/);

    const r = await c.h['captions.rebuild']({ documentId: s.captionId });
    expect(r.changed).toHaveLength(1);
    const after = await captionsOf(s.captionId);
    expect(after.cues.find((q) => q.id === r.changed[0])!.lines.join(' ')).toContain('we will walk to the river');
    expect(after.cues.find((q) => q.id === editedCue)!.lines.join(' ')).toContain("water's edge");
  }, 60_000);

  it('captions marked finished stay as they are when the transcript changes, and follow it once reopened', async () => {
    const s = seedSession('finished');
    await c.h['sync.now']({});
    await c.h['documents.mutate']({ documentId: s.captionId, mutation: { op: 'finalize', finished: true } });
    const final = JSON.stringify(await captionsOf(s.captionId));
    c.events.length = 0;
    await c.h['documents.save']({ documentId: s.transcriptId, content: corrected(await transcriptOf(s.transcriptId)) });
    expect(JSON.stringify(await captionsOf(s.captionId))).toBe(final);
    expect(c.events.some((e) => e.event === 'captions.rebuilt')).toBe(false);
    // An export takes the finished captions as they are.
    expect(await srtOf(s.captionId)).not.toMatch(/weather/);
    expect(await c.h['sync.now']({})).toMatchObject({ pending: 0, blocked: 0, lastError: null });
    expect(await captionsOnService(await otherDevice(svc.url), s.sessionId, s.captionId)).toBe(final);

    // Reopened: the rebuild that was due is done at the next export.
    await c.h['documents.mutate']({ documentId: s.captionId, mutation: { op: 'finalize', finished: false } });
    expect(await srtOf(s.captionId)).toMatch(/Anna: the weather is nice today/);
  }, 60_000);
});
