/**
 * The pull's background threads check document pages (the parse thread) and write them (the
 * writer) (main/cache/background.ts). When either dies mid-page, or a pull is cancelled, what the cache holds afterwards — and after the
 * next sync — must be exactly what a sync on the main thread alone makes: nothing lost, nothing
 * twice, the search index included.
 */
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, SyncState } from '../../../common/ipc';
import { ApiClient, type AuthSource } from '../../../main/api';
import { Cache } from '../../../main/cache';
import { WriterFailure } from '../../../main/cache/background';
import { CACHE_FILE, createCore, type Core } from '../../../main/core';
import { MemorySecretStore } from '../../../main/platform/secrets';
import { pull } from '../../../main/sync/pull';
import { DEMO, serviceLogin, stopAndRemove, tempDirs, type RunningService, startService } from '../../helpers/service';
import { body, user } from '../helpers/fixtures';
import { changeBehindSession, purgeSession, seedService, type Seeded } from '../helpers/seed';

const SESSIONS = 250; // three pages of the pull: 100, 100, 50
const dirs = tempDirs();
let svc: RunningService;
let client: ApiClient;
let seeded: Seeded;

beforeAll(async () => {
  svc = await startService();
  seeded = seedService(svc.dataDir, { email: DEMO.email, sessions: SESSIONS, texts: (i) => [`opening words of ${i}`, `marker${i}word appears once`, `closing ${i}`] });
  const token = await serviceLogin(svc.url, DEMO);
  const auth: AuthSource = { accessToken: async () => token, batchKey: async () => null, invalidateBatchKey: async () => {}, unauthorized: () => {} };
  client = new ApiClient({ baseUrl: svc.url, auth, retries: 1 });
});
afterAll(async () => {
  await stopAndRemove(svc);
  dirs.removeAll();
});

function openCache(): { cache: Cache; accountId: number; file: string } {
  const file = join(dirs.make('s2t-parse-worker-'), 'cache.db');
  const cache = Cache.open(file);
  return { cache, accountId: cache.setCurrentAccount(svc.url, { ...user, email: DEMO.email }), file };
}

/** Everything a pull writes, in a fixed order, for comparing two caches. */
function contents(cache: Cache) {
  return {
    sessions: cache.db.prepare('SELECT session_id, last_modified, docs_version, data FROM sessions ORDER BY session_id').all(),
    documents: cache.db.prepare('SELECT id, session_id, last_modified, server_version, local_state, meta, body FROM documents ORDER BY id').all(),
    searchRows: cache.db.prepare('SELECT document_id, start_ms, starts, text FROM text_segments ORDER BY document_id, start_ms').all(),
  };
}

/** With the variable set for the worker's start only (a worker copies the environment when it starts). */
async function withEnv<T>(name: string, value: string, fn: () => Promise<T>): Promise<T> {
  process.env[name] = value;
  try {
    return await fn();
  } finally {
    delete process.env[name];
  }
}

