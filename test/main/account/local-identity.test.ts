/**
 * This computer's service is one account whatever its port: its port moves while the app runs
 * (a restart finds it taken) and at the app's next start, and through both the person stays
 * signed in, the account keeps one token made by the app, and a kept media copy is downloaded
 * once, and the terminal prints the service's new address. The built app in browser mode with its embedded service, signing in on its own as users
 * run it; the port is held by a plain net.Server, as another program would.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { STAGE_PATH, STAGE_TOKEN_HEADER, type AuthState, type ImportItem, type MediaSource } from '../../../common/ipc';
import type { AccountToken } from '../../../common/ipc/account';
import { heldPorts, portOf } from '../../helpers/held-ports';
import { speechWav } from '../../helpers/speech';
import { startAppBridge, type AppBridge } from '../helpers/app-bridge';
import { processesFor } from '../helpers/processes';
import { until } from '../watch/helpers';

const ports = heldPorts();
const hold = ports.hold;
let b: AppBridge | undefined;

afterAll(async () => {
  await b?.close();
  await ports.release();
});

const signedIn = async (a: AppBridge) => (await a.call<AuthState>('auth.state', {})).signedIn;
const appTokens = async (a: AppBridge) => (await a.call<{ tokens: AccountToken[] }>('account.tokens', {})).tokens.filter((t) => t.madeByApp);
const keptFiles = (dataDir: string) => readdirSync(join(dataDir, 'media')).filter((f) => !['media.db', 'media.db-wal', 'media.db-shm', 'peaks'].includes(f));

/** A file staged over the app's own route and imported with "Keep the media"; answers its session id once done. */
async function importKept(a: AppBridge, words: string): Promise<string> {
  const media = await speechWav(words);
  const res = await fetch(`${new URL(a.app.url).origin}${STAGE_PATH}?name=kept.wav&size=${statSync(media).size}`, {
    method: 'POST',
    headers: { [STAGE_TOKEN_HEADER]: a.token },
    body: Readable.toWeb(createReadStream(media)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  expect(res.status).toBe(201);
  const { stagedId } = (await res.json()) as { stagedId: string };
  const { items } = await a.call<{ items: ImportItem[] }>('imports.add', { sources: [{ kind: 'staged', stagedId, name: 'kept.wav' }], options: { language: 'en-US', keepMedia: true } });
  const done = await until('the import done', () => {
    const p = a.events.filter((e) => e.event === 'imports.progress').map((e) => e.payload as ImportItem).filter((x) => x.itemId === items[0].itemId).at(-1);
    if (p?.state === 'failed') throw new Error(p.message ?? 'failed');
    return p?.state === 'done' ? p : null;
  }, 120_000);
  return done.sessionId!;
}

/** Where the session plays from, once its kept copy is downloaded (the first play starts that). */
async function playedFromCache(a: AppBridge, sessionId: string): Promise<string> {
  return until('a kept copy', async () => {
    const s = await a.call<MediaSource>('media.source', { sessionId });
    return 'origin' in s && s.origin !== 'service' ? s.origin : null;
  }, 60_000, 300);
}

it('a port move while the app runs, and another at its next start: signed in, one app token, one kept copy', async () => {
  b = await startAppBridge({ localAccount: null });
  const first = b;
  await until('signed in', () => signedIn(first), 30_000);
  const sessionId = await importKept(first, 'the kept copy stays on this computer');
  expect(await playedFromCache(first, sessionId)).toBe('cache');
  const dataDir = first.app.dataDir;
  expect(keptFiles(dataDir)).toHaveLength(1);
  expect(await appTokens(first)).toHaveLength(1);

  // The service dies and its port is taken meanwhile: the supervisor starts it on another.
  const before = first.app.serviceUrl;
  const eventsBefore = first.events.length;
  const [pid] = processesFor(join(dataDir, 'local-service'));
  process.kill(pid, 'SIGKILL');
  await hold(portOf(before));
  const localUrl = async () => (await first.call<{ accounts: { kind: string; serviceUrl: string }[] }>('accounts.list', {})).accounts.find((x) => x.kind === 'local')?.serviceUrl;
  await until('the local account on the new port', async () => ((await localUrl()) !== before ? true : null), 60_000, 300);
  await until('signed in', () => signedIn(first), 30_000);
  // The terminal says where it went, as it said where it started.
  expect(await until('the moved line', async () => first.app.lines.find((l) => l.startsWith('Local service moved to ')), 10_000)).toBe(`Local service moved to ${await localUrl()}`);
  const signedOut = () => first.events.slice(eventsBefore).filter((e) => e.event === 'auth.changed' && !(e.payload as AuthState).signedIn);
  expect(signedOut(), 'no sign-in screen during the move').toEqual([]);
  expect(await first.call<MediaSource>('media.source', { sessionId })).toMatchObject({ origin: 'cache' });
  await importKept(first, 'a second file after the move');
  expect(await appTokens(first)).toHaveLength(1);
  expect(signedOut()).toEqual([]);

  // The next start: another port again (the last one is held), the same account, token and copy.
  await first.close();
  b = undefined;
  b = await startAppBridge({ localAccount: null, dataDir });
  const second = b;
  expect(second.app.serviceUrl).not.toBe(before);
  await until('signed in', () => signedIn(second), 30_000);
  expect(await second.call<MediaSource>('media.source', { sessionId })).toMatchObject({ origin: 'cache' });
  await importKept(second, 'a third file after the restart');
  expect(await appTokens(second)).toHaveLength(1);
  expect(keptFiles(dataDir)).toHaveLength(1);
}, 400_000);
