/**
 * classifyFailure over real failures: the local service answering 401, 422 and 429 (its sign-in
 * throttle), a 500 from a proxy in front of it, a closed port, a cancelled request; and the
 * IPC layer's wording of one.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient, ApiError, type AuthSource } from '../../../main/api';
import { classifyFailure, describeFailure, isTransient, type Failure } from '../../../main/api/failure';
import { dispatch, type Handlers } from '../../../main/ipc/registry';
import { cleanup, DEMO, startService, type RunningService } from '../../helpers/service';
import { recordingProxy, type RecordingProxy } from '../helpers/proxy';

let svc: RunningService;
let proxy: RecordingProxy;

beforeAll(async () => {
  svc = await startService();
  proxy = await recordingProxy(svc.url, { answer: (_m, url) => (url.includes('/account/me') ? { status: 500, body: { error: 'database is on fire' } } : undefined) });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await svc?.stop();
  if (svc) cleanup(svc.dataDir);
});

// A token the service never issued: enough for the proxy's 500 and the closed port, which never check it.
const auth: AuthSource = { accessToken: async () => 'not-a-token', batchKey: async () => null, invalidateBatchKey: async () => {}, unauthorized: () => {} };
const client = (baseUrl: string) => new ApiClient({ baseUrl, auth, retries: 0, timeoutMs: 10_000 });
const failureOf = async (p: Promise<unknown>): Promise<{ err: unknown; f: Failure }> => {
  const err = await p.then(() => expect.unreachable('the call succeeded'), (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return { err, f: classifyFailure(err)! };
};
const login = (password: string) => ({ query: { login_type: 'token' as const }, body: { username: DEMO.email, password, remember_me: false } });

it('a refusal (422) is refused, not worth retrying, and worded with its status', async () => {
  const { f } = await failureOf(client(svc.url).call('auth.loginMfa', { query: { login_type: 'token' }, body: { username: DEMO.email, password: DEMO.password, remember_me: false, totp_code: '123456', backup_code: '123456' } }));
  expect(f).toMatchObject({ kind: 'refused', status: 422 });
  expect(isTransient(f)).toBe(false);
  expect(describeFailure(f, 'request')).toMatch(/^The service refused the request \(HTTP 422: .*two-factor/);
});

it('a wrong password (401) is signed-out; the throttle that follows (429) is rate-limited with the wait it asks', async () => {
  const c = client(svc.url);
  const first = await failureOf(c.call('auth.login', login('wrong-password')));
  expect(first.f).toMatchObject({ kind: 'signed-out', status: 401 });
  expect(isTransient(first.f)).toBe(true);
  expect(describeFailure(first.f, 'sign-in')).toBe('The e-mail address or password is wrong.');
  expect(describeFailure(first.f, 'watch')).toBe('waiting for sign-in: the service refused our credentials');
  let last = first.f;
  for (let i = 0; i < 15 && last.kind !== 'rate-limited'; i++) last = (await failureOf(c.call('auth.login', login('wrong-password')))).f;
  expect(last).toMatchObject({ kind: 'rate-limited', status: 429 });
  expect(last.retryAfterMs).toBeGreaterThan(0);
  expect(isTransient(last)).toBe(true);
});

it('a 500 is server; an ApiError reaching dispatch becomes an IpcError with its code and the worded message', async () => {
  const c = client(proxy.url);
  const { f } = await failureOf(c.call('account.me'));
  expect(f).toMatchObject({ kind: 'server', status: 500 });
  expect(isTransient(f)).toBe(true);
  expect(describeFailure(f, 'sync')).toMatch(/^The service had a problem \(HTTP 500: .*\)\. Syncing will try again shortly\.$/);
  const handlers = { 'sync.state': () => c.call('account.me') } as unknown as Handlers;
  const reply = await dispatch(handlers, 'sync.state', {});
  expect(reply).toEqual({ ok: false, error: { code: f.code, message: describeFailure(f, 'request') } });
  expect(reply.ok === false && reply.error.message).toMatch(/^The service had a problem \(HTTP 500: .*database is on fire/);
});

it('a closed port is offline', async () => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const { f } = await failureOf(client(`http://127.0.0.1:${port}`).call('account.me'));
  expect(f).toMatchObject({ kind: 'offline', status: 0, code: 'NETWORK' });
  expect(isTransient(f)).toBe(true);
  expect(describeFailure(f, 'watch')).toMatch(/^waiting for the service \(/);
  expect(describeFailure(f, 'sign-in')).toMatch(/^The service at this address cannot be reached \(/);
  expect(describeFailure(f, 'sync')).toBe('The service cannot be reached. Your changes are kept here and will be sent when it is back.');
});

it('a cancelled request is aborted, not offline and not worth retrying', async () => {
  const stop = new AbortController();
  const call = client(svc.url).call('auth.login', login(DEMO.password), { signal: stop.signal });
  stop.abort();
  const { f } = await failureOf(call);
  expect(f).toMatchObject({ kind: 'aborted', status: 0, code: 'ABORTED' });
  expect(isTransient(f)).toBe(false);
});

it('anything but a service failure is not classified', () => {
  expect(classifyFailure(new Error('disk full'))).toBeNull();
  expect(classifyFailure(Object.assign(new Error('gone'), { code: 'ENOENT' }))).toBeNull();
});
