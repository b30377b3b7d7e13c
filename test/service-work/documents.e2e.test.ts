/** Every document operation over real HTTP, on documents stored through upload mode (no engine wait). */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, startService, tempDir, type RunningService } from '../helpers/service';
import { client, jobDone, type Client, type Json } from './helpers';

const SRT = [
  '1\n00:00:01,000 --> 00:00:03,000\nThe dog is lazy.\n',
  '2\n00:00:03,500 --> 00:00:06,000\nThe cat sleeps in the sun all day.\n',
  '3\n00:00:06,500 --> 00:00:09,000\nThe dog and the cat are friends in the house.\n',
  '4\n00:00:09,500 --> 00:00:12,000\nI like green apples.\n',
].join('\n');

let svc: RunningService;
let c: Client;
let dir: string;
let sid: string;
let transcriptId: string;
let captionId: string;
const base = () => `/api/v3/speech-to-text/session/${sid}/document`;

beforeAll(async () => {
  dir = tempDir('s2t-work-docs-');
  svc = await startService();
  c = await client(svc.url);
  const form = new FormData();
  form.append('file', new Blob([SRT]), 'friends.srt');
  const up = (await (await fetch(`${svc.url}/api/v3/batch/upload`, { method: 'POST', headers: c.bearer, body: form })).json()) as Json;
  const job = await c.json('POST', '/api/v3/batch/transcribe', { file_id: up.file_id, language: 'en', session_mode: 'upload' });
  const done = await jobDone(c, job.body.job_id);
  expect(done.status).toBe('completed');
  sid = done.metadata.session_id;
  const list = await c.json('GET', `/api/v3/speech-to-text/session/${sid}/document`);
  transcriptId = list.body.result.find((d: Json) => d.type === 'document').id;
  captionId = list.body.result.find((d: Json) => d.type === 'caption').id;
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  cleanup(dir);
  if (svc) cleanup(svc.dataDir);
});

