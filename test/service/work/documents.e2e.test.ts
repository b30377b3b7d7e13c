/**
 * Every document operation over real HTTP against the real service and its SQLite, on documents
 * stored through upload mode (no engine wait): reads, every write with conflict detection,
 * exports read back with common/formats, magic links (expiry, revocation), direct-download
 * expiry, and another organization's access.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTION_FORMATS, Document, SummarizeResult, type HttpMethod, type RouteId } from '../../../common/api';
import { parseCaptions } from '../../../common/formats';
import type { DocumentBody } from '../../../common/transcript/model';
import { startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { codedError, errorOf, must, routeBody, type Answer, type RouteAnswer, type Target } from '../answers';
import { bodyOf, captionOf, client, docOf, jobDone, otherOrganization, requestJson, transcriptOf, uploadedFileId, type Client } from './helpers';

const SRT = [
  '1\n00:00:01,000 --> 00:00:03,000\nThe dog is lazy.\n',
  '2\n00:00:03,500 --> 00:00:06,000\nThe cat sleeps in the sun all day.\n',
  '3\n00:00:06,500 --> 00:00:09,000\nThe dog and the cat are friends in the house.\n',
  '4\n00:00:09,500 --> 00:00:12,000\nI like green apples.\n',
].join('\n');
const STT = '/api/v3/speech-to-text';

let svc: RunningService;
let c: Client;
/** A user of another organization, with its own batch key. */
let other: Client;
let dir: string;
let sid: string;
let jobId: string;
let transcriptId: string;
let captionId: string;
/** The documents exactly as the upload made them: what reset_to_original must give back. */
let originalTranscript: DocumentBody;
let originalCaption: DocumentBody;
const base = (session = sid) => `${STT}/session/${session}/document`;

interface Uploaded {
  sid: string;
  jobId: string;
  transcriptId: string;
  captionId: string;
}

/** Stores an SRT file as a new session in upload mode; the service makes a transcript and a caption document of it. */
async function uploadSrt(cl: Client, srt = SRT, name = 'friends.srt'): Promise<Uploaded> {
  const job = await cl.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(cl, srt, name), language: 'en', session_mode: 'upload' });
  const done = await jobDone(cl, job.body.job_id);
  expect(done.status).toBe('completed');
  const list = await cl.json('documents.list', `${STT}/session/${done.metadata.session_id}/document`);
  return {
    sid: done.metadata.session_id,
    jobId: job.body.job_id,
    transcriptId: docOf(list.body.result, 'document').id,
    captionId: docOf(list.body.result, 'caption').id,
  };
}

const copyOf = async (documentId: string, name: string): Promise<string> => {
  const r = await c.json('documents.copy', base(), { source_document_id: documentId, new_filename: name });
  expect(r.status).toBe(200);
  return r.body.id;
};

const cueText = (cue: { lines: string[] }) => cue.lines.join(' ').replace(/\s+/g, ' ').trim();
const wordsOf = (doc: Document | DocumentBody): string[] => transcriptOf(doc).segments.flatMap((s) => s.words.map((w) => w.text));

function openDb(): Database.Database {
  const db = new Database(join(svc.dataDir, 'service.db'));
  db.pragma('busy_timeout = 5000');
  return db;
}

beforeAll(async () => {
  dir = tempDir('s2t-work-docs-');
  svc = await startService();
  c = await client(svc.url);
  ({ sid, jobId, transcriptId, captionId } = await uploadSrt(c));
  originalTranscript = bodyOf((await c.json('documents.get', `${base()}/${transcriptId}`)).body);
  originalCaption = bodyOf((await c.json('documents.get', `${base()}/${captionId}`)).body);
  other = await otherOrganization(svc, 'other-org@example.com', 'other-org-password');
}, 90_000);

afterAll(() => stopAndRemove(svc, dir));

