import { hostname } from 'node:os';
import type { SecretStore } from '../platform/secrets';
import type { ApiClient, AuthSource } from './client';

/** The name the app gives the batch API token it creates for itself. */
export const batchTokenName = () => `S2T Desktop on ${hostname()}`.slice(0, 100);

/**
 * Credentials over the SecretStore, one set per account identity (the service URL; this
 * computer's service has one name whatever its port): the session token from login and
 * the batch API key the app creates for x-svc-s2t-key routes. The key's value is kept only as a
 * secret and never returned to the renderer.
 */
export class Credentials implements AuthSource {
  private token: string | null | undefined;
  private key: string | null | undefined;
  private creating: Promise<string | null> | null = null;
  private liveKey: string | null | undefined;
  private creatingLive: Promise<string | null> | null = null;

  constructor(
    private readonly secrets: SecretStore,
    private readonly identity: string,
    private readonly client: ApiClient,
    private readonly onUnauthorized: (routeId: string) => void,
    /** This computer's own service, where no other copy of the app shares the account. */
    private readonly ownService = false,
  ) {}

  private name(kind: 'access-token' | 'batch-key' | 'realtime-key') {
    return `${kind}@${this.identity}`;
  }

  async accessToken(): Promise<string | null> {
    if (this.token === undefined) this.token = await this.secrets.get(this.name('access-token'));
    return this.token;
  }

  async setAccessToken(token: string | null): Promise<void> {
    this.token = token;
    if (token) await this.secrets.set(this.name('access-token'), token);
    else await this.secrets.delete(this.name('access-token'));
  }

  async batchKey(signal?: AbortSignal): Promise<string | null> {
    if (this.key === undefined) this.key = await this.secrets.get(this.name('batch-key'));
    if (this.key) return this.key;
    if (!(await this.accessToken())) return null;
    // One creation at a time, however many calls are waiting for a key.
    this.creating ??= (async () => {
      try {
        if (this.ownService) await this.revokeEarlierKeys(signal);
        const created = await this.client.call('tokens.create', { body: { name: batchTokenName(), type: 'batch', years_valid: 1 } }, { signal });
        if (!created.token_value) return null;
        await this.secrets.set(this.name('batch-key'), created.token_value);
        this.key = created.token_value;
        return this.key;
      } finally {
        this.creating = null;
      }
    })();
    return this.creating;
  }

  /**
   * On this computer's own service, keys this app made earlier whose values it no longer holds (a
   * new start in browser mode, a sign-out): one app key, so they go before the next is made. A key
   * that cannot be deleted stays listed, where the person can delete it. (On a shared service
   * another copy of the app on a computer of the same name may use its key: those stay.)
   */
  private async revokeEarlierKeys(signal?: AbortSignal): Promise<void> {
    try {
      const ids: string[] = [];
      for await (const t of this.client.items('tokens.list', {}, { signal })) if (t.name === batchTokenName() && t.type === 'batch') ids.push(String(t.id));
      for (const id of ids) await this.client.call('tokens.delete', { params: { tokenId: id } }, { signal });
    } catch (err) {
      if (signal?.aborted) throw err;
    }
  }

  /** The realtime API key live transcription streams with, made like the batch key (type realtime) and kept as a secret. */
  async realtimeKey(signal?: AbortSignal): Promise<string | null> {
    if (this.liveKey === undefined) this.liveKey = await this.secrets.get(this.name('realtime-key'));
    if (this.liveKey) return this.liveKey;
    if (!(await this.accessToken())) return null;
    this.creatingLive ??= (async () => {
      try {
        const created = await this.client.call('tokens.create', { body: { name: `${batchTokenName()} (live)`.slice(0, 100), type: 'realtime', years_valid: 1 } }, { signal });
        if (!created.token_value) return null;
        await this.secrets.set(this.name('realtime-key'), created.token_value);
        this.liveKey = created.token_value;
        return this.liveKey;
      } finally {
        this.creatingLive = null;
      }
    })();
    return this.creatingLive;
  }

  /** The stored realtime key was refused: the next stream makes a new one. */
  async invalidateRealtimeKey(): Promise<void> {
    this.liveKey = null;
    await this.secrets.delete(this.name('realtime-key'));
  }

  async invalidateBatchKey(): Promise<void> {
    this.key = null;
    await this.secrets.delete(this.name('batch-key'));
  }

  unauthorized(routeId: string): void {
    this.token = null;
    void this.secrets.delete(this.name('access-token'));
    this.onUnauthorized(routeId);
  }

  /** Sign-out forgets both: the batch key belongs to the account that made it. */
  async clear(): Promise<void> {
    await this.setAccessToken(null);
    await this.invalidateBatchKey();
    await this.invalidateRealtimeKey();
  }
}
