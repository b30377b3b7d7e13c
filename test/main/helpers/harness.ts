/** A core (the app's data side) against a service URL, signed in as the demo user, recording its events. */
import { expect } from 'vitest';
import { ApiClient, type AuthSource } from '../../../main/api';
import { createCore, type Core } from '../../../main/core';
import { MemorySecretStore } from '../../../main/platform/secrets';
import type { EventName } from '../../../common/ipc';
import { DEMO, serviceLogin, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';

export interface TestCore {
  core: Core;
  h: Core['handlers'];
  events: { event: EventName; payload: unknown }[];
  dataDir: string;
  secrets: MemorySecretStore;
}

export async function signedInCore(serviceUrl: string, dataDir = tempDir('s2t-core-'), opts: { background?: boolean } = {}): Promise<TestCore> {
  const events: TestCore['events'] = [];
  const secrets = new MemorySecretStore();
  const core = await createCore({ dataDir, serviceUrl, mode: 'cloud', secrets, emit: (event, payload) => events.push({ event, payload }), background: opts.background ?? false, retries: 1, timeoutMs: 10_000 });
  const r = await core.handlers['auth.login']({ username: DEMO.email, password: DEMO.password, rememberMe: false });
  expect(r.status).toBe('signed-in');
  return { core, h: core.handlers, events, dataDir, secrets };
}

/** For afterAll: closes the core, then the proxy in front of the service, stops the service, and removes both data dirs. */
export async function closeCoreAndService({ core, proxy, svc }: { core?: TestCore; proxy?: { close(): Promise<void> }; svc?: RunningService }): Promise<void> {
  await core?.core.close();
  await proxy?.close();
  await stopAndRemove(svc, core?.dataDir);
}

/** A client acting as another device of the same user, straight against the service. */
export async function otherDevice(serviceUrl: string): Promise<ApiClient> {
  const token = await serviceLogin(serviceUrl, DEMO);
  const auth: AuthSource = { accessToken: async () => token, batchKey: async () => null, invalidateBatchKey: async () => {}, unauthorized: () => {} };
  return new ApiClient({ baseUrl: serviceUrl, auth });
}