describe('reading', () => {
  it('lists a session\'s documents, with content on request', async () => {
    const bare = await c.json('documents.list', base());
    expect(bare.body).toMatchObject({ count: 2, total_results: 2 });
    expect(bare.body.result[0].document).toBeUndefined();
    const full = await c.json('documents.list', `${base()}?include_content=true&limit=1`);
    expect(full.body).toMatchObject({ count: 1, total_results: 2 });
    expect(full.body.result[0].document?.content).toBeDefined();
  });

  it('the upload made the SRT\'s cues and a transcript of the same words', () => {
    expect(captionOf(originalCaption).cues.map((q) => [q.start_ms, q.end_ms, cueText(q)])).toEqual([
      [1000, 3000, 'The dog is lazy.'],
      [3500, 6000, 'The cat sleeps in the sun all day.'],
      [6500, 9000, 'The dog and the cat are friends in the house.'],
      [9500, 12000, 'I like green apples.'],
    ]);
    expect(transcriptOf(originalTranscript).segments.map((s) => s.words.map((w) => w.text).join(' '))).toEqual(captionOf(originalCaption).cues.map(cueText));
  });

  it('direct_download gives a signed URL valid 300 s; a forged one is 403', async () => {
    const r = await c.json('documents.get', `${base()}/${transcriptId}?direct_download=true`);
    expect(r.body.document).toBeUndefined();
    expect(r.body.expires_in).toBe(300);
    const url = must(r.body.download_url, 'download_url');
    const download = await fetch(url);
    const got = routeBody('documents.download', download.status, await download.json());
    expect(got.id).toBe(transcriptId);
    expect(got.document?.content.kind).toBe('transcript');
    const forged = await fetch(url.replace(/.$/, (ch: string) => (ch === 'A' ? 'B' : 'A')));
    expect(forged.status).toBe(403);
  });

  it('a direct_download URL stops working when its TTL has passed (TTL shortened with S2T_DOWNLOAD_TTL_SECONDS)', async () => {
    const short = await startService({ env: { S2T_DOWNLOAD_TTL_SECONDS: '2' } });
    try {
      const sc = await client(short.url);
      const up = await uploadSrt(sc);
      const r = await sc.json('documents.get', `${STT}/session/${up.sid}/document/${up.captionId}?direct_download=true`);
      expect(r.body.expires_in).toBe(2);
      // Signed with exp = floor(now) + 2, so it is valid for at least one more second.
      const url = must(r.body.download_url, 'download_url');
      expect((await fetch(url)).status).toBe(200);
      await new Promise((res) => setTimeout(res, 3200));
      const late = await fetch(url);
      expect(late.status).toBe(403);
      expect(errorOf({ status: late.status, text: await late.text() }).error).toBe('forbidden');
    } finally {
      await stopAndRemove(short);
    }
  });

  it('the service refuses to start with a malformed TTL', async () => {
    await expect(startService({ env: { S2T_DOWNLOAD_TTL_SECONDS: 'soon' } })).rejects.toThrow(/s2t-service: S2T_DOWNLOAD_TTL_SECONDS must be a positive integer/);
  });
});

