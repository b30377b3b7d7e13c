/**
 * The data side of the app behind every IPC channel: the API client, the cache and sync, wired
 * together. Transports (Electron IPC, the web bridge) call `createCore` and nothing else here.
 * Every read answers from the cache, so every view works offline; every edit goes to the cache
 * and the outbox in one transaction and reaches the service when it can. Each area's channels
 * live in main/ipc/handlers/<area>.ts; this file builds what they share and merges them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventPayload } from '../common/ipc';
import { DEFAULT_CAPTION_PROFILE, type CaptionProfileId } from '../common/transcript/captions';
import { ApiClient } from './api/client';
import { Credentials } from './api/credentials';
import { Cache } from './cache/cache';
import { CaptionFollower } from './captions/follow';
import { captionsHandlers } from './captions/handlers';
import { describeRecovery } from './cache/open';
import { accountHandlers } from './ipc/handlers/account';
import { authHandlers, SignIn } from './ipc/handlers/auth';
import { conflictsHandlers } from './ipc/handlers/conflicts';
import { accountIdentity, type CoreContext, type CoreHandlers } from './ipc/handlers/context';
import { documentsHandlers } from './ipc/handlers/documents';
import { exportHandlers } from './ipc/handlers/export';
import { mediaAccount, mediaHandlers } from './ipc/handlers/media';
import { PeakCache } from './media/peaks';
import { searchHandlers } from './ipc/handlers/search';
import { sessionsHandlers } from './ipc/handlers/sessions';
import { syncHandlers } from './ipc/handlers/sync';
import type { Emit } from './ipc/registry';
import { MediaLibrary } from './media/library';
import type { SecretStore } from './platform/secrets';
import { Connectivity } from './sync/connectivity';
import { SyncEngine } from './sync/engine';

export type { CoreHandlers } from './ipc/handlers/context';

export interface CoreOptions {
  dataDir: string;
  serviceUrl: string;
  mode: 'local' | 'cloud';
  secrets: SecretStore;
  emit: Emit;
  /** Background timers (default on). The crash-test child and some tests drive sync themselves. */
  background?: boolean;
  /** Client tuning, for tests. */
  timeoutMs?: number;
  retries?: number;
  /**
   * Sessions whose documents changed: a local edit or mutation, or a sync that pulled or pushed
   * them. Watch folders refresh the files they delivered from these (main/watch/in-app.ts).
   */
  documentsChanged?: (sessionIds: string[]) => void;
  /** The caption profile captions are rebuilt with when their transcript changes (the captionProfile setting). */
  captionProfile?: () => CaptionProfileId;
  /** The media cache's bound in bytes, read at each download (the mediaCacheBytes setting). */
  mediaCacheBytes?: () => number;
  /** Opens single sign-on in the system browser (Electron); absent in browser mode, where the renderer opens a tab. */
  openExternal?: (url: string) => Promise<void>;
  /** How long single sign-on waits for the browser; tests shorten it. */
  ssoTimeoutMs?: number;
}

export interface Core {
  handlers: CoreHandlers;
  /** The service client on the signed-in user's credentials, for parts that act for the user (watch folders). */
  client: ApiClient;
  accessToken(): Promise<string | null>;
  /** The realtime API key for live transcription (made on first use, kept as a secret); forget: it was refused. */
  realtimeKey(forget?: boolean): Promise<string | null>;
  /** Where sessions' media plays from; the transport sets its linker, watch folders feed it local paths. */
  media: MediaLibrary;
  /** The signed-in account's key in the media library, or null. */
  mediaAccount(): string | null;
  close(): Promise<void>;
}

export const CACHE_FILE = 'cache.db';

