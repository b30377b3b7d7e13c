/**
 * Heavy document work may not hold the service's one event loop, over real HTTP: while it runs, a
 * second client asks the health address every 100 ms and every answer comes within a second.
 * - summarize: 8,000 short segments (TextRank built an n x n matrix on the loop: 62 s);
 * - a magic link with edit and export: 15 MB put through the shared route, then three PDF exports
 *   at once (each rendered on the loop for seconds); now one renders, the others are told to wait;
 * - merge: the same 8.5 MB document named 20 times (15-27 s and 170 MB stored) is refused, and so
 *   is a merge larger than a document can be;
 * - a list with content of six 8.5 MB documents (parsed on the loop, all in one page): a page now
 *   ends at its byte budget, and the app's client pages on to the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../main/api/client';
import { TokenAuth } from '../../main/watch/auth';
import { readServiceDb } from '../helpers/service-db';
import { startService, stopAndRemove, type RunningService } from '../helpers/service';
import { codedError } from '../service/answers';
import { client, requestJson, type Client } from '../service/work/helpers';
import { bodyOfSize, docPath, HEALTH_LIMIT_MS, manySegments, STT, uploadedDocument, whileWatched } from './heavy-work';

let svc: RunningService;
let c: Client;

beforeAll(async () => {
  // As it runs for people: under test the service checks its pre-serialized answers against the
  // contract again on the event loop (service/http/handle.ts), which is what this file measures.
  svc = await startService({ env: { NODE_ENV: 'production' } });
  c = await client(svc.url);
}, 60_000);

afterAll(() => stopAndRemove(svc));

describe('heavy document work runs off the event loop', () => {
  it('summarizes 8,000 short segments while the service keeps answering', async () => {
    const doc = await uploadedDocument(c, manySegments(1, 3));
    const body = manySegments(8000, 3);
    expect(JSON.stringify(body).length).toBeGreaterThan(1_000_000);
    const put = await c.json('documents.update', docPath(doc), { document: body });
    expect(put.status, put.text).toBe(200);
    const { result: r, slowestMs } = await whileWatched(svc.url, () => c.json('documents.summarize', `${docPath(doc)}/export/summarize`));
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary.length).toBeGreaterThan(0);
    expect(slowestMs).toBeLessThan(HEALTH_LIMIT_MS);
  }, 120_000);

  it('a magic link renders one export at a time, off the event loop', async () => {
    const doc = await uploadedDocument(c, manySegments(1, 3));
    const link = await c.json('documents.share', `${docPath(doc)}/share`, { allow_editing: true, allow_export: true });
    expect(link.status, link.text).toBe(200);
    const token = encodeURIComponent(link.body.token);
    const big = bodyOfSize(15 * 1024 * 1024);
    const put = await requestJson(svc.url, 'shared.update', `${docPath(doc)}/shared?token=${token}`, { document: big });
    expect(put.status, put.text).toBe(200);
    const pdf = () => fetch(`${svc.url}${docPath(doc)}/shared/export/pdf?token=${token}`).then(async (res) => ({ status: res.status, bytes: Buffer.from(await res.arrayBuffer()) }));
    const { result: answers, slowestMs } = await whileWatched(svc.url, () => Promise.all([pdf(), pdf(), pdf()]));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0].bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const waiting = answers.filter((a) => a.status === 429).map((a) => ({ status: a.status, text: a.bytes.toString('utf8') }));
    expect(waiting).toHaveLength(2);
    expect(codedError(waiting[0]).message).toMatch(/still being made; wait for it/);
    expect(slowestMs).toBeLessThan(HEALTH_LIMIT_MS);
    // Once it is done, the link exports again.
    expect((await pdf()).status).toBe(200);
  }, 180_000);

  it('a merge naming one document twice, or larger than a document can be, is refused at once', async () => {
    const doc = await uploadedDocument(c, manySegments(1, 3));
    const put = await c.json('documents.update', docPath(doc), { document: bodyOfSize(8.5 * 1024 * 1024) });
    expect(put.status, put.text).toBe(200);
    const documentsBefore = readServiceDb(svc.dataDir, (db) => db.prepare('SELECT COUNT(*) FROM documents').pluck().get());
    const { result: twice, slowestMs } = await whileWatched(svc.url, () =>
      c.json('POST', `${STT}/merge`, { document_ids: Array.from({ length: 20 }, () => doc.id), output_filename: 'twenty' }),
    );
    expect(twice.status, twice.text).toBe(422);
    expect(twice.text).toMatch(/named more than once/);
    expect(slowestMs).toBeLessThan(HEALTH_LIMIT_MS);
    // Two distinct copies of 8.5 MB are more than a document can be (16 MB).
    const copy = await c.json('documents.copy', `${STT}/session/${doc.session_id}/document`, { source_document_id: doc.id, new_filename: 'copy' });
    expect(copy.status, copy.text).toBe(200);
    const tooLarge = await c.json('POST', `${STT}/merge`, { document_ids: [doc.id, copy.body.id], output_filename: 'both' });
    expect(tooLarge.status, tooLarge.text).toBe(413);
    expect(codedError(tooLarge).message).toMatch(/The merged document would be \d+\.\d MB; a document can be at most 16\.0 MB/);
    expect(readServiceDb(svc.dataDir, (db) => db.prepare('SELECT COUNT(*) FROM documents').pluck().get())).toBe(Number(documentsBefore) + 1);
    // A merge that fits is made, off the loop.
    const small = await uploadedDocument(c, manySegments(3, 3));
    const { result: merged, slowestMs: mergeSlowest } = await whileWatched(svc.url, () => c.json('documents.merge', `${STT}/merge`, { document_ids: [doc.id, small.id], output_filename: 'merged' }));
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.size_bytes).toBeGreaterThan(8 * 1024 * 1024);
    expect(mergeSlowest).toBeLessThan(HEALTH_LIMIT_MS);
  }, 180_000);

  it('a page of large documents with their content ends at its byte budget, and paging brings the rest', async () => {
    const doc = await uploadedDocument(c, manySegments(1, 3));
    const put = await c.json('documents.update', docPath(doc), { document: bodyOfSize(8.5 * 1024 * 1024) });
    expect(put.status, put.text).toBe(200);
    for (let i = 1; i < 6; i++) {
      const copy = await c.json('documents.copy', `${STT}/session/${doc.session_id}/document`, { source_document_id: doc.id, new_filename: `copy ${i}` });
      expect(copy.status, copy.text).toBe(200);
    }
    // The upload also made its captions: every document of the session is listed.
    const n = (await c.json('documents.list', `${STT}/session/${doc.session_id}/document`)).body.total_results;
    expect(n).toBeGreaterThanOrEqual(6);
    const list = `${STT}/session/${doc.session_id}/document?include_content=true&limit=25`;
    const t0 = performance.now();
    const { result: first, slowestMs } = await whileWatched(svc.url, () => c.json('documents.list', list));
    console.log(`list: ${Math.round(performance.now() - t0)} ms, health slowest ${slowestMs} ms, ${first.text.length} chars`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.total_results).toBe(n);
    // 51 MB of bodies are not one answer: this page holds what its budget allows, at least one.
    expect(first.body.count).toBe(first.body.result.length);
    expect(first.body.count).toBeGreaterThan(0);
    expect(first.body.count).toBeLessThan(n);
    expect(first.body.result.every((d) => d.document !== undefined)).toBe(true);
    expect(slowestMs).toBeLessThan(HEALTH_LIMIT_MS);
    // Without content, one page names them all.
    const heads = await c.json('documents.list', `${STT}/session/${doc.session_id}/document?limit=25`);
    expect(heads.body.count).toBe(n);
    expect(heads.body.result.every((d) => d.document === undefined)).toBe(true);
    expect(heads.body.result.filter((d) => d.size_bytes > 8 * 1024 * 1024)).toHaveLength(6);
    // The app's client goes on from offset + count until it has every document, each with its content.
    const api = new ApiClient({ baseUrl: svc.url, auth: new TokenAuth(c.token).asAuthSource(), retries: 0, timeoutMs: 60_000 });
    const all = [];
    for await (const d of api.items('documents.list', { params: { sessionId: doc.session_id! }, query: { include_content: true } }, { pageSize: 25 })) all.push(d);
    expect(all.map((d) => d.id).sort()).toEqual(heads.body.result.map((d) => d.id).sort());
    expect(all.every((d) => d.document !== undefined && d.document.document_type !== undefined)).toBe(true);
    expect(all.filter((d) => d.document?.content.kind === 'transcript' && d.document.content.segments.length > 1000)).toHaveLength(6);
  }, 180_000);
});