describe('writes', () => {
  it('every write moves last_modified on and answers a stale If-Match with 412, changing nothing', async () => {
    const target = await copyOf(transcriptId, 'conflicts');
    const link = (await c.json('documents.share', `${base()}/${target}/share`, { allow_editing: true, allow_export: false })).body.token;
    const path = `${base()}/${target}`;
    // Summarize comes before clear_text (a summary of no words says nothing) and reset restores the words.
    // Each write answers a document (summarize inside its result); read here with the route's schema.
    const writes: [string, (h: Record<string, string>) => Promise<Answer>, (body: unknown) => Document][] = [
      ['update', (h) => c.json('documents.update', path, { filename: 'conflicts 2' }, h), (b) => Document.parse(b)],
      ['summarize', (h) => c.json('documents.summarize', `${path}/export/summarize`, undefined, h), (b) => SummarizeResult.parse(b).document],
      ['finished_status', (h) => c.json('documents.finishedStatus', `${path}/finished_status?status=true`, undefined, h), (b) => Document.parse(b)],
      ['clear_text', (h) => c.json('documents.clearText', `${path}/clear_text`, undefined, h), (b) => Document.parse(b)],
      ['reset_to_original', (h) => c.json('documents.resetToOriginal', `${path}/reset_to_original`, undefined, h), (b) => Document.parse(b)],
      ['shared PUT', (h) => fetchJson('shared.update', `${path}/shared?token=${link}`, { filename: 'by link' }, h), (b) => Document.parse(b)],
    ];
    for (const [name, write, writtenOf] of writes) {
      const before = await c.json('documents.get', path);
      const etag = before.headers.get('etag')!;
      const ok = await write({ 'if-match': etag });
      expect(ok.status, `${name}: ${ok.text}`).toBe(200);
      const written = writtenOf(ok.body);
      expect(written.last_modified > before.body.last_modified, name).toBe(true);
      expect(ok.headers.get('etag'), name).toMatch(/^".+"$/);
      expect(ok.headers.get('etag'), name).not.toBe(etag);
      const after = await c.json('documents.get', path);
      expect(after.body.last_modified, name).toBe(written.last_modified);
      expect(after.headers.get('etag'), name).toBe(ok.headers.get('etag'));
      const session = await c.json('sessions.get', `${STT}/session/${sid}`);
      expect(must(session.body.result.last_modified, 'last_modified') >= written.last_modified, `${name}: session last_modified`).toBe(true);

      const stale = await write({ 'if-match': etag });
      expect(stale.status, name).toBe(412);
      expect(errorOf(stale), name).toMatchObject({ error: 'precondition_failed', status: 412 });
      const unchanged = await c.json('documents.get', path);
      expect(unchanged.body.last_modified, name).toBe(written.last_modified);
    }
  });

  it('a stale If-Unmodified-Since is 412 too; a wrong kind of body is 422', async () => {
    const first = await c.json('documents.get', `${base()}/${transcriptId}`);
    const old = new Date(Date.parse(first.body.last_modified) - 5000).toUTCString();
    const stale = await c.json('PUT', `${base()}/${transcriptId}`, { filename: 'again' }, { 'if-unmodified-since': old });
    expect(stale.status).toBe(412);
    expect((await c.json('documents.update', `${base()}/${transcriptId}`, { filename: 'x' }, { 'if-unmodified-since': 'yesterday' })).status).toBe(422);
    const wrongKind = await c.json('PUT', `${base()}/${transcriptId}`, { document: originalCaption });
    expect(wrongKind.status).toBe(422);
  });

  it('update stores the edited body, and plain_document_changed as metadata.plain_document_changed', async () => {
    const target = await copyOf(transcriptId, 'plain');
    const doc = structuredClone(originalTranscript);
    transcriptOf(doc).segments[0].words[0].text = 'A';
    const edited = await c.json('documents.update', `${base()}/${target}`, { document: doc, plain_document_changed: 'true' });
    expect(edited.status).toBe(200);
    expect(transcriptOf(edited.body).segments[0].words[0].text).toBe('A');
    expect(bodyOf(edited.body).metadata.plain_document_changed).toBe(true);
    const read = await c.json('documents.get', `${base()}/${target}`);
    expect(bodyOf(read.body).metadata.plain_document_changed).toBe(true);
    expect(bodyOf(read.body).content).toEqual(doc.content);
    const back = await c.json('documents.update', `${base()}/${target}`, { document: read.body.document, plain_document_changed: 'false' });
    expect(bodyOf(back.body).metadata.plain_document_changed).toBe(false);
    // Without a body the flag describes nothing and leaves the stored one alone.
    const renamed = await c.json('documents.update', `${base()}/${target}`, { filename: 'plain 2', plain_document_changed: 'true' });
    expect(bodyOf(renamed.body).metadata.plain_document_changed).toBe(false);
    expect((await c.json('documents.update', `${base()}/${target}`, { plain_document_changed: 'yes' })).status).toBe(422);
  });

  it('copy has the source\'s content, its own id and name; reset_to_original gives the engine\'s original back', async () => {
    const edited = structuredClone(originalTranscript);
    transcriptOf(edited).segments[1].words = [{ text: 'Changed', start_ms: 3500, end_ms: 6000, confidence: 1 }];
    expect((await c.json('documents.update', `${base()}/${transcriptId}`, { document: edited })).status).toBe(200);
    const src = await c.json('documents.get', `${base()}/${transcriptId}`);
    const copy = await c.json('documents.copy', base(), { source_document_id: transcriptId, new_filename: 'copy' });
    expect(copy.status).toBe(200);
    expect(copy.body.id).not.toBe(transcriptId);
    expect(copy.body).toMatchObject({ filename: 'copy', type: 'document', session_id: sid, language: src.body.language, finished: false });
    expect(copy.body.document).toEqual(src.body.document);
    // The copy carries the engine's original too.
    const copyReset = await c.json('documents.resetToOriginal', `${base()}/${copy.body.id}/reset_to_original`);
    expect(copyReset.body.document).toEqual(originalTranscript);
    const reset = await c.json('documents.resetToOriginal', `${base()}/${transcriptId}/reset_to_original`);
    expect(reset.status).toBe(200);
    expect(reset.body.document).toEqual(originalTranscript);
    expect((await c.json('documents.get', `${base()}/${transcriptId}`)).body.document).toEqual(originalTranscript);
  });

  it('clear_text keeps times; finished_status sets and clears the flag; delete removes', async () => {
    const target = await copyOf(transcriptId, 'to clear');
    const cleared = await c.json('documents.clearText', `${base()}/${target}/clear_text`);
    expect(transcriptOf(cleared.body).segments.every((s) => s.words.length === 0)).toBe(true);
    expect(transcriptOf(cleared.body).segments.map((s) => [s.start_ms, s.end_ms])).toEqual(transcriptOf(originalTranscript).segments.map((s) => [s.start_ms, s.end_ms]));
    expect((await c.json('documents.finishedStatus', `${base()}/${target}/finished_status?status=true`)).body.finished).toBe(true);
    expect((await c.json('documents.get', `${base()}/${target}`)).body.finished).toBe(true);
    expect((await c.json('documents.finishedStatus', `${base()}/${target}/finished_status?status=false`)).body.finished).toBe(false);
    const del = await c.json('documents.delete', `${base()}/${target}`);
    expect(del.body).toEqual({ deleted: true, id: target });
    expect((await c.json('documents.get', `${base()}/${target}`)).status).toBe(404);
  });

  it('merges transcripts in order and summarizes extractively', async () => {
    const second = await copyOf(transcriptId, 'second');
    const merged = await c.json('documents.merge', `${STT}/merge`, { document_ids: [transcriptId, second], output_filename: 'merged' });
    expect(merged.status).toBe(200);
    expect(merged.body.session_id).toBe(sid);
    expect(transcriptOf(merged.body).segments).toHaveLength(8);
    expect(wordsOf(merged.body)).toEqual([...wordsOf(originalTranscript), ...wordsOf(originalTranscript)]);
    const mixed = await c.json('POST', `${STT}/merge`, { document_ids: [transcriptId, captionId], output_filename: 'x' });
    expect(mixed.status).toBe(422);
    const sum = await c.json('documents.summarize', `${base()}/${transcriptId}/export/summarize`);
    expect(sum.status).toBe(200);
    // TextRank picks the sentence sharing most words with the others.
    expect(sum.body.summary).toBe('The dog and the cat are friends in the house.');
    expect(transcriptOf(sum.body.document).summary).toBe(sum.body.summary);
  });
});

