/** Shared by the service-work tests: an authenticated client, uploads, polling, another organization. (Speech and WER: ../helpers/speech.) */
import { execFileSync } from 'node:child_process';
import type { Document, HttpMethod, Job, RouteId, Session } from '../../../common/api';
import type { CaptionContent, DocumentBody, TranscriptContent } from '../../../common/transcript/model';
import { DEMO, serviceCli, serviceLogin, ROOT, type RunningService } from '../../helpers/service';
import { answer, methodOf, must, type Answer, type RouteAnswer, type Target } from '../answers';

export const PASSAGE =
  'The weather today is sunny and warm. Many people walk in the park with their dogs. Children play football on the green grass near the river. In the evening, families gather for dinner and talk about their day.';

export interface Client {
  url: string;
  token: string;
  batchKey: string;
  bearer: Record<string, string>;
  /** A request of a named route (method from the table, body typed by it), or by bare method for one the test means to be refused. */
  json<K extends RouteId>(route: K, path: string, body?: unknown, headers?: Record<string, string>): Promise<RouteAnswer<K>>;
  json(method: HttpMethod, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
}

/** One request with an optional JSON body and no credentials but the given headers; the body comes back parsed when it is JSON, else as text (an export). */
export async function requestJson<K extends RouteId>(url: string, route: K, path: string, body?: unknown, headers?: Record<string, string>): Promise<RouteAnswer<K>>;
export async function requestJson(url: string, method: HttpMethod, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
export async function requestJson(url: string, target: Target, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
export async function requestJson(url: string, target: Target, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return request(url, target, path, body, headers);
}

async function request(url: string, target: Target, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method: methodOf(target, path),
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
  return answer(target, { status: res.status, headers: res.headers, text }, parsed);
}

export async function client(url: string, token?: string): Promise<Client> {
  const t = token ?? (await serviceLogin(url, DEMO));
  const bearer = { authorization: `Bearer ${t}` };
  function json<K extends RouteId>(route: K, path: string, body?: unknown, headers?: Record<string, string>): Promise<RouteAnswer<K>>;
  function json(method: HttpMethod, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  function json(target: Target, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return request(url, target, path, body, { ...bearer, ...headers });
  }
  const created = await json('tokens.create', '/api/v3/tokens', { name: 'work-tests', type: 'batch', years_valid: 1 });
  if (created.status !== 201) throw new Error(`token create failed: ${created.status} ${created.text}`);
  return { url, token: t, batchKey: must(created.body.token_value, 'token_value'), bearer, json };
}

/** Uploads one file through batch multipart (POST /api/v3/batch/upload); answers the status and the file record. */
export async function batchUpload(cl: Client, content: string | Uint8Array<ArrayBuffer>, filename: string, type?: string): Promise<RouteAnswer<'batch.upload'>> {
  const form = new FormData();
  form.append('file', new Blob([content], type ? { type } : {}), filename);
  const res = await fetch(`${cl.url}/api/v3/batch/upload`, { method: 'POST', headers: cl.bearer, body: form });
  const text = await res.text();
  return answer('batch.upload', { status: res.status, headers: res.headers, text }, JSON.parse(text));
}

/** batchUpload that must be accepted (200); answers the file_id. */
export async function uploadedFileId(cl: Client, content: string | Uint8Array<ArrayBuffer>, filename: string, type?: string): Promise<string> {
  const up = await batchUpload(cl, content, filename, type);
  if (up.status !== 200) throw new Error(`upload of ${filename} answered ${up.status}: ${up.text}`);
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

/** The session once it is completed, failed or dead-lettered (polled while it is anything else, or not yet readable). */
export async function sessionDone(c: Client, sessionId: string, timeoutMs = 90_000): Promise<Session> {
  return until(`session ${sessionId}`, async () => {
    const r = await c.json('sessions.get', `/api/v3/speech-to-text/session/${sessionId}`);
    if (r.status !== 200) return null;
    const s = r.body.result;
    return s.status && ['completed', 'failed', 'dead_letter'].includes(s.status) ? s : null;
  }, timeoutMs);
}

/** The job once it is completed, failed or cancelled (polled while it is anything else, or not yet readable). */
export async function jobDone(c: Client, jobId: string, timeoutMs = 90_000): Promise<Job> {
  return until(`job ${jobId}`, async () => {
    const r = await c.json('batch.job', `/api/v3/batch/jobs/${jobId}`);
    if (r.status !== 200) return null;
    return ['completed', 'failed', 'cancelled'].includes(r.body.status) ? r.body : null;
  }, timeoutMs);
}

/** The document of this type (the transcript is 'document') in a list or a job result; absent fails the test. */
export function docOf(docs: readonly Document[], type: Document['type']): Document {
  return must(docs.find((d) => d.type === type), `a ${type} among ${docs.length} documents`);
}

/** A document's body: given a Document (read with its body) or the body itself; a Document without one fails the test. */
export function bodyOf(doc: Document | DocumentBody): DocumentBody {
  if (isBody(doc)) return doc;
  return must(doc.document, `the body of document ${doc.id}`);
}

const isBody = (doc: Document | DocumentBody): doc is DocumentBody => 'document_type' in doc && 'content' in doc;

/** The transcript content of a document (or a document body); anything else fails the test. */
export function transcriptOf(doc: Document | DocumentBody): TranscriptContent {
  const content = bodyOf(doc).content;
  if (content.kind !== 'transcript') throw new Error(`a ${content.kind}, not a transcript`);
  return content;
}

/** The caption content of a document (or a document body); anything else fails the test. */
export function captionOf(doc: Document | DocumentBody): CaptionContent {
  const content = bodyOf(doc).content;
  if (content.kind !== 'caption') throw new Error(`a ${content.kind}, not a caption`);
  return content;
}

/** The plain text of a transcript document body. */
export function transcriptText(doc: Document | DocumentBody): string {
  return transcriptOf(doc).segments.map((s) => s.words.map((w) => w.text).join(' ')).join(' ');
}

/** Adds a user in a new organization with the CLI (the real one), returns its credentials. */
export function addUser(dataDir: string, email: string, password: string): void {
  execFileSync(process.execPath, [...serviceCli(), 'user', 'add', email, '--password-stdin', '--role', 'CUSTOMER', '--data', dataDir], { input: password, cwd: ROOT });
}

/** A client of a user of a new organization, added with the CLI, signed in and holding a batch key. */
export async function otherOrganization(svc: RunningService, email: string, password: string): Promise<Client> {
  addUser(svc.dataDir, email, password);
  return client(svc.url, await serviceLogin(svc.url, { email, password }));
}
