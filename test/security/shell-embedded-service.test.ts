/**
 * The embedded service's credential and its life beside the app, against the built app and service:
 * - the embedded service has no fixed password: its owner account gets a random one at every
 *   start, handed to the child over the fork channel, never in argv, the environment or a file,
 *   and the app signs in with it by itself; a legacy demo account loses its public password;
 * - the service does not outlive the app, even when the app is killed with SIGKILL.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedService, type EmbeddedService } from '../../main/embedded-service';
import { startApp, type RunningApp } from '../helpers/app';
import { cleanup, ROOT, startService, tempDir } from '../helpers/service';
import { until } from '../main/watch/helpers';
import { bridgeClient } from './bridge-wire';

const ENTRY = join(ROOT, 'dist/service/cli.js');
const PUBLIC_DEMO = { email: 'demo@s2t.local', password: 's2t-demo' };

const running: { stop(): Promise<void> }[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
  dirs.splice(0).forEach(cleanup);
});

async function signIn(serviceUrl: string, username: string, password: string): Promise<{ status: number; token?: string }> {
  const res = await fetch(`${serviceUrl}/api/v3/auth/login?login_type=token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }),
  });
  const body = (await res.json()) as { access_token?: string };
  return { status: res.status, token: body.access_token };
}

async function me(serviceUrl: string, token: string): Promise<{ id: number; email: string }> {
  const res = await fetch(`${serviceUrl}/api/v3/account/me`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { result: { id: number; email: string } }).result;
}

/** Every file under `dir`, as bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((p) => statSync(p).isFile())
    .map((path) => ({ path, bytes: readFileSync(path) }));
}

const procText = (pid: number, what: 'cmdline' | 'environ') => readFileSync(`/proc/${pid}/${what}`, 'utf8').split('\0').filter(Boolean);

/** The pids whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

describe('the embedded service credential', () => {
  it('is random, handed over without argv, environment or file, and the app signs in with it by itself', async () => {
    const app: RunningApp = await startApp({ localAccount: null });
    running.push(app);
    // Signed in without anyone typing a password, as the service's owner.
    const { ws, call } = await bridgeClient(Number(new URL(app.url).port), await app.newSession());
    expect(await call('auth.state')).toMatchObject({ ok: true, value: { signedIn: true, mode: 'local', user: { email: 'owner@s2t.local' } } });
    ws.close();
    // The fixed demo credential opens nothing.
    expect((await signIn(app.serviceUrl, PUBLIC_DEMO.email, PUBLIC_DEMO.password)).status).toBe(401);
    expect((await signIn(app.serviceUrl, 'owner@s2t.local', PUBLIC_DEMO.password)).status).toBe(401);
    // The service's command line names no credential, and its environment is the app's own.
    const [service] = childrenOf(app.child.pid!).filter((pid) => procText(pid, 'cmdline').includes(ENTRY));
    expect(service).toBeDefined();
    expect(procText(service, 'cmdline').slice(2)).toEqual(['--port', '0', '--data', join(app.dataDir, 'local-service'), '--owner-from-parent', '--quiet']);
    // (Node's fork adds only the channel's own descriptor number and serialization mode.)
    const added = procText(service, 'environ').filter((kv) => !procText(app.child.pid!, 'environ').includes(kv));
    expect(added.sort()).toEqual(['NODE_CHANNEL_FD=3', 'NODE_CHANNEL_SERIALIZATION_MODE=json']);
  }, 90_000);

  it('signs in again by itself when its session ends, and stays signed out once the person signs out', async () => {
    const app = await startApp({ localAccount: null });
    running.push(app);
    const { ws, call } = await bridgeClient(Number(new URL(app.url).port), await app.newSession());
    const signedIn = async () => ((await call('auth.state')).value as { signedIn: boolean }).signedIn;
    expect(await signedIn()).toBe(true);
    const db = new Database(join(app.dataDir, 'local-service', 'service.db'));
    const live = () => (db.prepare('SELECT count(*) AS n FROM login_sessions WHERE revoked_at IS NULL').get() as { n: number }).n;
    try {
      // The service ends every session, as an expiry or a revocation would; the next call the
      // app makes is refused, and it signs in again on its own.
      db.prepare('UPDATE login_sessions SET revoked_at = ?').run(new Date().toISOString());
      expect(live()).toBe(0);
      await call('sync.now');
      await until('a new session', async () => live() === 1 && (await signedIn()));
      // The person's own sign-out is final until the next start.
      expect(await call('auth.logout')).toMatchObject({ ok: true, value: { signedIn: false } });
      expect(await call('sync.state')).toMatchObject({ ok: true });
      expect(await signedIn()).toBe(false);
      expect(live()).toBe(0);
    } finally {
      db.close();
      ws.close();
    }
  }, 90_000);

  it('is nowhere in the child process or its files, is new at each start, and keeps the account', async () => {
    const dataDir = tempDir('s2t-embedded-');
    dirs.push(dataDir);
    const first: EmbeddedService = await startEmbeddedService({ dataDir, entry: ENTRY });
    running.push(first);
    const { password } = first.owner;
    expect(password.length).toBeGreaterThanOrEqual(32);
    for (const what of ['cmdline', 'environ'] as const) expect(procText(first.pid!, what).join('\n')).not.toContain(password);
    const signedIn = await signIn(first.url, first.owner.email, password);
    expect(signedIn.status).toBe(200);
    const owner = await me(first.url, signedIn.token!);
    await first.stop();
    for (const f of filesUnder(dataDir)) expect(f.bytes.includes(password), f.path).toBe(false);

    const second = await startEmbeddedService({ dataDir, entry: ENTRY });
    running.push(second);
    expect(second.owner.password).not.toBe(password);
    expect((await signIn(second.url, owner.email, password)).status).toBe(401);
    const again = await signIn(second.url, second.owner.email, second.owner.password);
    expect(again.status).toBe(200);
    expect((await me(second.url, again.token!)).id).toBe(owner.id);
  }, 90_000);

  it('takes over the demo account an earlier version left, and its public password stops working', async () => {
    const dataDir = tempDir('s2t-embedded-legacy-');
    dirs.push(dataDir);
    const old = await startService({ dataDir, demo: false, args: ['--demo-user', PUBLIC_DEMO.email, '--demo-password', PUBLIC_DEMO.password] });
    const legacy = await signIn(old.url, PUBLIC_DEMO.email, PUBLIC_DEMO.password);
    const legacyId = (await me(old.url, legacy.token!)).id;
    await old.stop();

    const embedded = await startEmbeddedService({ dataDir, entry: ENTRY });
    running.push(embedded);
    expect((await signIn(embedded.url, PUBLIC_DEMO.email, PUBLIC_DEMO.password)).status).toBe(401);
    const owner = await signIn(embedded.url, embedded.owner.email, embedded.owner.password);
    expect(owner.status).toBe(200);
    expect(await me(embedded.url, owner.token!)).toMatchObject({ id: legacyId, email: 'owner@s2t.local' });
  }, 90_000);
});

describe('the embedded service and the app', () => {
  it('is killed when it does not finish its shutdown, so quitting the app cannot hang on it', async () => {
    const dir = tempDir('s2t-stubborn-');
    dirs.push(dir);
    // A service that answers like ours but ignores SIGTERM.
    const entry = join(dir, 'stubborn.mjs');
    writeFileSync(entry, "process.on('SIGTERM', () => {}); process.on('message', () => {}); process.send('s2t:owner-credential?'); process.stdout.write('listening http://127.0.0.1:9\\n'); setInterval(() => {}, 1000);\n");
    const service = await startEmbeddedService({ dataDir: dir, entry, stopGraceMs: 500 });
    await service.stop();
    expect(() => process.kill(service.pid!, 0)).toThrow();
  }, 30_000);

  it('stops listening when the app process is killed with SIGKILL', async () => {
    const app = await startApp({ localAccount: null });
    const dataDir = app.dataDir;
    expect((await fetch(app.serviceUrl)).status).toBeGreaterThan(0);
    app.child.kill('SIGKILL');
    await app.stop();
    // The orphan notices its parent is gone and shuts down: its port refuses connections.
    await until('the service to stop listening', async () => fetch(app.serviceUrl).then(() => false, () => true), 15_000, 200);
    dirs.push(dataDir);
  }, 90_000);

  it('under npm start, the app and its service stop when the launcher is killed with SIGKILL', async () => {
    const app = await startApp({ entry: 'scripts/start.mjs', env: { DISPLAY: '', WAYLAND_DISPLAY: '' }, localAccount: null });
    dirs.push(app.dataDir);
    const page = app.url.replace(/#.*$/, '');
    expect((await fetch(page)).status).toBe(200);
    app.child.kill('SIGKILL');
    await app.stop();
    await until('the app and the service to stop listening', async () => {
      const refused = (url: string) => fetch(url).then(() => false, () => true);
      return (await refused(page)) && (await refused(app.serviceUrl));
    }, 15_000, 200);
  }, 90_000);
});