describe('documents', () => {
  it('lists a session\'s documents, with content on request', async () => {
    const bare = await c.json('GET', base());
    expect(bare.body).toMatchObject({ count: 2, total_results: 2 });
    expect(bare.body.result[0].document).toBeUndefined();
    const full = await c.json('GET', `${base()}?include_content=true&limit=1`);
    expect(full.body).toMatchObject({ count: 1, total_results: 2 });
    expect(full.body.result[0].document.content).toBeDefined();
  });

  it('direct_download gives a signed, expiring URL', async () => {
    const r = await c.json('GET', `${base()}/${transcriptId}?direct_download=true`);
    expect(r.body.document).toBeUndefined();
    expect(r.body.expires_in).toBe(300);
    const got = (await (await fetch(r.body.download_url)).json()) as Json;
    expect(got.id).toBe(transcriptId);
    expect(got.document.content.kind).toBe('transcript');
    const forged = await fetch(r.body.download_url.replace(/.$/, (ch: string) => (ch === 'A' ? 'B' : 'A')));
    expect(forged.status).toBe(403);
  });

  it('update moves last_modified on; a stale If-Match or If-Unmodified-Since gets 412', async () => {
    const first = await c.json('GET', `${base()}/${transcriptId}`);
    const etag = first.headers.get('etag')!;
    const doc = first.body.document;
    doc.content.segments[0].words[0].text = 'A';
    const upd = await c.json('PUT', `${base()}/${transcriptId}`, { filename: 'edited', document: doc, plain_document_changed: 'true' }, { 'if-match': etag });
    expect(upd.status).toBe(200);
    expect(upd.body.filename).toBe('edited');
    expect(upd.body.last_modified > first.body.last_modified).toBe(true);
    expect(upd.body.document.content.segments[0].words[0].text).toBe('A');
    const stale = await c.json('PUT', `${base()}/${transcriptId}`, { filename: 'again' }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ error: 'precondition_failed', status: 412 });
    const old = new Date(Date.parse(first.body.last_modified) - 5000).toUTCString();
    const stale2 = await c.json('PUT', `${base()}/${transcriptId}`, { filename: 'again' }, { 'if-unmodified-since': old });
    expect(stale2.status).toBe(412);
    const wrongKind = await c.json('PUT', `${base()}/${transcriptId}`, { document: (await c.json('GET', `${base()}/${captionId}`)).body.document });
    expect(wrongKind.status).toBe(422);
    const again = await c.json('PUT', `${base()}/${transcriptId}`, { filename: 'again' }, { 'if-match': upd.headers.get('etag')! });
    expect(again.status).toBe(200);
  });

  it('reset_to_original restores the engine original; clear_text keeps times; finished_status sets the flag', async () => {
    const reset = await c.json('PUT', `${base()}/${transcriptId}/reset_to_original`);
    expect(reset.body.document.content.segments[0].words[0].text).toBe('The');
    const copy = await c.json('POST', base(), { source_document_id: transcriptId, new_filename: 'copy' });
    expect(copy.status).toBe(200);
    const cleared = await c.json('PUT', `${base()}/${copy.body.id}/clear_text`);
    expect(cleared.body.document.content.segments.every((s: Json) => s.words.length === 0)).toBe(true);
    expect(cleared.body.document.content.segments[1].start_ms).toBe(3500);
    const fin = await c.json('POST', `${base()}/${copy.body.id}/finished_status?status=true`);
    expect(fin.body.finished).toBe(true);
    const unfin = await c.json('POST', `${base()}/${copy.body.id}/finished_status?status=false`);
    expect(unfin.body.finished).toBe(false);
    const del = await c.json('DELETE', `${base()}/${copy.body.id}`);
    expect(del.body).toEqual({ deleted: true, id: copy.body.id });
    expect((await c.json('GET', `${base()}/${copy.body.id}`)).status).toBe(404);
  });

  it('merges documents in order and summarizes extractively', async () => {
    const copy = await c.json('POST', base(), { source_document_id: transcriptId, new_filename: 'second' });
    const merged = await c.json('POST', '/api/v3/speech-to-text/merge', { document_ids: [transcriptId, copy.body.id], output_filename: 'merged' });
    expect(merged.status).toBe(200);
    expect(merged.body.session_id).toBe(sid);
    expect(merged.body.document.content.segments).toHaveLength(8);
    const mixed = await c.json('POST', '/api/v3/speech-to-text/merge', { document_ids: [transcriptId, captionId], output_filename: 'x' });
    expect(mixed.status).toBe(422);
    const sum = await c.json('POST', `${base()}/${transcriptId}/export/summarize`);
    expect(sum.status).toBe(200);
    // TextRank picks the sentence sharing most words with the others.
    expect(sum.body.summary).toBe('The dog and the cat are friends in the house.');
    expect(sum.body.document.document.content.summary).toBe(sum.body.summary);
  });

  it('exports every format', async () => {
    const srt = await fetch(`${svc.url}${base()}/${captionId}/export/srt`, { headers: c.bearer });
    expect(srt.headers.get('content-type')).toMatch(/x-subrip/);
    expect(await srt.text()).toContain('00:00:03,500 --> 00:00:06,000');
    for (const f of ['vtt', 'sbv', 'ttml', 'stl', 'txt', 'html']) {
      const r = await fetch(`${svc.url}${base()}/${transcriptId}/export/${f}`, { headers: c.bearer });
      expect(r.status, f).toBe(200);
      expect((await r.arrayBuffer()).byteLength, f).toBeGreaterThan(20);
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

  it('magic links: read without Bearer, rights honoured, bad token 401', async () => {
    const share = await c.json('POST', `${base()}/${captionId}/share`, { allow_editing: false, allow_export: true });
    expect(share.status).toBe(200);
    expect(share.body.url).toContain('/captions/shared/');
    const t = share.body.token;
    const read = await fetch(`${svc.url}${base()}/${captionId}/shared?token=${t}`);
    expect(read.status).toBe(200);
    const session = await fetch(`${svc.url}/api/v3/speech-to-text/session/${sid}/shared?token=${t}`);
    expect(((await session.json()) as Json).result.allow_magic_link_export).toBe(true);
    const edit = await fetch(`${svc.url}${base()}/${captionId}/shared?token=${t}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filename: 'x' }) });
    expect(edit.status).toBe(403);
    const exp = await fetch(`${svc.url}${base()}/${captionId}/shared/export/vtt?token=${t}`);
    expect(await exp.text()).toMatch(/^WEBVTT/);
    expect((await fetch(`${svc.url}${base()}/${captionId}/shared?token=nope`)).status).toBe(401);
    expect((await fetch(`${svc.url}${base()}/${transcriptId}/shared?token=${t}`)).status).toBe(401);
    expect((await fetch(`${svc.url}/api/v3/speech-to-text/session/${sid}/shared?token=bad`)).status).toBe(401);

    const editable = await c.json('POST', `${base()}/${transcriptId}/share`, { allow_editing: true, allow_export: false });
    const ok = await fetch(`${svc.url}${base()}/${transcriptId}/shared?token=${editable.body.token}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filename: 'by link' }) });
    expect(((await ok.json()) as Json).filename).toBe('by link');
    expect((await fetch(`${svc.url}${base()}/${transcriptId}/shared/export/txt?token=${editable.body.token}`)).status).toBe(403);
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
