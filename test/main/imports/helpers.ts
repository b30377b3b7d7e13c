/** The imports tests' harness: a WatchService and the imports.* handlers against a real service. */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { ChannelName, ImportItem, ResultOf } from '../../../common/ipc';
import { ApiClient } from '../../../main/api/client';
import { toImportItem } from '../../../main/imports/item';
import { importHandlers } from '../../../main/imports/ipc';
import { ModelsList } from '../../../main/imports/models';
import { dispatch, type Handlers } from '../../../main/ipc/registry';
import { PasswordAuth } from '../../../main/watch/auth';
import { WatchService, type WatchServiceOptions } from '../../../main/watch/service';
import { DEMO, serviceLogin, startService, tempDirs, type RunningService, type TempDirs } from '../../helpers/service';
import { countingProxy, type CountingProxy } from '../watch/helpers';

export interface ImportsHarness {
  watch: WatchService;
  handlers: ReturnType<typeof importHandlers>;
  /** A channel called as the bridges call it (dispatch: the contract's zod first); a refusal rejects with its code. */
  call<C extends ChannelName>(channel: C, args: unknown): Promise<ResultOf<C>>;
  /** imports.progress as the app would emit it. */
  events: ImportItem[];
  /** onSessionKnown calls. */
  known: { sessionId: string; path: string }[];
}

export function importsHarness(url: string, dataDir: string, opts: Partial<WatchServiceOptions> = {}): ImportsHarness {
  const auth = new PasswordAuth(DEMO.email, DEMO.password);
  const client = new ApiClient({ baseUrl: url, auth: auth.asAuthSource(), retries: 0, timeoutMs: 15_000 });
  auth.attach(client);
  const events: ImportItem[] = [];
  const known: ImportsHarness['known'] = [];
  const watch = new WatchService({
    dataDir: join(dataDir, 'watch'),
    client,
    auth,
    stabilityMs: 500,
    pollMs: 300,
    onImportProgress: (row, live) => events.push(toImportItem(row, live)),
    onSessionKnown: (sessionId, path) => known.push({ sessionId, path }),
    ...opts,
  });
  const handlers = importHandlers({ watch: () => watch, models: new ModelsList(client, join(dataDir, 'imports', 'models.json')), dataDir });
  const call = async <C extends ChannelName>(channel: C, args: unknown): Promise<ResultOf<C>> => {
    const reply = await dispatch(handlers as unknown as Handlers, channel, args);
    if (!reply.ok) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
    return reply.value as ResultOf<C>;
  };
  return { watch, handlers, call, events, known };
}

/** The latest event of one item. */
export function latest(events: ImportItem[], itemId: number): ImportItem | undefined {
  return events.filter((e) => e.itemId === itemId).at(-1);
}

export interface ImportsSuite {
  svc: RunningService;
  /** In front of the service when asked for (bytesPerSecond); the harness talks through it then. */
  proxy: CountingProxy;
  h: ImportsHarness;
  /** The harness's data dir. */
  dataDir: string;
  /** The demo user's bearer token, for asking the service directly. */
  token: string;
  /** Temp dirs removed after the file's tests. */
  dirs: TempDirs;
}

/**
 * An imports test file's beforeAll/afterAll: the local service (behind a slow counting proxy when
 * `bytesPerSecond` is given), the harness started against it, the demo user's token; all of it
 * closed and removed afterwards. The fields are filled once beforeAll has run.
 */
export function importsSuite(name: string, opts: { bytesPerSecond?: number; harness?: Partial<WatchServiceOptions> } = {}): ImportsSuite {
  const t = { dirs: tempDirs() } as ImportsSuite;
  beforeAll(async () => {
    t.svc = await startService();
    if (opts.bytesPerSecond) t.proxy = await countingProxy(t.svc.url, { bytesPerSecond: opts.bytesPerSecond });
    t.dataDir = t.dirs.make(`${name}-data-`);
    t.h = importsHarness(t.proxy?.url ?? t.svc.url, t.dataDir, opts.harness);
    await t.h.watch.start();
    t.token = await serviceLogin(t.svc.url, DEMO);
  }, 60_000);
  afterAll(async () => {
    await t.h?.watch.close();
    await t.proxy?.close();
    await t.svc?.kill();
    t.dirs.removeAll();
  });
  return t;
}
