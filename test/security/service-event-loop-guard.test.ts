/**
 * The guard for the whole class: no request, however large within the service's limits, may hold
 * its one event loop. Every route that takes a JSON or form body gets the largest body the service
 * accepts (16 MB, of the shape that costs most to parse: many small values), and the routes that
 * do heavy work get the largest valid input (a document as large as a document can be, summarized,
 * exported, copied, cleared, reset, merged; 5 MB of align text). All the while a second client (in
 * its own process) asks the health address every 100 ms, and no answer may take a second.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routes, toRouterPath, type RouteId } from '../../common/api';
import { startService, stopAndRemove, type RunningService } from '../helpers/service';
import { speechWav } from '../helpers/speech';
import { client, jobDone, uploadedFileId, type Client } from '../service/work/helpers';
import { readFileSync } from 'node:fs';
import { bodyOfSize, docPath, HEALTH_LIMIT_MS, manySegments, STT, uploadedDocument, watchHealth, type HealthWatch } from './heavy-work';

/** The service's body limit (service/server.ts), less room for the headers of a form. */
const LARGEST_BODY = 16 * 1024 * 1024 - 1024;

let svc: RunningService;
let c: Client;
let watch: HealthWatch | undefined;

beforeAll(async () => {
  // As it runs for people: under test the service checks its pre-serialized answers against the
  // contract again on the event loop (service/http/handle.ts).
  svc = await startService({ env: { NODE_ENV: 'production' } });
  c = await client(svc.url);
}, 60_000);

afterAll(async () => {
  await watch?.stop();
  await stopAndRemove(svc);
});

/** A JSON body of many small objects, just under the limit. */
function junkJson(): string {
  const item = '{"a":1,"b":"x"},';
  return `{"junk":[${item.repeat(Math.floor((LARGEST_BODY - 20) / item.length))}{}]}`;
}

/** A form body of many short fields, just under the limit. */
function junkForm(): string {
  const field = 'username=a&';
  return field.repeat(Math.floor(LARGEST_BODY / field.length)) + 'password=b';
}

it('answers its health check within a second while every body route gets its largest body and every heavy route its largest input', async () => {
  const doc = await uploadedDocument(c, manySegments(1, 3));
  const link = await c.json('documents.share', `${docPath(doc)}/share`, { allow_editing: true, allow_export: true });
  const token = encodeURIComponent(link.body.token);
  const params: Record<string, string> = { sessionId: doc.session_id ?? '', documentId: doc.id, id: '1', token: 'nope' };
  const json = junkJson();
  const form = junkForm();
  const bodyRoutes = (Object.keys(routes) as RouteId[]).filter((id) => routes[id].body.kind === 'json' || routes[id].body.kind === 'form');
  expect(bodyRoutes.length).toBeGreaterThan(10);
  const audio = new Uint8Array(readFileSync(await speechWav('hello from the guard of the event loop')));
  const audioFile = await uploadedFileId(c, audio, 'guard.wav');
  const largest = bodyOfSize(15.5 * 1024 * 1024);
  const half = bodyOfSize(7.5 * 1024 * 1024);

  // Each phase under its own watch, so a failure names the phase that held the loop.
  const slowest: Record<string, number> = {};
  const phase = async (name: string, work: () => Promise<void>) => {
    watch = watchHealth(svc.url);
    await new Promise((r) => setTimeout(r, 300));
    await work();
    slowest[name] = (await watch.stop()).slowestMs;
    watch = undefined;
  };

  // Every JSON and form route, the largest junk body (two at a time): each is refused, none holds the loop.
  const statuses: Record<string, number> = {};
  await phase('the largest body on every JSON and form route', async () => {
    for (let i = 0; i < bodyRoutes.length; i += 2) {
      await Promise.all(
        bodyRoutes.slice(i, i + 2).map(async (id) => {
          const def = routes[id];
          const path = toRouterPath(def.path).replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(params[k] ?? 'x'));
          const isForm = def.body.kind === 'form';
          const res = await fetch(`${svc.url}${path}${def.auth === 'magic-link' ? `?token=${token}` : ''}`, {
            method: def.method,
            headers: { 'content-type': isForm ? 'application/x-www-form-urlencoded' : 'application/json', ...(def.auth === 's2t-key' ? { 'x-svc-s2t-key': c.batchKey } : c.bearer) },
            body: isForm ? form : json,
          });
          await res.arrayBuffer();
          statuses[id] = res.status;
        }),
      );
    }
  });
  // Refused as not fitting (4xx), or taken as a no-op where every field is optional (a document update without a document).
  for (const [id, status] of Object.entries(statuses)) expect([id, status < 500]).toEqual([id, true]);

  // The heavy routes with the largest valid input.
  await phase('the largest document: update, read, summarize, export', async () => {
    const put = await c.json('documents.update', docPath(doc), { document: largest });
    expect(put.status, put.text.slice(0, 300)).toBe(200);
    const read = await c.json('documents.get', docPath(doc));
    expect(read.status).toBe(200);
    const summary = await c.json('documents.summarize', `${docPath(doc)}/export/summarize`);
    expect(summary.status, summary.text.slice(0, 300)).toBe(200);
    // Rendering is the same path for every format (a PDF of this size: test/security/service-heavy-documents.test.ts).
    const docx = await fetch(`${svc.url}${docPath(doc)}/shared/export/docx?token=${token}`);
    await docx.arrayBuffer();
    expect(docx.status).toBe(200);
  });
  await phase('copy, clear, reset, merge, align text', async () => {
    const copy = await c.json('documents.copy', `${STT}/session/${doc.session_id}/document`, { source_document_id: doc.id, new_filename: 'copy' });
    expect(copy.status).toBe(200);
    expect((await c.json('documents.clearText', `${STT}/session/${doc.session_id}/document/${copy.body.id}/clear_text`)).status).toBe(200);
    expect((await c.json('documents.resetToOriginal', `${STT}/session/${doc.session_id}/document/${copy.body.id}/reset_to_original`)).status).toBe(200);
    const a = await c.json('documents.update', `${STT}/session/${doc.session_id}/document/${copy.body.id}`, { document: half });
    expect(a.status).toBe(200);
    const other = await uploadedDocument(c, manySegments(1, 3));
    expect((await c.json('documents.update', docPath(other), { document: half })).status).toBe(200);
    const merged = await c.json('documents.merge', `${STT}/merge`, { document_ids: [copy.body.id, other.id], output_filename: 'merged' });
    expect(merged.status, merged.text.slice(0, 300)).toBe(200);
    const aligned = await c.json('batch.transcribe', '/api/v3/batch/transcribe', { file_id: audioFile, language: 'en', session_mode: 'align', transcript_text: 'hello '.repeat(833_000) });
    expect(aligned.status).toBe(200);
    // 5 MB of words for a second of speech: refused by its count, before any recognition.
    expect((await jobDone(c, aligned.body.job_id)).error).toMatch(/^The transcript text has 833000 words/);
  });

  for (const [name, ms] of Object.entries(slowest)) expect([name, ms < HEALTH_LIMIT_MS, ms]).toEqual([name, true, ms]);
}, 300_000);