describe('the pull\'s parse thread and writer', () => {
  let reference: ReturnType<typeof contents>;

  beforeAll(async () => {
    // What the main thread alone makes of the same account.
    const { cache, accountId } = openCache();
    await withEnv('S2T_PULL_WORKER', '0', () => pull({ client, cache, accountId }));
    expect(cache.backgroundWriter()).toBeNull();
    reference = contents(cache);
    cache.close();
    expect(reference.sessions).toHaveLength(SESSIONS);
    expect(reference.documents).toHaveLength(SESSIONS);
  });

  it.runIf(process.platform === 'linux')('runs both threads below the main thread\'s priority (Linux: a nice value per thread)', async () => {
    const niceOf = () => readdirSync('/proc/self/task').map((t) => Number(readFileSync(`/proc/self/task/${t}/stat`, 'utf8').split(') ')[1].split(' ')[16]));
    const before = niceOf().filter((n) => n > 0).length;
    const { cache, accountId } = openCache();
    await pull({ client, cache, accountId });
    expect(cache.backgroundWriter()).not.toBeNull();
    expect(niceOf().filter((n) => n === 10).length - before).toBe(2); // the parse thread and the writer
    expect(Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16])).toBe(0); // the process (its main thread) keeps its own
    cache.close();
  });

  it('checks and writes a first sync the main thread would make byte for byte', async () => {
    const { cache, accountId } = openCache();
    const r = await pull({ client, cache, accountId });
    expect(cache.backgroundWriter()).not.toBeNull(); // the pages went through the worker
    expect(r.documents).toBe(SESSIONS);
    expect(contents(cache)).toEqual(reference);
    cache.close();
  });

  it('the parse thread killed mid-page: the sync goes on without it, and the next one (with new threads) has nothing left to do', async () => {
    const { cache, accountId, file } = openCache();
    // The parse thread ends abruptly on its 150th document page: page two, with page one applied or being applied.
    const first = await withEnv('S2T_TEST_PULL_WORKER_EXIT_AT', 'parse:150', () => pull({ client, cache, accountId }));
    expect(cache.backgroundWriter()).toBeNull(); // it did die, and the main thread did the rest
    expect(first.sessions).toBe(SESSIONS);
    expect(contents(cache)).toEqual(reference);
    cache.close();

    const again = Cache.open(file);
    const second = await pull({ client, cache: again, accountId }, { full: true });
    expect(again.backgroundWriter()).toBeNull(); // nothing to fetch with content: no worker needed
    expect(second).toMatchObject({ sessions: 0, documents: 0 });
    expect(contents(again)).toEqual(reference);
    for (const i of [0, 149, 150, 249]) expect(again.search(accountId, `marker${i}word`, 10)).toHaveLength(1);
    again.close();
  });

  it('the parse thread killed on its first page of a first sync: the sync brings everything', async () => {
    const { cache, accountId } = openCache();
    await withEnv('S2T_TEST_PULL_WORKER_EXIT_AT', 'parse:1', () => pull({ client, cache, accountId }));
    expect(cache.backgroundWriter()).toBeNull();
    expect(contents(cache)).toEqual(reference);
    cache.close();
  });

  it('the writer killed while applying a page: the documents it held for that page are fetched again', async () => {
    const { cache, accountId } = openCache();
    await withEnv('S2T_TEST_PULL_WORKER_EXIT_AT', 'apply:2', () => pull({ client, cache, accountId }));
    expect(cache.backgroundWriter()).toBeNull();
    expect(contents(cache)).toEqual(reference);
    cache.close();
  });

  it('a page naming documents checked by a writer that has since died is refused, not applied without them', async () => {
    // The writer died applying page k while part of page k+1 was already checked in it; the
    // cache is left without a writer. Applying page k+1 must fail so that the pull fetches those
    // documents again, rather than store the sessions without them.
    const { cache, accountId } = openCache();
    const session = { session_id: 'lost-with-the-writer', filename: 'x.wav', language: 'en', status: 'completed', last_modified: '2026-01-01T00:00:00.000Z', data: '{}' };
    await withEnv('S2T_PULL_WORKER', '0', async () => {
      const page = { sessions: [session], docs: new Map(), parsed: new Map([[session.session_id, [1]]]) };
      await expect(cache.applyPullPageInBackground(accountId, page)).rejects.toBeInstanceOf(WriterFailure);
    });
    expect(cache.sessionCount(accountId)).toBe(0);
    cache.close();
  });

  it('a pull cancelled mid-page leaves whole pages only, and the next sync completes it', async () => {
    const { cache, accountId, file } = openCache();
    const stop = new AbortController();
    let applied = 0;
    const cancelled = pull({ client, cache, accountId, signal: stop.signal, changed: (c) => ((applied += c.documents.length), applied >= 100 && stop.abort()) });
    await expect(cancelled).rejects.toThrow(/cancel/);
    const partial = contents(cache);
    // Whole pages: each cached session has its document and its search rows.
    expect(partial.documents.length).toBe(partial.sessions.length);
    expect(partial.sessions.length % 100).toBe(0);
    expect(partial.sessions.length).toBeLessThan(SESSIONS);
    cache.close();

    const again = Cache.open(file);
    await pull({ client, cache: again, accountId });
    expect(contents(again)).toEqual(reference);
    again.close();
  });

  it('signing out mid-sync leaves whole pages only; signing in again brings the rest', async () => {
    const dataDir = dirs.make('s2t-parse-worker-core-');
    const app: { core?: Core } = {};
    let signedOut: Promise<unknown> | null = null;
    let runEnded!: () => void;
    const ended = new Promise<void>((r) => (runEnded = r));
    const emit = (event: EventName, payload: unknown) => {
      // On the first applied page, the user signs out while the pull goes on.
      if (event === 'cache.changed' && !signedOut && app.core) signedOut = app.core.handlers['auth.logout']({});
      if (event === 'sync.state' && signedOut && !(payload as SyncState).running) runEnded();
    };
    const core = (app.core = await createCore({ dataDir, serviceUrl: svc.url, mode: 'cloud', secrets: new MemorySecretStore(), emit, background: false, retries: 1, timeoutMs: 10_000 }));
    try {
      expect((await core.handlers['auth.login']({ username: DEMO.email, password: DEMO.password, rememberMe: false })).status).toBe('signed-in');
      await ended;
      const db = new Database(join(dataDir, CACHE_FILE), { readonly: true });
      const sessions = (db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n;
      const bodies = (db.prepare('SELECT count(*) AS n FROM documents WHERE body IS NOT NULL').get() as { n: number }).n;
      db.close();
      expect(sessions % 100).toBe(0);
      expect(sessions).toBeLessThan(SESSIONS);
      expect(bodies).toBe(sessions);

      expect((await core.handlers['auth.login']({ username: DEMO.email, password: DEMO.password, rememberMe: false })).status).toBe('signed-in');
      expect(await core.handlers['sync.now']({})).toMatchObject({ lastError: null, running: false });
      expect((await core.handlers['sessions.list']({ offset: 0, limit: 500 })).total).toBe(SESSIONS);
      expect((await core.handlers['search.text']({ q: 'marker149word', limit: 10 })).length).toBe(1);
    } finally {
      await core.close();
    }
  });

  // Last: it changes the service's data the others compare with.
  it('a second pass of the same pull (the count disagreed) checks its documents in the worker too', async () => {
    const { cache, accountId } = openCache();
    await pull({ client, cache, accountId });
    expect(cache.backgroundWriter()).not.toBeNull();
    // Behind the sessions' backs: one session purged, one document rewritten. An incremental pull
    // sees no session move, finds one session too many, and sweeps in a second pass, which
    // fetches the rewritten document with its content.
    purgeSession(svc.dataDir, seeded.sessions[10].sessionId);
    changeBehindSession(svc.dataDir, { rewrite: { documentId: seeded.sessions[20].documentIds[0], body: body(['rewritten behind the session']) } });
    const r = await pull({ client, cache, accountId });
    expect(r.swept).toBe(true);
    expect(cache.backgroundWriter()).not.toBeNull();
    expect(cache.sessionCount(accountId)).toBe(SESSIONS - 1);
    expect(cache.search(accountId, 'rewritten', 10).map((h) => h.document_id)).toEqual([seeded.sessions[20].documentIds[0]]);
    cache.close();
  });
});
