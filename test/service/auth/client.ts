/** Small helpers for the service-auth tests: HTTP calls, users made through the real CLI, TOTP codes. */
import { spawn } from 'node:child_process';
import * as OTPAuth from 'otpauth';
import type { HttpMethod, RouteId } from '../../../common/api';
import { ROOT, serviceCli, serviceLogin } from '../../helpers/service';
import { answer, methodOf, type Answer, type RouteAnswer, type Target } from '../answers';

export interface CallOptions {
  token?: string;
  s2tKey?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  redirect?: RequestRedirect;
}

/** Kept under these names for the auth tests' readers. */
export type CallResult = Answer;
export type RouteResult<K extends RouteId> = RouteAnswer<K>;

/**
 * One request to the running service; the body is parsed as JSON when it is JSON. Given a route
 * id instead of a method, the method comes from the route table and the body is typed by it.
 */
export async function call<K extends RouteId>(url: string, route: K, path: string, opts?: CallOptions): Promise<RouteResult<K>>;
export async function call(url: string, method: HttpMethod, path: string, opts?: CallOptions): Promise<CallResult>;
export async function call(url: string, target: Target, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.s2tKey) headers['x-svc-s2t-key'] = opts.s2tKey;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  const res = await fetch(`${url}${path}`, { method: methodOf(target, path), headers, body, redirect: opts.redirect ?? 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
  return answer(target, { status: res.status, headers: res.headers, text }, parsed);
}

/** The token login (auth.login); a refusal is read with errorOf(). */
export async function login(url: string, username: string, password: string, extra: Record<string, string> = {}) {
  return call(url, 'auth.login', '/api/v3/auth/login?login_type=token', { form: { username, password, ...extra } });
}

/** Logs in and returns the token, failing loudly otherwise (the shared serviceLogin, under the auth tests' argument order). */
export function tokenFor(url: string, username: string, password: string): Promise<string> {
  return serviceLogin(url, { email: username, password });
}

/** `npm run service -- user add ...` as a real child process; resolves with its stdout line. */
export function addUser(dataDir: string, email: string, password: string, roles: string[], extra: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = [...serviceCli(), 'user', 'add', email, '--password-stdin', '--data', dataDir, ...roles.flatMap((r) => ['--role', r]), ...extra];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(`${password}\n`);
  return new Promise((res) => child.once('exit', (code) => res({ code, stdout, stderr })));
}

export async function mustAddUser(dataDir: string, email: string, password: string, roles: string[], extra: string[] = []): Promise<void> {
  const r = await addUser(dataDir, email, password, roles, extra);
  if (r.code !== 0) throw new Error(`user add ${email} failed: ${r.stderr}`);
}

/** The TOTP code an authenticator app shows for this secret, `offsetSteps` 30-second steps from now. */
export function totpCode(secretBase32: string, offsetSteps = 0): string {
  return OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + offsetSteps * 30_000 });
}
