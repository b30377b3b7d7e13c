/** Shared by the service-work tests: an authenticated client, uploads, polling, another organization. (Speech and WER: ../helpers/speech.) */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DEMO, serviceLogin, ROOT, type RunningService } from '../../helpers/service';

export const PASSAGE =
  'The weather today is sunny and warm. Many people walk in the park with their dogs. Children play football on the green grass near the river. In the evening, families gather for dinner and talk about their day.';

/** Response bodies as the tests read them: deliberately loose, each test asserts the fields it needs. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Client {
  url: string;
  token: string;
  batchKey: string;
  bearer: Record<string, string>;
  json<T = Json>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: T; headers: Headers }>;
}

/** One request with an optional JSON body and no credentials but the given headers; the body comes back parsed when it is JSON, else as text (an export). */
export async function requestJson(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as Json, headers: res.headers };
}

export async function client(url: string, token?: string): Promise<Client> {
  const t = token ?? (await serviceLogin(url, DEMO));
  const bearer = { authorization: `Bearer ${t}` };
  const json = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => requestJson(url, method, path, body, { ...bearer, ...headers });
  const created = await json('POST', '/api/v3/tokens', { name: 'work-tests', type: 'batch', years_valid: 1 });
  if (created.status !== 200 && created.status !== 201) throw new Error(`token create failed: ${created.status} ${JSON.stringify(created.body)}`);
  return { url, token: t, batchKey: created.body.token_value, bearer, json };
}

/** Uploads one file through batch multipart (POST /api/v3/batch/upload); answers the status and the file record. */
export async function batchUpload(cl: Client, content: string | Uint8Array<ArrayBuffer>, filename: string, type?: string): Promise<{ status: number; body: Json }> {
  const form = new FormData();
  form.append('file', new Blob([content], type ? { type } : {}), filename);
  const res = await fetch(`${cl.url}/api/v3/batch/upload`, { method: 'POST', headers: cl.bearer, body: form });
  return { status: res.status, body: await res.json() };
}

/** batchUpload that must be accepted (200); answers the file_id. */
export async function uploadedFileId(cl: Client, content: string | Uint8Array<ArrayBuffer>, filename: string, type?: string): Promise<string> {
  const up = await batchUpload(cl, content, filename, type);
  if (up.status !== 200) throw new Error(`upload of ${filename} answered ${up.status}: ${JSON.stringify(up.body)}`);
  return up.body.file_id;
}

/** The legacy media PUT of a session, with the batch key; `headers` carry content-type and x-filename. */
export function putMedia(cl: Client, sessionId: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>): Promise<Response> {
  return fetch(`${cl.url}/api/v3/speech-to-text/session/${sessionId}`, { method: 'PUT', headers: { 'x-svc-s2t-key': cl.batchKey, ...headers }, body });
}

export async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 90_000, everyMs = 300): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function sessionDone(c: Client, sessionId: string, timeoutMs = 90_000): Promise<Json> {
  return until(`session ${sessionId}`, async () => {
    const r = await c.json('GET', `/api/v3/speech-to-text/session/${sessionId}`);
    return ['completed', 'failed', 'dead_letter'].includes(r.body.result?.status) ? r.body.result : null;
  }, timeoutMs);
}

export async function jobDone(c: Client, jobId: string, timeoutMs = 90_000): Promise<Json> {
  return until(`job ${jobId}`, async () => {
    const r = await c.json('GET', `/api/v3/batch/jobs/${jobId}`);
    return ['completed', 'failed', 'cancelled'].includes(r.body.status) ? r.body : null;
  }, timeoutMs);
}

/** The plain text of a transcript document body. */
export function transcriptText(doc: Json): string {
  return doc.document.content.segments.map((s: Json) => s.words.map((w: Json) => w.text).join(' ')).join(' ');
}

/** Adds a user in a new organization with the CLI (the real one), returns its credentials. */
export function addUser(dataDir: string, email: string, password: string): void {
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'service/cli.ts'), 'user', 'add', email, '--password-stdin', '--role', 'CUSTOMER', '--data', dataDir], { input: password, cwd: ROOT });
}

/** A client of a user of a new organization, added with the CLI, signed in and holding a batch key. */
export async function otherOrganization(svc: RunningService, email: string, password: string): Promise<Client> {
  addUser(svc.dataDir, email, password);
  return client(svc.url, await serviceLogin(svc.url, { email, password }));
}