describe('caption documents', () => {
  it('merge keeps cues in the given order with their times, and unique ids', async () => {
    const second = await copyOf(captionId, 'captions 2');
    const merged = await c.json('documents.merge', `${STT}/merge`, { document_ids: [second, captionId], output_filename: 'captions merged' });
    expect(merged.status).toBe(200);
    expect(merged.body.type).toBe('caption');
    const cues = captionOf(merged.body).cues;
    const once = captionOf(originalCaption).cues.map((q) => [q.start_ms, q.end_ms, cueText(q)]);
    expect(cues.map((q) => [q.start_ms, q.end_ms, cueText(q)])).toEqual([...once, ...once]);
    expect(new Set(cues.map((q) => q.id)).size).toBe(cues.length);
  });

  it('clear_text empties the lines and keeps every cue\'s times', async () => {
    const target = await copyOf(captionId, 'captions cleared');
    const cleared = await c.json('documents.clearText', `${base()}/${target}/clear_text`);
    expect(cleared.status).toBe(200);
    expect(captionOf(cleared.body).cues.map((q) => [q.start_ms, q.end_ms, q.lines])).toEqual(captionOf(originalCaption).cues.map((q) => [q.start_ms, q.end_ms, []]));
  });

  it('summarize keeps a caption\'s summary in its metadata', async () => {
    const target = await copyOf(captionId, 'captions summarized');
    const sum = await c.json('documents.summarize', `${base()}/${target}/export/summarize`);
    expect(sum.status).toBe(200);
    expect(sum.body.summary).toBe('The dog and the cat are friends in the house.');
    expect(bodyOf(sum.body.document).metadata.summary).toBe(sum.body.summary);
    expect(captionOf(sum.body.document).cues).toEqual(captionOf(originalCaption).cues);
  });

  it('translate makes a new caption document, one cue for one cue, times kept', async () => {
    const es = await c.json('documents.translate', `${base()}/${captionId}/translate`, { target_language: 'ES' });
    expect(es.status, es.text).toBe(200);
    expect(es.body).toMatchObject({ type: 'caption', language: 'es', session_id: sid });
    const cues = captionOf(es.body).cues;
    expect(cues.map((q) => [q.start_ms, q.end_ms])).toEqual(captionOf(originalCaption).cues.map((q) => [q.start_ms, q.end_ms]));
    expect(cueText(cues[0])).toMatch(/perro/i);
    expect(cueText(cues[3])).toMatch(/manzanas/i);
    expect(bodyOf(es.body).metadata.translated_from).toBe(captionId);
  });

  it('every caption export reads back, with common/formats, to the document\'s cues', async () => {
    const want = captionOf(originalCaption).cues.map((q) => ({ start: q.start_ms, end: q.end_ms, text: cueText(q) }));
    for (const format of CAPTION_FORMATS) {
      const res = await fetch(`${svc.url}${base()}/${captionId}/export/${format}`, { headers: c.bearer });
      expect(res.status, format).toBe(200);
      const got = parseCaptions(format, new Uint8Array(await res.arrayBuffer())).cues.map((q) => ({ start: q.start_ms, end: q.end_ms, text: cueText(q) }));
      // EBU STL counts in frames (25 fps here): times come back to the nearest 40 ms.
      const tolerance = format === 'stl' ? 40 : 0;
      expect(got.map((q) => q.text), format).toEqual(want.map((q) => q.text));
      got.forEach((q, i) => {
        expect(Math.abs(q.start - want[i].start), `${format} cue ${i} start`).toBeLessThanOrEqual(tolerance);
        expect(Math.abs(q.end - want[i].end), `${format} cue ${i} end`).toBeLessThanOrEqual(tolerance);
      });
    }
  });

  it('a transcript exported as captions reads back to the transcript\'s words, within its segments\' times', async () => {
    const words = wordsOf(originalTranscript);
    const first = transcriptOf(originalTranscript).segments[0].start_ms;
    const last = must(transcriptOf(originalTranscript).segments.at(-1), 'the last segment').end_ms;
    for (const format of CAPTION_FORMATS) {
      const res = await fetch(`${svc.url}${base()}/${transcriptId}/export/${format}`, { headers: c.bearer });
      const cues = parseCaptions(format, new Uint8Array(await res.arrayBuffer())).cues;
      expect(cues.flatMap((q) => cueText(q).split(' ')), format).toEqual(words);
      expect(cues[0].start_ms, format).toBeGreaterThanOrEqual(first - 40);
      expect(cues.at(-1)!.end_ms, format).toBeLessThanOrEqual(last + 40);
      cues.slice(1).forEach((q, i) => expect(q.start_ms, `${format} cue ${i + 1} order`).toBeGreaterThanOrEqual(cues[i].end_ms));
    }
  });
});

