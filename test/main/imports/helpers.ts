/** The imports tests' harness: a WatchService and the imports.* handlers against a real service. */
import { join } from 'node:path';
import type { ChannelName, ImportItem, ResultOf } from '../../../common/ipc';
import { ApiClient } from '../../../main/api/client';
import { toImportItem } from '../../../main/imports/item';
import { importHandlers } from '../../../main/imports/ipc';
import { ModelsList } from '../../../main/imports/models';
import { dispatch, type Handlers } from '../../../main/ipc/registry';
import { PasswordAuth } from '../../../main/watch/auth';
import { WatchService, type WatchServiceOptions } from '../../../main/watch/service';
import { DEMO } from '../../helpers/service';

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
