/**
 * The Electron-free heart of the app, shared by main/index.ts (Electron) and main/headless.ts
 * (browser mode, watch daemon): settings, the embedded service when no cloud account is set, and
 * the core (api client, cache, sync) behind the IPC handlers.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventName, EventPayload } from '../common/ipc';
import { createCore } from './core';
import { startEmbeddedService, type EmbeddedService } from './embedded-service';
import type { Emit, Handlers } from './ipc/registry';
import type { SecretStore } from './platform/secrets';
import { readSettings } from './settings';

export interface Backend {
  handlers: Handlers;
  mode: 'local' | 'cloud';
  serviceUrl: string;
  /** Where events go; set by the transport once it exists. */
  setEventSink(sink: Emit): void;
  close(): Promise<void>;
}

export async function startBackend(opts: { dataDir: string; secrets: SecretStore; serviceExecPath?: string; serviceEnv?: NodeJS.ProcessEnv }): Promise<Backend> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const settings = readSettings(opts.dataDir);
  let service: EmbeddedService | undefined;
  if (!settings.serviceUrl) {
    service = await startEmbeddedService({ dataDir: join(opts.dataDir, 'local-service'), execPath: opts.serviceExecPath, env: opts.serviceEnv });
  }
  const mode = service ? 'local' : 'cloud';
  const serviceUrl = service?.url ?? settings.serviceUrl!;
  let sink: Emit = () => {};
  const emit: Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => sink(event, payload);
  let core;
  try {
    core = await createCore({ dataDir: opts.dataDir, serviceUrl, mode, secrets: opts.secrets, emit });
  } catch (err) {
    await service?.stop();
    throw err;
  }
  return {
    handlers: core.handlers,
    mode,
    serviceUrl,
    setEventSink: (s) => (sink = s),
    async close() {
      await core.close();
      await service?.stop();
    },
  };
}