describe('exports and translation', () => {
  it('exports every transcript format', async () => {
    for (const f of ['txt', 'html']) {
      const r = await fetch(`${svc.url}${base()}/${transcriptId}/export/${f}`, { headers: c.bearer });
      expect(r.status, f).toBe(200);
      expect(await r.text(), f).toContain('green apples');
    }
    const docx = Buffer.from(await (await fetch(`${svc.url}${base()}/${transcriptId}/export/docx`, { headers: c.bearer })).arrayBuffer());
    expect(docx.subarray(0, 2).toString()).toBe('PK');
    const pdf = Buffer.from(await (await fetch(`${svc.url}${base()}/${transcriptId}/export/pdf`, { headers: c.bearer })).arrayBuffer());
    const pdfPath = join(dir, 'out.pdf');
    writeFileSync(pdfPath, pdf);
    expect(execFileSync('pdftotext', [pdfPath, '-']).toString()).toContain('green apples');
    expect((await fetch(`${svc.url}${base()}/${transcriptId}/export/xyz`, { headers: c.bearer })).status).toBe(404);
  });

  it('translates with apertium where the pair is installed, else 501 naming what to install', async () => {
    const es = await c.json('documents.translate', `${base()}/${transcriptId}/translate`, { target_language: 'ES' });
    expect(es.status, es.text + svc.stderr().slice(-1500)).toBe(200);
    expect(es.body.language).toBe('es');
    const text = transcriptOf(es.body).segments.map((s) => s.words.map((w) => w.text).join(' ')).join(' ');
    expect(text).toMatch(/perro/);
    expect(text).toMatch(/manzanas/);
    expect(transcriptOf(es.body).segments[1].start_ms).toBe(3500);
    const ja = await c.json('POST', `${base()}/${transcriptId}/translate`, { target_language: 'JA' });
    expect(ja.status).toBe(501);
    expect(codedError(ja).message).toMatch(/install/);
  });
});

