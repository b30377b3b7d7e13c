/**
 * The Electron-free heart of the app, shared by main/index.ts (Electron) and main/headless.ts
 * (browser mode): settings, the embedded service when no cloud account is set, and the accounts
 * (main/auth/account-switch.ts), each a runtime of core and watch folders (main/account-runtime.ts),
 * behind the IPC handlers.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventName, EventPayload } from '../common/ipc';
import { openAccountRuntime, type RuntimeDeps } from './account-runtime';
import { startAccounts } from './auth/account-switch';
import type { LaunchService, LocalAccount } from './embedded-service';
import type { Emit, Handlers } from './ipc/registry';
import type { MediaLinker } from './media/links';
import { noDialogs, type Dialogs } from './platform/dialogs';
import type { SecretStore } from './platform/secrets';
import { confSettingsFile, type SettingsFile } from './platform/settings-file';
import { superviseEmbeddedService, type ServiceSupervisor, type SupervisorOptions } from './service-supervisor';
import { useBundledTools } from './platform/tools-dir';
import { effectiveServiceUrl, settingsHandlers, SettingsStore } from './settings';
import { shellHandlers } from './shell-handlers';
import { updateHandlers } from './updates/ipc';
import type { Updates } from './updates/updates';

export interface Backend {
  handlers: Handlers;
  mode: 'local' | 'cloud';
  /** Where the service answers now (the embedded one can move to another port on a restart). */
  readonly serviceUrl: string;
  settings: SettingsStore;
  /** The embedded service's supervisor (local mode). */
  service?: ServiceSupervisor;
  /** Where sessions' media plays from; the transport gives it the links its player can open (kept across account switches). */
  media: { setLinker(linker: MediaLinker): void };
  /** Where events go; set by the transport once it exists. */
  setEventSink(sink: Emit): void;
  close(): Promise<void>;
}

export interface BackendOptions {
  dataDir: string;
  secrets: SecretStore;
  /** How the embedded service is started: Node's fork by default, Electron's utilityProcess in the app. */
  launchService?: LaunchService;
  /**
   * The embedded service's account, when the caller brings it (tests, scripted setups): then the
   * caller signs in itself. Without it, the account gets a fresh random password and main signs in.
   */
  localAccount?: LocalAccount;
  /** Where settings are kept: electron-store in the app, conf (settings.json in dataDir) by default. */
  settingsFile?: SettingsFile;
  /** Native dialogs: Electron's in the app; none in browser mode. */
  dialogs?: Dialogs;
  /** Restart tuning for the embedded service (tests). */
  supervision?: Pick<SupervisorOptions, 'backoffMs' | 'maxAttempts' | 'healthIntervalMs' | 'healthTimeoutMs' | 'healthFailures'>;
  /** Opens single sign-on in the system browser: Electron's shell.openExternal; browser mode opens a tab from the renderer instead. */
  openExternal?: (url: string) => Promise<void>;
  /** The installed app's updater (main/platform/electron-updater.ts); none in browser mode or from source. */
  updates?: Updates;
}

export async function startBackend(opts: BackendOptions): Promise<Backend> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  useBundledTools();
  const settings = new SettingsStore(opts.settingsFile ?? confSettingsFile(opts.dataDir));
  const cloudUrl = effectiveServiceUrl(settings.get());
  let service: ServiceSupervisor | undefined;
  if (!cloudUrl) {
    service = await superviseEmbeddedService({ ...opts.supervision, dataDir: join(opts.dataDir, 'local-service'), launch: opts.launchService, owner: opts.localAccount });
  }
  let sink: Emit = () => {};
  const emit: Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => sink(event, payload);
  settings.onChange((value) => emit('settings.changed', value));

  let accounts;
  try {
    const deps: RuntimeDeps = { secrets: opts.secrets, settings, service, localAccount: opts.localAccount, stagingDataDir: opts.dataDir, openExternal: opts.openExternal, emit };
    accounts = await startAccounts({ dataDir: opts.dataDir, localUrl: service?.url ?? null, fixedUrl: cloudUrl, open: (account) => openAccountRuntime(account, deps), emit });
  } catch (err) {
    await service?.stop();
    throw err;
  }
  // The embedded service when the app runs one (browser mode prints its address), else the service it started on.
  const mode = service ? 'local' : accounts.startedOn.mode;
  const h = accounts.handlers as Handlers;
  // A smaller media cache applies at once, not at the next download (the active account's).
  settings.onChange(() => accounts.current().core.media.cache.evict());
  // Back after a restart: send what waited (edits made while it was down) and pull.
  service?.onStatus((status) => {
    emit('service.status', status);
    if (status.state !== 'running') return;
    // A restart may have moved it to another port (its own was taken): the local account follows before the sync.
    void accounts
      .moveLocal(service.url)
      .then(() => h['sync.now']({}))
      .catch(() => {});
  });
  const running = { state: 'running', attempt: 0, message: null } as const;
  const shell = shellHandlers(opts.dialogs ?? noDialogs, settings, () => service?.status() ?? running, opts.dataDir);
  const handlers: Handlers = { ...h, ...accounts.accountHandlers, ...settingsHandlers(settings), ...shell, ...updateHandlers(opts.updates, emit) };
  return {
    handlers,
    mode,
    get serviceUrl() {
      return service?.url ?? accounts.startedOn.serviceUrl;
    },
    media: accounts.media,
    settings,
    service,
    setEventSink: (s) => (sink = s),
    async close() {
      await accounts.close();
      await service?.stop();
    },
  };
}
