/**
 * Heavy document work may not hold the service's one event loop, over real HTTP: while it runs, a
 * second client asks the health address every 100 ms and every answer comes within a second.
 * - summarize: 8,000 short segments (TextRank built an n x n matrix on the loop: 62 s);
 * - a magic link with edit and export: 15 MB put through the shared route, then three PDF exports
 *   at once (each rendered on the loop for seconds); now one renders, the others are told to wait;
 * - merge: the same 8.5 MB document named 20 times (15-27 s and 170 MB stored) is refused, and so
 *   is a merge larger than a document can be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