/** A request without Bearer, as a magic-link recipient makes it. */
function fetchJson<K extends RouteId>(route: K, path: string, body?: unknown, headers?: Record<string, string>): Promise<RouteAnswer<K>>;
function fetchJson(method: HttpMethod, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
function fetchJson(target: Target, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return requestJson(svc.url, target, path, body, headers);
}

/** The four magic-link routes with one token: session read, document read, edit, export. */
function sharedCalls(session: string, documentId: string, token: string) {
  const doc = `${base(session)}/${documentId}`;
  return {
    session: () => fetchJson('sessions.shared', `${STT}/session/${session}/shared?token=${token}`),
    read: () => fetchJson('shared.document', `${doc}/shared?token=${token}`),
    edit: () => fetchJson('shared.update', `${doc}/shared?token=${token}`, { filename: 'edited by link' }),
    export: () => fetchJson('shared.export', `${doc}/shared/export/srt?token=${token}`),
  };
}

async function statuses(calls: ReturnType<typeof sharedCalls>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, call] of Object.entries(calls)) out[name] = (await call()).status;
  return out;
}

describe('magic links', () => {
  it('read without Bearer, rights honoured, bad token 401', async () => {
    const share = await c.json('documents.share', `${base()}/${captionId}/share`, { allow_editing: false, allow_export: true });
    expect(share.status).toBe(200);
    expect(share.body.url).toContain('/captions/shared/');
    const t = share.body.token;
    expect((await fetchJson('GET', `${base()}/${captionId}/shared?token=${t}`)).status).toBe(200);
    expect((await fetchJson('sessions.shared', `${STT}/session/${sid}/shared?token=${t}`)).body.result.allow_magic_link_export).toBe(true);
    expect((await fetchJson('PUT', `${base()}/${captionId}/shared?token=${t}`, { filename: 'x' })).status).toBe(403);
    expect((await fetchJson('GET', `${base()}/${captionId}/shared/export/vtt?token=${t}`)).body).toMatch(/^WEBVTT/);
    expect((await fetchJson('GET', `${base()}/${captionId}/shared?token=nope`)).status).toBe(401);
    expect((await fetchJson('GET', `${base()}/${transcriptId}/shared?token=${t}`)).status).toBe(401);
    expect((await fetchJson('GET', `${STT}/session/${sid}/shared?token=bad`)).status).toBe(401);

    const editable = await c.json('documents.share', `${base()}/${transcriptId}/share`, { allow_editing: true, allow_export: false });
    const ok = await fetchJson('shared.update', `${base()}/${transcriptId}/shared?token=${editable.body.token}`, { filename: 'by link' });
    expect(ok.body.filename).toBe('by link');
    expect((await fetchJson('GET', `${base()}/${transcriptId}/shared/export/txt?token=${editable.body.token}`)).status).toBe(403);
  });

  it('a revoked link gets 401 on every shared route; revoking again answers the same; the session stops offering export', async () => {
    const fresh = await uploadSrt(c, SRT, 'revoke.srt');
    const share = await c.json('documents.share', `${base(fresh.sid)}/${fresh.captionId}/share`, { allow_editing: true, allow_export: true });
    const calls = sharedCalls(fresh.sid, fresh.captionId, share.body.token);
    expect(await statuses(calls)).toEqual({ session: 200, read: 200, edit: 200, export: 200 });
    expect((await calls.session()).body.result.allow_magic_link_export).toBe(true);

    const revokePath = `${base(fresh.sid)}/${fresh.captionId}/share/${share.body.token}`;
    expect((await other.json('DELETE', revokePath)).status).toBe(404);
    expect((await fetchJson('DELETE', revokePath)).status).toBe(401);
    expect((await c.json('documents.shareRevoke', `${base(fresh.sid)}/${fresh.transcriptId}/share/${share.body.token}`)).status).toBe(404);
    expect((await c.json('documents.shareRevoke', `${base(fresh.sid)}/${fresh.captionId}/share/not-a-token`)).status).toBe(404);
    expect(await statuses(calls)).toEqual({ session: 200, read: 200, edit: 200, export: 200 });

    const revoked = await c.json('documents.shareRevoke', revokePath);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ revoked: true, document_id: fresh.captionId, revoked_at: expect.any(String) });
    expect(await statuses(calls)).toEqual({ session: 401, read: 401, edit: 401, export: 401 });
    const again = await c.json('documents.shareRevoke', revokePath);
    expect(again.body).toEqual(revoked.body);
    const session = await c.json('sessions.get', `${STT}/session/${fresh.sid}`);
    expect(session.body.result.allow_magic_link_export).toBe(false);

    // The database holds the revocation, and only a hash of the token.
    const db = openDb();
    const rows = db.prepare('SELECT * FROM share_links WHERE document_id = ?').all(fresh.captionId) as { revoked_at: string | null }[];
    db.close();
    expect(rows).toHaveLength(1);
    expect(rows[0].revoked_at).toBe(revoked.body.revoked_at);
    expect(JSON.stringify(rows)).not.toContain(share.body.token);
  });

  it('an expired link gets 401 on every shared route', async () => {
    const target = await copyOf(captionId, 'expiring');
    const share = await c.json('documents.share', `${base()}/${target}/share`, { allow_editing: true, allow_export: true });
    const calls = sharedCalls(sid, target, share.body.token);
    expect(await statuses(calls)).toEqual({ session: 200, read: 200, edit: 200, export: 200 });
    const db = openDb();
    expect(db.prepare('UPDATE share_links SET expires = ? WHERE document_id = ?').run(new Date(Date.now() - 1000).toISOString(), target).changes).toBe(1);
    db.close();
    expect(await statuses(calls)).toEqual({ session: 401, read: 401, edit: 401, export: 401 });
  });

  it('share by email without a mail server writes an RFC 5322 draft into the mail spool, and says it was not sent', async () => {
    const r = await c.json('documents.shareEmail', `${base()}/${transcriptId}/share/email`, { email: 'friend@example.org', message: 'Have a look.' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ sent: false, delivery: 'draft' });
    const spool = join(svc.dataDir, 'mail-spool');
    const files = readdirSync(spool).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const raw = readFileSync(join(spool, files[0]), 'utf8');
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^To: friend@example\.org$/m);
    expect(head).toMatch(/^From: .*<no-reply@s2t\.localhost>$/m);
    expect(head).toMatch(/^Subject: Shared transcript: /m);
    expect(head).toMatch(/^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/m);
    expect(head).toContain(`Message-ID: ${r.body.message_id}`);
    expect(head).toMatch(/^MIME-Version: 1\.0$/m);
    expect(body.replace(/=\r\n/g, '')).toContain('/transcripts/shared/');
    expect(body).toContain('Have a look.');
  });
});

