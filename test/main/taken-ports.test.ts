/**
 * The app survives restarts: a port the last run used may be someone else's by now.
 * The app started again while its last bridge and service ports are held elsewhere, a bridge
 * asked for a port that is held, and the embedded service restarted by its supervisor (under the
 * app, or the watch daemon) while its port is held each move to a free port, and what talks to
 * the service follows it there.
 * The ports are held by plain net.Servers, as another program would.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { AuthState, SyncState } from '../../common/ipc';
import type { ServiceStatus } from '../../common/ipc/shell';
import type { Handlers } from '../../main/ipc/registry';
import { startWebBridge, type WebBridge } from '../../main/ipc/web-bridge';
import { superviseEmbeddedService, type ServiceSupervisor } from '../../main/service-supervisor';
import { startApp, type RunningApp } from '../helpers/app';
import { heldPorts, portOf } from '../helpers/held-ports';
import { ROOT, serviceLogin, tempDir } from '../helpers/service';
import { startAppBridge, type AppBridge } from './helpers/app-bridge';
import { processesFor } from './helpers/processes';
import { startWatchDaemon } from './helpers/watch-daemon';

const ports = heldPorts();
const hold = ports.hold;
let app: RunningApp | undefined;
let sup: ServiceSupervisor | undefined;
let bridge: AppBridge | undefined;
let web: WebBridge | undefined;

afterEach(async () => {
  await app?.stop();
  await sup?.stop();
  await bridge?.close();
  await web?.close();
  app = sup = bridge = web = undefined;
  await ports.release();
});


it('the app started again while the ports of its last run are taken starts on free ones, and answers there', async () => {
  const first = await startApp();
  const dataDir = first.dataDir;
  const before = { bridge: portOf(first.url), service: portOf(first.serviceUrl) };
  await first.stop();
  await hold(before.bridge);
  await hold(before.service);
  app = await startApp({ dataDir });
  expect(portOf(app.url)).not.toBe(before.bridge);
  expect(portOf(app.serviceUrl)).not.toBe(before.service);
  expect((await fetch(new URL('/', app.url))).status).toBe(200);
  expect((await fetch(`${app.serviceUrl}/`)).status).toBeLessThan(500);
}, 120_000);

it('the web bridge asked for a port (--port) another program holds serves on a free one', async () => {
  const probe = createServer();
  await new Promise<void>((res) => probe.listen(0, '127.0.0.1', res));
  const port = (probe.address() as { port: number }).port;
  await new Promise((res) => probe.close(res));
  await hold(port);
  const staticDir = tempDir('s2t-ports-static-');
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>bridge</title>');
  web = await startWebBridge({ handlers: {} as Handlers, staticDir, port });
  expect(web.port).not.toBe(port);
  expect(await (await fetch(`http://127.0.0.1:${web.port}/`)).text()).toContain('<title>bridge</title>');
});

it('the supervisor restarts a killed service on another port when its port was taken meanwhile, and the owner signs in there', async () => {
  const statuses: ServiceStatus[] = [];
  sup = await superviseEmbeddedService({ dataDir: tempDir('s2t-ports-'), entry: join(ROOT, 'dist/service/cli.js'), backoffMs: [300, 300, 300], maxAttempts: 3 });
  sup.onStatus((s) => statuses.push(s));
  const port = portOf(sup.url);
  process.kill(sup.pid!, 'SIGKILL');
  await hold(port);
  await expect.poll(() => sup!.status().state, { timeout: 30_000 }).not.toBe('restarting');
  expect(statuses.at(-1)?.state, JSON.stringify(statuses)).toBe('running');
  expect(portOf(sup.url)).not.toBe(port);
  await serviceLogin(sup.url, sup.owner);
}, 60_000);

it('the running app follows its embedded service to another port when a restart finds its port taken: still signed in, and it syncs', async () => {
  // As users run it: the app keeps the local credential to itself and signs in on its own.
  bridge = await startAppBridge({ localAccount: null });
  const b = bridge;
  const signedIn = async () => (await b.call<AuthState>('auth.state', {})).signedIn;
  await expect.poll(signedIn, { timeout: 30_000 }).toBe(true);
  const before = b.app.serviceUrl;
  const [pid] = processesFor(join(b.app.dataDir, 'local-service'));
  process.kill(pid, 'SIGKILL');
  await hold(portOf(before));
  const localUrl = async () => (await b.call<{ accounts: { kind: string; serviceUrl: string }[] }>('accounts.list', {})).accounts.find((a) => a.kind === 'local')?.serviceUrl;
  await expect.poll(localUrl, { timeout: 60_000, interval: 500 }).not.toBe(before);
  await expect.poll(signedIn, { timeout: 30_000 }).toBe(true);
  const sync = await b.call<SyncState>('sync.now', {});
  expect(sync.lastError).toBeNull();
  expect(sync.connectivity).toBe('online');
  expect(b.events.some((e) => e.event === 'service.status' && (e.payload as ServiceStatus).state === 'failed')).toBe(false);
}, 120_000);

it('the watch daemon follows its embedded service to another port when a restart finds its port taken, and still delivers', async () => {
  const daemon = await startWatchDaemon('s2t-ports-');
  try {
    const port = portOf(/via (\S+)$/.exec(daemon.line(/^watching /)!)![1]);
    process.kill(daemon.servicePid(), 'SIGKILL');
    await hold(port);
    await expect.poll(() => daemon.line(/^local service (running again|failed)/), { timeout: 60_000 }).toBe('local service running again');
    await daemon.delivers('moved', 'the daemon moved to another port');
  } finally {
    await daemon.stop();
  }
}, 240_000);
