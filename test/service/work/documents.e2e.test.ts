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
import { CAPTION_FORMATS } from '../../../common/api';
import { parseCaptions } from '../../../common/formats';
import { startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { client, jobDone, otherOrganization, requestJson, uploadedFileId, type Client, type Json } from './helpers';

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
let originalTranscript: Json;
let originalCaption: Json;
const base = (session = sid) => `${STT}/session/${session}/document`;

interface Uploaded {
  sid: string;
  jobId: string;
  transcriptId: string;
  captionId: string;
}

/** Stores an SRT file as a new session in upload mode; the service makes a transcript and a caption document of it. */
async function uploadSrt(cl: Client, srt = SRT, name = 'friends.srt'): Promise<Uploaded> {
  const job = await cl.json('POST', '/api/v3/batch/transcribe', { file_id: await uploadedFileId(cl, srt, name), language: 'en', session_mode: 'upload' });
  const done = await jobDone(cl, job.body.job_id);
  expect(done.status).toBe('completed');
  const list = await cl.json('GET', `${STT}/session/${done.metadata.session_id}/document`);
  return {
    sid: done.metadata.session_id,
    jobId: job.body.job_id,
    transcriptId: list.body.result.find((d: Json) => d.type === 'document').id,
    captionId: list.body.result.find((d: Json) => d.type === 'caption').id,
  };
}

const copyOf = async (documentId: string, name: string): Promise<string> => {
  const r = await c.json('POST', base(), { source_document_id: documentId, new_filename: name });
  expect(r.status).toBe(200);
  return r.body.id;
};

const cueText = (cue: { lines: string[] }) => cue.lines.join(' ').replace(/\s+/g, ' ').trim();
const wordsOf = (doc: Json): string[] => doc.document.content.segments.flatMap((s: Json) => s.words.map((w: Json) => w.text));

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
  originalTranscript = (await c.json('GET', `${base()}/${transcriptId}`)).body.document;
  originalCaption = (await c.json('GET', `${base()}/${captionId}`)).body.document;
  other = await otherOrganization(svc, 'other-org@example.com', 'other-org-password');
}, 90_000);

afterAll(() => stopAndRemove(svc, dir));