describe('another organization', () => {
  it('gets 404 from every session, job and document route on this organization\'s data, and changes nothing', async () => {
    const fileId = await uploadedFileId(c, SRT, 'not-yours.srt');
    const share = await c.json('documents.share', `${base()}/${captionId}/share`, { allow_editing: false, allow_export: false });
    const before = await c.json('documents.get', `${base()}/${transcriptId}`);
    const documentsBefore = (await c.json('documents.list', base())).body.total_results;
    const key = { 'x-svc-s2t-key': other.batchKey };
    const doc = `${base()}/${transcriptId}`;
    const align = new FormData();
    align.append('media', new Blob([new Uint8Array(64)]), 'a.wav');
    align.append('transcript', 'hello');
    const raw = (method: string, path: string, init: RequestInit) => fetch(`${svc.url}${path}`, { method, ...init }).then(async (r) => ({ status: r.status, text: await r.text() }));

    const attempts: [string, () => Promise<{ status: number; text: string }>][] = [
      ['legacy PUT', () => raw('PUT', `${STT}/session/${sid}`, { headers: { ...key, 'x-filename': 'a.wav', 'content-type': 'audio/wav' }, body: new Uint8Array(64) })],
      ['legacy align', () => raw('POST', `${STT}/session/${sid}/align`, { headers: key, body: align })],
      ['legacy result', () => raw('GET', `${STT}/session/${sid}/result`, { headers: key })],
      ['legacy DELETE', () => raw('DELETE', `${STT}/session/${sid}`, { headers: key })],
      ['session', () => other.json('GET', `${STT}/session/${sid}`)],
      ['session documents', () => other.json('GET', base())],
      ['job', () => other.json('GET', `/api/v3/batch/jobs/${jobId}`)],
      ['job result', () => other.json('GET', `/api/v3/batch/jobs/${jobId}/result`)],
      ['job cancel', () => other.json('POST', `/api/v3/batch/jobs/${jobId}/cancel`)],
      ['transcribe another organization\'s file', () => other.json('POST', '/api/v3/batch/transcribe', { file_id: fileId, language: 'en', session_mode: 'upload' })],
      ['document get', () => other.json('GET', doc)],
      ['direct_download', () => other.json('GET', `${doc}?direct_download=true`)],
      ['update', () => other.json('PUT', doc, { filename: 'mine' })],
      ['delete', () => other.json('DELETE', doc)],
      ['copy', () => other.json('POST', base(), { source_document_id: transcriptId, new_filename: 'mine' })],
      ['merge', () => other.json('POST', `${STT}/merge`, { document_ids: [transcriptId, transcriptId], output_filename: 'mine' })],
      ['summarize', () => other.json('POST', `${doc}/export/summarize`)],
      ['reset_to_original', () => other.json('PUT', `${doc}/reset_to_original`)],
      ['clear_text', () => other.json('PUT', `${doc}/clear_text`)],
      ['finished_status', () => other.json('POST', `${doc}/finished_status?status=true`)],
      ['share', () => other.json('POST', `${doc}/share`, { allow_editing: true, allow_export: true })],
      ['share revoke', () => other.json('DELETE', `${base()}/${captionId}/share/${share.body.token}`)],
      ['share by email', () => other.json('POST', `${doc}/share/email`, { email: 'x@example.org', message: 'mine' })],
      ['export', () => other.json('GET', `${doc}/export/srt`)],
      ['translate', () => other.json('POST', `${doc}/translate`, { target_language: 'ES' })],
    ];
    for (const [name, attempt] of attempts) {
      const res = await attempt();
      expect(res.status, `${name}: ${res.text.slice(0, 200)}`).toBe(404);
    }
    // A merge that mixes the caller's own document with ours is refused the same way.
    const own = await uploadSrt(other, SRT, 'own.srt');
    expect((await other.json('documents.merge', `${STT}/merge`, { document_ids: [own.transcriptId, transcriptId], output_filename: 'mine' })).status).toBe(404);

    const after = await c.json('documents.get', `${base()}/${transcriptId}`);
    expect(after.body).toEqual(before.body);
    expect((await c.json('sessions.get', `${STT}/session/${sid}`)).body.result.filename).toBe('friends.srt');
    expect((await c.json('documents.list', base())).body.total_results).toBe(documentsBefore);
    expect((await fetchJson('GET', `${base()}/${captionId}/shared?token=${share.body.token}`)).status).toBe(200);
    expect((await c.json('batch.job', `/api/v3/batch/jobs/${jobId}`)).body.status).toBe('completed');
  });
});
