/**
 * Secrets under Electron's safeStorage (Keychain, DPAPI, or libsecret/kwallet), as ciphertext in
 * one file. When Linux offers only the `basic_text` backend, the encryption would be a fixed
 * key, so long-lived tokens are kept in memory only unless the user explicitly opted in.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import type { SecretStore } from './secrets';

/** The slice of Electron's safeStorage this needs (a fake stands in for it in tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(cipher: Buffer): string;
  getSelectedStorageBackend?(): string;
}

const SecretFile = z.record(z.string(), z.string());

export class ElectronSecretStore implements SecretStore {
  readonly persistent: boolean;
  private readonly memory = new Map<string, string>();

  constructor(
    private readonly safe: SafeStorageLike,
    private readonly file: string,
    opts: { allowBasicText?: boolean } = {},
  ) {
    const backend = safe.getSelectedStorageBackend?.() ?? 'unknown';
    this.persistent = safe.isEncryptionAvailable() && (backend !== 'basic_text' || opts.allowBasicText === true);
  }

  /** Why secrets are not kept across restarts, for the settings screen; null when they are. */
  get refusal(): string | null {
    if (this.persistent) return null;
    return this.safe.isEncryptionAvailable()
      ? 'No system keyring is available (basic_text), so you will be asked to sign in each time unless you allow weak storage in Settings.'
      : 'Encryption is unavailable on this system, so sign-ins are kept only while the app runs.';
  }

  private read(): Record<string, string> {
    if (!existsSync(this.file)) return {};
    const parsed = SecretFile.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
    return parsed.success ? parsed.data : {};
  }

  private write(all: Record<string, string>): void {
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(all), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  async get(name: string): Promise<string | null> {
    if (!this.persistent) return this.memory.get(name) ?? null;
    const cipher = this.read()[name];
    if (!cipher) return null;
    try {
      return this.safe.decryptString(Buffer.from(cipher, 'base64'));
    } catch {
      return null; // a keyring change makes old ciphertext unreadable: sign in again
    }
  }

  async set(name: string, value: string): Promise<void> {
    if (!this.persistent) {
      this.memory.set(name, value);
      return;
    }
    this.write({ ...this.read(), [name]: this.safe.encryptString(value).toString('base64') });
  }

  async delete(name: string): Promise<void> {
    this.memory.delete(name);
    if (!this.persistent) return;
    const all = this.read();
    delete all[name];
    this.write(all);
  }
}
