/**
 * One account's runtime, for its own data folder and service: the core (api client, cache,
 * sync, media), its watch folders and imports, and, on the embedded service, the app's own
 * sign-in. main/auth/account-switch.ts opens the active account's, and another on a switch.
 */
import { speechModelHandlers } from './imports/speech-models';
import type { EventName, EventPayload } from '../common/ipc';
import { importChannels } from '../common/ipc/imports';
import type { AccountRuntime, OpenAccount } from './auth/account-switch';
import { createCore } from './core';
import type { LocalAccount } from './embedded-service';
import type { Emit } from './ipc/registry';
import { localSignIn, type LocalSignIn } from './local-sign-in';
import type { SecretStore } from './platform/secrets';
import type { ServiceSupervisor } from './service-supervisor';
import type { SettingsStore } from './settings';
import { AppWatch, documentsFromCache } from './watch/in-app';
import { LiveController } from './live/controller';
import { liveHandlers } from './live/ipc';
import { realtimeAddress } from './live/realtime-url';

/** What every account's runtime shares: the backend's settings, secrets, embedded service and event sink. */
export interface RuntimeDeps {
  secrets: SecretStore;
  settings: SettingsStore;
  /** The embedded service, when the app runs one. */
  service?: ServiceSupervisor;
  /** Set when the caller signs in itself (tests, scripted setups): then main does not. */
  localAccount?: LocalAccount;
  /** Where browser-mode files are staged (the app's data dir, shared by the accounts). */
  stagingDataDir: string;
  openExternal?: (url: string) => Promise<void>;
  /** The app's events (watch folders and imports report here). */
  emit: Emit;
}

export async function openAccountRuntime(account: OpenAccount, deps: RuntimeDeps): Promise<AccountRuntime> {
  const { dataDir, serviceUrl, mode } = account;
  const { settings, service } = deps;
  // Watch folders, once the core they run on exists; the core's callbacks reach them through this.
  const folders: { watch?: AppWatch } = {};
  // They run while someone is signed in: the core's auth.changed starts and stops them.
  // On the app's own credential, a session that ends by itself is renewed (main/local-sign-in.ts).
  let local: LocalSignIn | undefined;
  const coreEmit: Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => {
    if (event === 'auth.changed') {
      const { signedIn } = payload as EventPayload<'auth.changed'>;
      void folders.watch?.setSignedIn(signedIn);
      local?.authChanged(signedIn);
    }
    account.emit(event, payload);
  };
  const core = await createCore({
    dataDir,
    serviceUrl,
    mode,
    secrets: deps.secrets,
    emit: coreEmit,
    documentsChanged: (ids) => folders.watch?.documentsChanged(ids),
    mediaCacheBytes: () => settings.get().mediaCacheBytes,
    captionProfile: () => settings.get().captionProfile,
    openExternal: deps.openExternal,
  });
  const h = core.handlers;
  // The embedded service is the user's own: sign in to it without asking for a password.
  if (service && mode === 'local' && !deps.localAccount) {
    local = localSignIn(h, service.owner);
    if (!(await h['auth.state']({})).signedIn) await local.signIn();
  }
  // A session the service has just made (an import or a watch-folder file now transcribing) is
  // pulled at once, so the session list shows it while it is transcribing, not only once done.
  const pull = () => void h['sync.now']({}).catch(() => {});
  const pulled = new Set<string>();
  const sessionMade = (sessionId: string | null) => {
    if (!sessionId || pulled.has(sessionId)) return;
    pulled.add(sessionId);
    pull();
  };
  const watchEmit: Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => {
    if (event === 'imports.progress') sessionMade((payload as EventPayload<'imports.progress'>).sessionId);
    deps.emit(event, payload);
  };
  const watch = new AppWatch({
    dataDir,
    stagingDataDir: deps.stagingDataDir,
    client: core.client,
    accessToken: core.accessToken,
    emit: watchEmit,
    documentsOf: documentsFromCache(h),
    // A delivered file is a new session on the service: pull it, so the session list shows it.
    onDelivered: pull,
    // A session made from a file on this computer plays that file (main/media/library.ts).
    onSessionKnown: (sessionId, path) => {
      sessionMade(sessionId);
      const key = core.mediaAccount();
      if (key) core.media.rememberLocal(key, sessionId, path);
    },
  });
  folders.watch = watch;
  // Live transcription: streams to the account's realtime address; the finished session plays from the recording here.
  const address = realtimeAddress(serviceUrl, mode, settings);
  const live = new LiveController({
    dataDir,
    realtimeUrl: () => address.get().url,
    realtimeKey: (forget) => core.realtimeKey(forget),
    changed: (state) => deps.emit('live.changed', state),
    finished: (sessionId, path) => {
      const key = core.mediaAccount();
      if (key) core.media.rememberLocal(key, sessionId, path);
      pulled.add(sessionId);
      pull();
    },
    // The stream could not be finished live: the whole recording joins the uploads like a picked file.
    upload: async (path, language) => {
      await watch.importHandlers['imports.add'](importChannels['imports.add'].args.parse({ sources: [{ kind: 'path', path }], options: { language } }));
    },
    // Through the cache, as a person's delete: it reaches the service even if the connection drops again.
    discard: async (sessionId) => {
      await h['sync.now']({});
      if ((await h['sessions.delete']({ sessionIds: [sessionId] })).deleted === 0) throw new Error('it has not reached this computer yet');
    },
  });
  if (account.live) live.adopt(account.live);
  core.media.setLocalLookup((sessionId) => watch.localPathOf(sessionId));
  // Not awaited: a first scan of big folders must not hold up the window; watch.* calls wait for it.
  void watch.setSignedIn((await h['auth.state']({})).signedIn);
  return {
    core,
    handlers: { ...core.handlers, ...watch.handlers, ...watch.importHandlers, ...speechModelHandlers(core.client), ...liveHandlers(live, address), ...local?.handlers },
    detachLive: () => live.detach(),
    async close() {
      live.close();
      await watch.close();
      await core.close();
    },
  };
}
