/**
 * An upload-mode session has no media to measure: its duration is its documents' last time, from
 * the upload on and after edits (it was stored as 0, so a 3-hour transcript showed 0:00). Each
 * document keeps its end in documents.end_ms; a database from before that gets it by migration.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Session } from '../../../common/api';
import type { DocumentBody } from '../../../common/transcript/model';
import { startService, stopAndRemove, type RunningService } from '../../helpers/service';
import { must } from '../answers';
import { client, jobDone, transcriptOf, uploadedFileId, type Client } from '../work/helpers';

const STT = '/api/v3/speech-to-text';
const HOURS_3 = 3 * 3600_000;

/** A transcript of three hours: a segment every ten minutes, the last ending at 3:00:00. */
function threeHourBody(): DocumentBody {
  const segments = Array.from({ length: 18 }, (_, i) => {
    const end = (i + 1) * 600_000;
    return { id: `s${i + 1}`, speaker_id: null, start_ms: end - 5000, end_ms: end, words: [{ text: `part${i + 1}`, start_ms: end - 5000, end_ms: end, confidence: 1 }] };
  });
  return { document_type: 'transcript', metadata: {}, content: { kind: 'transcript', version: 1, speakers: [], segments } };
}

let svc: RunningService;
let c: Client;

async function uploadSession(content: string, filename: string): Promise<string> {
  const job = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(c, content, filename), language: 'en', session_mode: 'upload' });
  const done = await jobDone(c, job.body.job_id);
  expect(done.status, JSON.stringify(done.error)).toBe('completed');
  return done.metadata.session_id;
}

const session = async (sid: string): Promise<Session> => (await c.json('sessions.get', `${STT}/session/${sid}`)).body.result;

beforeAll(async () => {
  svc = await startService();
  c = await client(svc.url);
}, 60_000);

afterAll(() => stopAndRemove(svc));

it('a 3-hour transcript uploaded as a document gives its session a 3-hour duration, in the session and the list', async () => {
  const sid = await uploadSession(JSON.stringify(threeHourBody()), 'long-meeting.json');
  expect((await session(sid)).duration).toBe(HOURS_3 / 1000);
  const list = await c.json('sessions.list', `${STT}/session?limit=100`);
  expect(must(list.body.result.find((s) => s.session_id === sid), 'the listed session').duration).toBe(HOURS_3 / 1000);
});

it('an edit that moves the last time moves the duration; deleting the documents brings it back to 0', async () => {
  const sid = await uploadSession('1\n00:00:01,000 --> 00:00:12,500\nHello there.\n', 'hello.srt');
  expect((await session(sid)).duration).toBe(12.5);
  const docs = (await c.json('documents.list', `${STT}/session/${sid}/document?include_content=true`)).body.result;
  const transcript = must(docs.find((d) => d.type === 'document'), 'the transcript');
  const body = must(transcript.document, 'the transcript body');
  const segments = transcriptOf(transcript).segments;
  const last = must(segments.at(-1), 'the last segment');
  segments.push({ id: 'later', speaker_id: null, start_ms: 40_000, end_ms: 41_250, words: [{ text: 'Bye.', start_ms: 40_000, end_ms: 41_250, confidence: 1 }] });
  expect(last.end_ms).toBe(12_500);
  const put = await c.json('documents.update', `${STT}/session/${sid}/document/${transcript.id}`, { document: body });
  expect(put.status, put.text).toBe(200);
  expect((await session(sid)).duration).toBe(41.25);
  for (const d of docs) expect((await c.json('documents.delete', `${STT}/session/${sid}/document/${d.id}`)).status).toBe(200);
  expect((await session(sid)).duration).toBe(0);
});

it('a database from before documents kept their end gets the column filled and its durations set, once, when the service opens it', async () => {
  const sid = await uploadSession('1\n00:00:02,000 --> 00:00:07,750\nStored long ago.\n', 'old.srt');
  await svc.stop();
  // Back to the schema before migration 151: no end_ms column (nor what 152, 160, 170, 230, 260 and 270 added), and the duration stored as 0.
  const file = join(svc.dataDir, 'service.db');
  let db = new Database(file);
  db.exec(`DROP INDEX documents_session_end; DROP TRIGGER session_wire_insert; DROP TRIGGER session_wire_update; DROP TRIGGER session_wire_delete; DROP VIEW session_wire_source;
    DROP TABLE session_wire; ALTER TABLE documents DROP COLUMN end_ms; ALTER TABLE jobs DROP COLUMN interruptions; DROP TABLE processing_usage;
    DROP INDEX share_links_id; DROP INDEX share_links_document; ALTER TABLE share_links DROP COLUMN id; ALTER TABLE share_links DROP COLUMN via; ALTER TABLE share_links DROP COLUMN mailed_to;
    DROP TABLE workers; ALTER TABLE jobs DROP COLUMN queued_attempt; ALTER TABLE jobs DROP COLUMN queued_at; ALTER TABLE jobs DROP COLUMN queue_name;
    ALTER TABLE jobs DROP COLUMN lease; ALTER TABLE jobs DROP COLUMN worker; ALTER TABLE jobs DROP COLUMN heartbeat_at; ALTER TABLE jobs DROP COLUMN charged_seconds;
    PRAGMA user_version = 150`);
  db.prepare('UPDATE sessions SET duration = 0 WHERE session_id = ?').run(sid);
  db.close();
  svc = await startService({ dataDir: svc.dataDir });
  c = await client(svc.url);
  expect((await session(sid)).duration).toBe(7.75);
  db = new Database(file, { readonly: true });
  const ends = db.prepare('SELECT d.end_ms FROM documents d JOIN sessions s ON s.id = d.session_pk WHERE s.session_id = ?').all(sid) as { end_ms: number | null }[];
  db.close();
  expect(ends.length).toBeGreaterThan(0);
  for (const e of ends) expect(e.end_ms).toBe(7750);
}, 60_000);
