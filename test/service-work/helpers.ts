/** Shared by the service-work tests: real speech from espeak-ng, an authenticated client, polling and WER. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { loginDemo, ROOT } from '../helpers/service';

export const PASSAGE =
  'The weather today is sunny and warm. Many people walk in the park with their dogs. Children play football on the green grass near the river. In the evening, families gather for dinner and talk about their day.';

/** Speaks text with espeak-ng (-v en-us+klatt3) into a WAV file. */
export function speak(dir: string, name: string, text: string, extraArgs: string[] = []): string {
  const path = join(dir, name);
  execFileSync('espeak-ng', ['-v', 'en-us+klatt3', '-s', '150', ...extraArgs, '-w', path, text]);
  return path;
}

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Word error rate: word-level Levenshtein distance over the reference length. */
export function wer(reference: string, hypothesis: string): number {
  const r = words(reference);
  const h = words(hypothesis);
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const cur = [i];
    for (let j = 1; j <= h.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[h.length] / r.length;
}

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

export async function client(url: string, token?: string): Promise<Client> {
  const t = token ?? (await loginDemo(url));
  const bearer = { authorization: `Bearer ${t}` };
  const json = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...bearer, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
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
  };
  const created = await json('POST', '/api/v3/tokens', { name: 'work-tests', type: 'batch', years_valid: 1 });
  if (created.status !== 200 && created.status !== 201) throw new Error(`token create failed: ${created.status} ${JSON.stringify(created.body)}`);
  return { url, token: t, batchKey: created.body.token_value, bearer, json };
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

export async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/v3/auth/login?login_type=token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