describe('reading', () => {
  it('lists a session\'s documents, with content on request', async () => {
    const bare = await c.json('GET', base());
    expect(bare.body).toMatchObject({ count: 2, total_results: 2 });
    expect(bare.body.result[0].document).toBeUndefined();
    const full = await c.json('GET', `${base()}?include_content=true&limit=1`);
    expect(full.body).toMatchObject({ count: 1, total_results: 2 });
    expect(full.body.result[0].document.content).toBeDefined();
  });

  it('the upload made the SRT\'s cues and a transcript of the same words', () => {
    expect(originalCaption.content.cues.map((q: Json) => [q.start_ms, q.end_ms, cueText(q)])).toEqual([
      [1000, 3000, 'The dog is lazy.'],
      [3500, 6000, 'The cat sleeps in the sun all day.'],
      [6500, 9000, 'The dog and the cat are friends in the house.'],
      [9500, 12000, 'I like green apples.'],
    ]);
    expect(originalTranscript.content.segments.map((s: Json) => s.words.map((w: Json) => w.text).join(' '))).toEqual(originalCaption.content.cues.map(cueText));
  });

  it('direct_download gives a signed URL valid 300 s; a forged one is 403', async () => {
    const r = await c.json('GET', `${base()}/${transcriptId}?direct_download=true`);
    expect(r.body.document).toBeUndefined();
    expect(r.body.expires_in).toBe(300);
    const got = (await (await fetch(r.body.download_url)).json()) as Json;
    expect(got.id).toBe(transcriptId);
    expect(got.document.content.kind).toBe('transcript');
    const forged = await fetch(r.body.download_url.replace(/.$/, (ch: string) => (ch === 'A' ? 'B' : 'A')));
    expect(forged.status).toBe(403);
  });

  it('a direct_download URL stops working when its TTL has passed (TTL shortened with S2T_DOWNLOAD_TTL_SECONDS)', async () => {
    const short = await startService({ env: { S2T_DOWNLOAD_TTL_SECONDS: '2' } });
    try {
      const sc = await client(short.url);
      const up = await uploadSrt(sc);
      const r = await sc.json('GET', `${STT}/session/${up.sid}/document/${up.captionId}?direct_download=true`);
      expect(r.body.expires_in).toBe(2);
      // Signed with exp = floor(now) + 2, so it is valid for at least one more second.
      expect((await fetch(r.body.download_url)).status).toBe(200);
      await new Promise((res) => setTimeout(res, 3200));
      const late = await fetch(r.body.download_url);
      expect(late.status).toBe(403);
      expect(((await late.json()) as Json).error).toBe('forbidden');
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
    const link = (await c.json('POST', `${base()}/${target}/share`, { allow_editing: true, allow_export: false })).body.token;
    const path = `${base()}/${target}`;
    // Summarize comes before clear_text (a summary of no words says nothing) and reset restores the words.
    const writes: [string, (h: Record<string, string>) => ReturnType<Client['json']>, (body: Json) => Json][] = [
      ['update', (h) => c.json('PUT', path, { filename: 'conflicts 2' }, h), (b) => b],
      ['summarize', (h) => c.json('POST', `${path}/export/summarize`, undefined, h), (b) => b.document],
      ['finished_status', (h) => c.json('POST', `${path}/finished_status?status=true`, undefined, h), (b) => b],
      ['clear_text', (h) => c.json('PUT', `${path}/clear_text`, undefined, h), (b) => b],
      ['reset_to_original', (h) => c.json('PUT', `${path}/reset_to_original`, undefined, h), (b) => b],
      ['shared PUT', (h) => fetchJson('PUT', `${path}/shared?token=${link}`, { filename: 'by link' }, h), (b) => b],
    ];
    for (const [name, write, docOf] of writes) {
      const before = await c.json('GET', path);
      const etag = before.headers.get('etag')!;
      const ok = await write({ 'if-match': etag });
      expect(ok.status, `${name}: ${JSON.stringify(ok.body)}`).toBe(200);
      const written = docOf(ok.body);
      expect(written.last_modified > before.body.last_modified, name).toBe(true);
      expect(ok.headers.get('etag'), name).toMatch(/^".+"$/);
      expect(ok.headers.get('etag'), name).not.toBe(etag);
      const after = await c.json('GET', path);
      expect(after.body.last_modified, name).toBe(written.last_modified);
      expect(after.headers.get('etag'), name).toBe(ok.headers.get('etag'));
      const session = await c.json('GET', `${STT}/session/${sid}`);
      expect(session.body.result.last_modified >= written.last_modified, `${name}: session last_modified`).toBe(true);

      const stale = await write({ 'if-match': etag });
      expect(stale.status, name).toBe(412);
      expect(stale.body, name).toMatchObject({ error: 'precondition_failed', status: 412 });
      const unchanged = await c.json('GET', path);
      expect(unchanged.body.last_modified, name).toBe(written.last_modified);
    }
  });

  it('a stale If-Unmodified-Since is 412 too; a wrong kind of body is 422', async () => {
    const first = await c.json('GET', `${base()}/${transcriptId}`);
    const old = new Date(Date.parse(first.body.last_modified) - 5000).toUTCString();
    const stale = await c.json('PUT', `${base()}/${transcriptId}`, { filename: 'again' }, { 'if-unmodified-since': old });
    expect(stale.status).toBe(412);
    expect((await c.json('PUT', `${base()}/${transcriptId}`, { filename: 'x' }, { 'if-unmodified-since': 'yesterday' })).status).toBe(422);
    const wrongKind = await c.json('PUT', `${base()}/${transcriptId}`, { document: originalCaption });
    expect(wrongKind.status).toBe(422);
  });

  it('update stores the edited body, and plain_document_changed as metadata.plain_document_changed', async () => {
    const target = await copyOf(transcriptId, 'plain');
    const doc = structuredClone(originalTranscript);
    doc.content.segments[0].words[0].text = 'A';
    const edited = await c.json('PUT', `${base()}/${target}`, { document: doc, plain_document_changed: 'true' });
    expect(edited.status).toBe(200);
    expect(edited.body.document.content.segments[0].words[0].text).toBe('A');
    expect(edited.body.document.metadata.plain_document_changed).toBe(true);
    const read = await c.json('GET', `${base()}/${target}`);
    expect(read.body.document.metadata.plain_document_changed).toBe(true);
    expect(read.body.document.content).toEqual(doc.content);
    const back = await c.json('PUT', `${base()}/${target}`, { document: read.body.document, plain_document_changed: 'false' });
    expect(back.body.document.metadata.plain_document_changed).toBe(false);
    // Without a body the flag describes nothing and leaves the stored one alone.
    const renamed = await c.json('PUT', `${base()}/${target}`, { filename: 'plain 2', plain_document_changed: 'true' });
    expect(renamed.body.document.metadata.plain_document_changed).toBe(false);
    expect((await c.json('PUT', `${base()}/${target}`, { plain_document_changed: 'yes' })).status).toBe(422);
  });

  it('copy has the source\'s content, its own id and name; reset_to_original gives the engine\'s original back', async () => {
    const edited = structuredClone(originalTranscript);
    edited.content.segments[1].words = [{ text: 'Changed', start_ms: 3500, end_ms: 6000, confidence: 1 }];
    expect((await c.json('PUT', `${base()}/${transcriptId}`, { document: edited })).status).toBe(200);
    const src = await c.json('GET', `${base()}/${transcriptId}`);
    const copy = await c.json('POST', base(), { source_document_id: transcriptId, new_filename: 'copy' });
    expect(copy.status).toBe(200);
    expect(copy.body.id).not.toBe(transcriptId);
    expect(copy.body).toMatchObject({ filename: 'copy', type: 'document', session_id: sid, language: src.body.language, finished: false });
    expect(copy.body.document).toEqual(src.body.document);
    // The copy carries the engine's original too.
    const copyReset = await c.json('PUT', `${base()}/${copy.body.id}/reset_to_original`);
    expect(copyReset.body.document).toEqual(originalTranscript);
    const reset = await c.json('PUT', `${base()}/${transcriptId}/reset_to_original`);
    expect(reset.status).toBe(200);
    expect(reset.body.document).toEqual(originalTranscript);
    expect((await c.json('GET', `${base()}/${transcriptId}`)).body.document).toEqual(originalTranscript);
  });

  it('clear_text keeps times; finished_status sets and clears the flag; delete removes', async () => {
    const target = await copyOf(transcriptId, 'to clear');
    const cleared = await c.json('PUT', `${base()}/${target}/clear_text`);
    expect(cleared.body.document.content.segments.every((s: Json) => s.words.length === 0)).toBe(true);
    expect(cleared.body.document.content.segments.map((s: Json) => [s.start_ms, s.end_ms])).toEqual(originalTranscript.content.segments.map((s: Json) => [s.start_ms, s.end_ms]));
    expect((await c.json('POST', `${base()}/${target}/finished_status?status=true`)).body.finished).toBe(true);
    expect((await c.json('GET', `${base()}/${target}`)).body.finished).toBe(true);
    expect((await c.json('POST', `${base()}/${target}/finished_status?status=false`)).body.finished).toBe(false);
    const del = await c.json('DELETE', `${base()}/${target}`);
    expect(del.body).toEqual({ deleted: true, id: target });
    expect((await c.json('GET', `${base()}/${target}`)).status).toBe(404);
  });

  it('merges transcripts in order and summarizes extractively', async () => {
    const second = await copyOf(transcriptId, 'second');
    const merged = await c.json('POST', `${STT}/merge`, { document_ids: [transcriptId, second], output_filename: 'merged' });
    expect(merged.status).toBe(200);
    expect(merged.body.session_id).toBe(sid);
    expect(merged.body.document.content.segments).toHaveLength(8);
    expect(wordsOf(merged.body)).toEqual([...wordsOf({ document: originalTranscript }), ...wordsOf({ document: originalTranscript })]);
    const mixed = await c.json('POST', `${STT}/merge`, { document_ids: [transcriptId, captionId], output_filename: 'x' });
    expect(mixed.status).toBe(422);
    const sum = await c.json('POST', `${base()}/${transcriptId}/export/summarize`);
    expect(sum.status).toBe(200);
    // TextRank picks the sentence sharing most words with the others.
    expect(sum.body.summary).toBe('The dog and the cat are friends in the house.');
    expect(sum.body.document.document.content.summary).toBe(sum.body.summary);
  });
});

describe('caption documents', () => {
  it('merge keeps cues in the given order with their times, and unique ids', async () => {
    const second = await copyOf(captionId, 'captions 2');
    const merged = await c.json('POST', `${STT}/merge`, { document_ids: [second, captionId], output_filename: 'captions merged' });
    expect(merged.status).toBe(200);
    expect(merged.body.type).toBe('caption');
    const cues = merged.body.document.content.cues;
    const once = originalCaption.content.cues.map((q: Json) => [q.start_ms, q.end_ms, cueText(q)]);
    expect(cues.map((q: Json) => [q.start_ms, q.end_ms, cueText(q)])).toEqual([...once, ...once]);
    expect(new Set(cues.map((q: Json) => q.id)).size).toBe(cues.length);
  });

  it('clear_text empties the lines and keeps every cue\'s times', async () => {
    const target = await copyOf(captionId, 'captions cleared');
    const cleared = await c.json('PUT', `${base()}/${target}/clear_text`);
    expect(cleared.status).toBe(200);
    expect(cleared.body.document.content.cues.map((q: Json) => [q.start_ms, q.end_ms, q.lines])).toEqual(originalCaption.content.cues.map((q: Json) => [q.start_ms, q.end_ms, []]));
  });

  it('summarize keeps a caption\'s summary in its metadata', async () => {
    const target = await copyOf(captionId, 'captions summarized');
    const sum = await c.json('POST', `${base()}/${target}/export/summarize`);
    expect(sum.status).toBe(200);
    expect(sum.body.summary).toBe('The dog and the cat are friends in the house.');
    expect(sum.body.document.document.metadata.summary).toBe(sum.body.summary);
    expect(sum.body.document.document.content.cues).toEqual(originalCaption.content.cues);
  });

  it('translate makes a new caption document, one cue for one cue, times kept', async () => {
    const es = await c.json('POST', `${base()}/${captionId}/translate`, { target_language: 'ES' });
    expect(es.status, JSON.stringify(es.body)).toBe(200);
    expect(es.body).toMatchObject({ type: 'caption', language: 'es', session_id: sid });
    const cues = es.body.document.content.cues;
    expect(cues.map((q: Json) => [q.start_ms, q.end_ms])).toEqual(originalCaption.content.cues.map((q: Json) => [q.start_ms, q.end_ms]));
    expect(cueText(cues[0])).toMatch(/perro/i);
    expect(cueText(cues[3])).toMatch(/manzanas/i);
    expect(es.body.document.metadata.translated_from).toBe(captionId);
  });

  it('every caption export reads back, with common/formats, to the document\'s cues', async () => {
    const want = originalCaption.content.cues.map((q: Json) => ({ start: q.start_ms, end: q.end_ms, text: cueText(q) }));
    for (const format of CAPTION_FORMATS) {
      const res = await fetch(`${svc.url}${base()}/${captionId}/export/${format}`, { headers: c.bearer });
      expect(res.status, format).toBe(200);
      const got = parseCaptions(format, new Uint8Array(await res.arrayBuffer())).cues.map((q) => ({ start: q.start_ms, end: q.end_ms, text: cueText(q) }));
      // EBU STL counts in frames (25 fps here): times come back to the nearest 40 ms.
      const tolerance = format === 'stl' ? 40 : 0;
      expect(got.map((q) => q.text), format).toEqual(want.map((q: Json) => q.text));
      got.forEach((q, i) => {
        expect(Math.abs(q.start - want[i].start), `${format} cue ${i} start`).toBeLessThanOrEqual(tolerance);
        expect(Math.abs(q.end - want[i].end), `${format} cue ${i} end`).toBeLessThanOrEqual(tolerance);
      });
    }
  });

  it('a transcript exported as captions reads back to the transcript\'s words, within its segments\' times', async () => {
    const words = wordsOf({ document: originalTranscript });
    const first = originalTranscript.content.segments[0].start_ms;
    const last = originalTranscript.content.segments.at(-1).end_ms;
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
    const es = await c.json('POST', `${base()}/${transcriptId}/translate`, { target_language: 'ES' });
    expect(es.status, JSON.stringify(es.body) + svc.stderr().slice(-1500)).toBe(200);
    expect(es.body.language).toBe('es');
    const text = es.body.document.content.segments.map((s: Json) => s.words.map((w: Json) => w.text).join(' ')).join(' ');
    expect(text).toMatch(/perro/);
    expect(text).toMatch(/manzanas/);
    expect(es.body.document.content.segments[1].start_ms).toBe(3500);
    const ja = await c.json('POST', `${base()}/${transcriptId}/translate`, { target_language: 'JA' });
    expect(ja.status).toBe(501);
    expect(ja.body.error.message).toMatch(/install/);
  });
});

/** A request without Bearer, as a magic-link recipient makes it. */
function fetchJson(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return requestJson(svc.url, method, path, body, headers);
}

/** The four magic-link routes with one token: session read, document read, edit, export. */
function sharedCalls(session: string, documentId: string, token: string) {
  const doc = `${base(session)}/${documentId}`;
  return {
    session: () => fetchJson('GET', `${STT}/session/${session}/shared?token=${token}`),
    read: () => fetchJson('GET', `${doc}/shared?token=${token}`),
    edit: () => fetchJson('PUT', `${doc}/shared?token=${token}`, { filename: 'edited by link' }),
    export: () => fetchJson('GET', `${doc}/shared/export/srt?token=${token}`),
  };
}

async function statuses(calls: ReturnType<typeof sharedCalls>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, call] of Object.entries(calls)) out[name] = (await call()).status;
  return out;
}