export async function createCore(opts: CoreOptions): Promise<Core> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const cache = Cache.open(join(opts.dataDir, CACHE_FILE));
  const { emit, serviceUrl } = opts;
  const signIn = new SignIn({ cache, emit, serviceUrl, mode: opts.mode }, cache.recovery ? describeRecovery(cache.recovery) : null);

  let engine: SyncEngine | null = null;
  const connectivity = new Connectivity(() => engine?.onConnectivityChange());
  const client = new ApiClient({ baseUrl: serviceUrl, timeoutMs: opts.timeoutMs, retries: opts.retries, observe: (o) => connectivity.report(o) });
  const identity = accountIdentity(opts.mode, serviceUrl);
  const credentials = new Credentials(opts.secrets, identity, client, () => signIn.ended(), opts.mode === 'local');
  client.setAuth(credentials);

  // Signed in at start when a token outlived the last run and the cache knows the account (works offline).
  signIn.signedIn = !!(await credentials.accessToken()) && cache.currentAccount() !== null;
  const accountId = () => signIn.accountId();

  // Sync reports what it pulled or pushed as cache.changed; documentsChanged hears it too.
  const captions = new CaptionFollower({ cache, profile: () => opts.captionProfile?.() ?? DEFAULT_CAPTION_PROFILE, rebuilt: (r) => emit('captions.rebuilt', r) });
  const syncEmit: Emit = (event, payload) => {
    if (event === 'cache.changed') {
      const changed = payload as EventPayload<'cache.changed'>;
      // A pulled transcript change rebuilds its captions first, so watch folders deliver those.
      let rebuilt: string[] = [];
      try {
        rebuilt = changed.documents?.length && accountId() !== null ? captions.afterSync(changed.documents) : [];
      } catch (err) {
        process.stderr.write(`captions: rebuild after sync failed: ${(err as Error).message}\n`);
      }
      if (rebuilt.length) payload = { ...changed, documents: [...new Set([...(changed.documents ?? []), ...rebuilt])] } as typeof payload;
      if (changed.sessions?.length) opts.documentsChanged?.(changed.sessions);
      if (rebuilt.length) engine?.kick();
    }
    emit(event, payload);
  };
  const sync = new SyncEngine({ client, cache, connectivity, emit: syncEmit, accountId, background: opts.background ?? true });
  engine = sync;

  const media = new MediaLibrary({ dir: join(opts.dataDir, 'media'), limitBytes: opts.mediaCacheBytes, onError: (err) => process.stderr.write(`media cache: ${err.message}\n`) });
  const ctx: CoreContext = {
    cache,
    client,
    engine: sync,
    captions,
    emit,
    serviceUrl,
    identity,
    accountId,
    changedLocally(documents, sessionId) {
      emit('cache.changed', { documents, ...(sessionId ? { sessions: [sessionId] } : {}) });
      if (sessionId) opts.documentsChanged?.([sessionId]);
      sync.kick();
    },
  };
  const handlers: CoreHandlers = {
    ...authHandlers({ ...ctx, credentials, signIn, openExternal: opts.openExternal, ssoTimeoutMs: opts.ssoTimeoutMs }),
    ...accountHandlers(ctx),
    ...sessionsHandlers(ctx),
    ...documentsHandlers(ctx),
    ...syncHandlers(ctx),
    ...searchHandlers(ctx),
    ...exportHandlers(ctx),
    ...captionsHandlers(ctx),
    ...conflictsHandlers(ctx),
    ...mediaHandlers({ ...ctx, media, peaks: new PeakCache(join(opts.dataDir, 'media', 'peaks')) }),
  };

  sync.start();
  return {
    handlers,
    client,
    accessToken: () => credentials.accessToken(),
    realtimeKey: async (forget) => {
      if (forget) await credentials.invalidateRealtimeKey();
      return credentials.realtimeKey();
    },
    media,
    mediaAccount: () => {
      const id = accountId();
      return id === null ? null : mediaAccount(identity, id);
    },
    async close() {
      await media.close();
      await sync.close();
      cache.close();
    },
  };
}

/** For tests and the crash child: the pieces behind the handlers. */
export { Cache, ApiClient, SyncEngine };
