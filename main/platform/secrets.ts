/**
 * Where tokens live. Electron uses safeStorage (main/platform/electron-secrets.ts); plain Node
 * keeps them in memory only, because there is no OS keychain to protect a file with.
 */
export interface SecretStore {
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  /** False when secrets do not outlive the process (the user signs in again next time). */
  readonly persistent: boolean;
}

export class MemorySecretStore implements SecretStore {
  readonly persistent = false;
  private readonly values = new Map<string, string>();
  async get(name: string) {
    return this.values.get(name) ?? null;
  }
  async set(name: string, value: string) {
    this.values.set(name, value);
  }
  async delete(name: string) {
    this.values.delete(name);
  }
}