describe('magic links', () => {
  it('read without Bearer, rights honoured, bad token 401', async () => {
    const share = await c.json('POST', `${base()}/${captionId}/share`, { allow_editing: false, allow_export: true });
    expect(share.status).toBe(200);
    expect(share.body.url).toContain('/captions/shared/');
    const t = share.body.token;
    expect((await fetchJson('GET', `${base()}/${captionId}/shared?token=${t}`)).status).toBe(200);
    expect((await fetchJson('GET', `${STT}/session/${sid}/shared?token=${t}`)).body.result.allow_magic_link_export).toBe(true);
    expect((await fetchJson('PUT', `${base()}/${captionId}/shared?token=${t}`, { filename: 'x' })).status).toBe(403);
    expect((await fetchJson('GET', `${base()}/${captionId}/shared/export/vtt?token=${t}`)).body).toMatch(/^WEBVTT/);
    expect((await fetchJson('GET', `${base()}/${captionId}/shared?token=nope`)).status).toBe(401);
    expect((await fetchJson('GET', `${base()}/${transcriptId}/shared?token=${t}`)).status).toBe(401);
    expect((await fetchJson('GET', `${STT}/session/${sid}/shared?token=bad`)).status).toBe(401);

    const editable = await c.json('POST', `${base()}/${transcriptId}/share`, { allow_editing: true, allow_export: false });
    const ok = await fetchJson('PUT', `${base()}/${transcriptId}/shared?token=${editable.body.token}`, { filename: 'by link' });
    expect(ok.body.filename).toBe('by link');
    expect((await fetchJson('GET', `${base()}/${transcriptId}/shared/export/txt?token=${editable.body.token}`)).status).toBe(403);
  });

  it('a revoked link gets 401 on every shared route; revoking again answers the same; the session stops offering export', async () => {
    const fresh = await uploadSrt(c, SRT, 'revoke.srt');
    const share = await c.json('POST', `${base(fresh.sid)}/${fresh.captionId}/share`, { allow_editing: true, allow_export: true });
    const calls = sharedCalls(fresh.sid, fresh.captionId, share.body.token);
    expect(await statuses(calls)).toEqual({ session: 200, read: 200, edit: 200, export: 200 });
    expect((await calls.session()).body.result.allow_magic_link_export).toBe(true);

    const revokePath = `${base(fresh.sid)}/${fresh.captionId}/share/${share.body.token}`;
    expect((await other.json('DELETE', revokePath)).status).toBe(404);
    expect((await fetchJson('DELETE', revokePath)).status).toBe(401);
    expect((await c.json('DELETE', `${base(fresh.sid)}/${fresh.transcriptId}/share/${share.body.token}`)).status).toBe(404);
    expect((await c.json('DELETE', `${base(fresh.sid)}/${fresh.captionId}/share/not-a-token`)).status).toBe(404);
    expect(await statuses(calls)).toEqual({ session: 200, read: 200, edit: 200, export: 200 });

    const revoked = await c.json('DELETE', revokePath);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ revoked: true, document_id: fresh.captionId, revoked_at: expect.any(String) });
    expect(await statuses(calls)).toEqual({ session: 401, read: 401, edit: 401, export: 401 });
    const again = await c.json('DELETE', revokePath);
    expect(again.body).toEqual(revoked.body);
    const session = await c.json('GET', `${STT}/session/${fresh.sid}`);
    expect(session.body.result.allow_magic_link_export).toBe(false);

    // The database holds the revocation, and only a hash of the token.
    const db = openDb();
    const rows = db.prepare('SELECT * FROM share_links WHERE document_id = ?').all(fresh.captionId) as Json[];
    db.close();
    expect(rows).toHaveLength(1);
    expect(rows[0].revoked_at).toBe(revoked.body.revoked_at);
    expect(JSON.stringify(rows)).not.toContain(share.body.token);
  });

  it('an expired link gets 401 on every shared route', async () => {
    const target = await copyOf(captionId, 'expiring');
    const share = await c.json('POST', `${base()}/${target}/share`, { allow_editing: true, allow_export: true });
    const calls = sharedCalls(sid, target, share.body.token);
    expect(await statuses(calls)).toEqual({ session: 200, read: 200, edit: 200, export: 200 });
    const db = openDb();
    expect(db.prepare('UPDATE share_links SET expires = ? WHERE document_id = ?').run(new Date(Date.now() - 1000).toISOString(), target).changes).toBe(1);
    db.close();
    expect(await statuses(calls)).toEqual({ session: 401, read: 401, edit: 401, export: 401 });
  });

  it('share by email writes an RFC 5322 message into the mail spool', async () => {
    const r = await c.json('POST', `${base()}/${transcriptId}/share/email`, { email: 'friend@example.org', message: 'Have a look.' });
    expect(r.status).toBe(200);
    expect(r.body.sent).toBe(true);
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
    const share = await c.json('POST', `${base()}/${captionId}/share`, { allow_editing: false, allow_export: false });
    const before = await c.json('GET', `${base()}/${transcriptId}`);
    const documentsBefore = (await c.json('GET', base())).body.total_results;
    const key = { 'x-svc-s2t-key': other.batchKey };
    const doc = `${base()}/${transcriptId}`;
    const align = new FormData();
    align.append('media', new Blob([new Uint8Array(64)]), 'a.wav');
    align.append('transcript', 'hello');
    const raw = (method: string, path: string, init: RequestInit) => fetch(`${svc.url}${path}`, { method, ...init }).then(async (r) => ({ status: r.status, body: await r.text() }));

    const attempts: [string, () => Promise<{ status: number; body: unknown }>][] = [
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
      expect(res.status, `${name}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(404);
    }
    // A merge that mixes the caller's own document with ours is refused the same way.
    const own = await uploadSrt(other, SRT, 'own.srt');
    expect((await other.json('POST', `${STT}/merge`, { document_ids: [own.transcriptId, transcriptId], output_filename: 'mine' })).status).toBe(404);

    const after = await c.json('GET', `${base()}/${transcriptId}`);
    expect(after.body).toEqual(before.body);
    expect((await c.json('GET', `${STT}/session/${sid}`)).body.result.filename).toBe('friends.srt');
    expect((await c.json('GET', base())).body.total_results).toBe(documentsBefore);
    expect((await fetchJson('GET', `${base()}/${captionId}/shared?token=${share.body.token}`)).status).toBe(200);
    expect((await c.json('GET', `/api/v3/batch/jobs/${jobId}`)).body.status).toBe('completed');
  });
});
