/**
 * The thin Electron-only code, run against a fake of the two Electron pieces it touches
 * (safeStorage and ipcMain), since the Electron binary cannot run on these machines.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNEL } from '../../../common/ipc';
import { registerElectronTransport } from '../../../main/ipc/electron-transport';
import type { Handlers } from '../../../main/ipc/registry';
import { ElectronSecretStore, type SafeStorageLike } from '../../../main/platform/electron-secrets';

/** A fake safeStorage that really transforms the bytes, so plaintext on disk would be caught. */
function fakeSafeStorage(backend: string): SafeStorageLike {
  const flip = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
  return {
    isEncryptionAvailable: () => true,
    encryptString: (s) => flip(Buffer.from(`enc:${s}`)),
    decryptString: (b) => flip(b).toString().replace(/^enc:/, ''),
    getSelectedStorageBackend: () => backend,
  };
}

describe('ElectronSecretStore', () => {
  it('keeps secrets encrypted on disk with a real keyring backend', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 's2t-sec-')), 'secrets.json');
    const store = new ElectronSecretStore(fakeSafeStorage('gnome_libsecret'), file);
    expect(store.persistent).toBe(true);
    await store.set('access_token', 'eyJ-very-secret');
    expect(readFileSync(file, 'utf8')).not.toContain('very-secret');
    expect(await new ElectronSecretStore(fakeSafeStorage('gnome_libsecret'), file).get('access_token')).toBe('eyJ-very-secret');
    await store.delete('access_token');
    expect(await store.get('access_token')).toBeNull();
  });

  it('refuses to persist under basic_text unless the user opted in', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 's2t-sec-')), 'secrets.json');
    const store = new ElectronSecretStore(fakeSafeStorage('basic_text'), file);
    expect(store.persistent).toBe(false);
    expect(store.refusal).toMatch(/basic_text/);
    await store.set('access_token', 'secret');
    expect(await store.get('access_token')).toBe('secret');
    expect(existsSync(file)).toBe(false);
    expect(new ElectronSecretStore(fakeSafeStorage('basic_text'), file, { allowBasicText: true }).persistent).toBe(true);
  });
});

describe('Electron transport', () => {
  it('dispatches through the contract and refuses untrusted senders', async () => {
    let registered: ((event: unknown, channel: unknown, args: unknown) => unknown) | undefined;
    const ipcMain = { handle: (name: string, fn: typeof registered) => name === INVOKE_CHANNEL && (registered = fn) };
    const handlers = { 'auth.state': async () => ({ signedIn: false, serviceUrl: 'x', mode: 'local', user: null }) } as unknown as Handlers;
    const trusted = { senderFrame: { url: 'file:///app/index.html' } };
    registerElectronTransport(ipcMain as never, handlers, (e) => (e as unknown as typeof trusted).senderFrame.url === 'file:///app/index.html');
    expect(await registered!(trusted, 'auth.state', {})).toMatchObject({ ok: true, value: { signedIn: false } });
    expect(await registered!({ senderFrame: { url: 'https://evil.example/' } }, 'auth.state', {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await registered!(trusted, 'nope', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
  });

  it('carries live audio as bytes (a structured clone, as Electron IPC makes), checked by the contract', async () => {
    let registered: ((event: unknown, channel: unknown, args: unknown) => unknown) | undefined;
    const ipcMain = { handle: (name: string, fn: typeof registered) => name === INVOKE_CHANNEL && (registered = fn) };
    const got: Uint8Array[] = [];
    const handlers = { 'live.audio': async (a: { pcm: Uint8Array }) => (got.push(a.pcm), { recordedMs: a.pcm.byteLength / 32 }) } as unknown as Handlers;
    registerElectronTransport(ipcMain as never, handlers, () => true);
    const pcm = new Uint8Array(3200).map((_, i) => i % 251);
    expect(await registered!({}, 'live.audio', structuredClone({ pcm }))).toEqual({ ok: true, value: { recordedMs: 100 } });
    expect(got[0]).toEqual(pcm);
    // Text (the old base64), too much, half a sample, nothing: refused before the handler.
    for (const bad of [{ pcm: Buffer.from(pcm).toString('base64') }, { pcm: new Uint8Array(32_002) }, { pcm: new Uint8Array(3) }, { pcm: new Uint8Array(0) }, { pcm: [1, 2] }]) {
      expect(await registered!({}, 'live.audio', structuredClone(bad))).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
    }
    expect(got).toHaveLength(1);
  });
});

describe('Electron entry (main/index.ts)', () => {
  it('shows an error box, then exits, when the cache was written by a newer version', async () => {
    const calls: string[] = [];
    const shown: [string, string][] = [];
    vi.resetModules();
    vi.doMock('electron', () => ({
      app: {
        enableSandbox: () => {},
        requestSingleInstanceLock: () => true,
        quit: () => calls.push('quit'),
        exit: (code: number) => calls.push(`exit ${code}`),
        on: () => {},
        whenReady: () => Promise.resolve(),
        getPath: () => tmpdir(),
      },
      dialog: { showErrorBox: (title: string, text: string) => (shown.push([title, text]), calls.push('dialog')) },
      safeStorage: fakeSafeStorage('gnome_libsecret'),
      session: { defaultSession: { setPermissionRequestHandler: () => {}, setPermissionCheckHandler: () => {}, setDevicePermissionHandler: () => {} } },
      utilityProcess: { fork: () => { throw new Error('not reached: startBackend is mocked'); } },
      Menu: { setApplicationMenu: () => {}, buildFromTemplate: () => ({}) },
      BrowserWindow: class {},
      ipcMain: { handle: () => {} },
      shell: { openExternal: () => {} },
      protocol: { registerSchemesAsPrivileged: () => {}, handle: () => {} },
      screen: { getAllDisplays: () => [] },
    }));
    // electron-store loads the real electron package (a dependency is not reached by doMock('electron')),
    // whose binary is missing here; conf is the class it extends, under conf's name for the file option.
    vi.doMock('electron-store', async () => {
      const { default: Conf } = await import('conf');
      return { default: class extends Conf { constructor(o: { name?: string }) { super({ ...o, configName: o.name }); } } };
    });
    // Imported inside the factory, so the error is of the class the fresh main/index.ts sees.
    vi.doMock('../../../main/backend', async () => {
      const { CacheTooNewError } = await import('../../../main/cache/open');
      return {
        startBackend: async () => {
          throw new CacheTooNewError('/data/cache.db', 9, 5);
        },
      };
    });
    try {
      await import('../../../main/index');
      await vi.waitFor(() => expect(calls).toContain('exit 1'));
      expect(calls).toEqual(['dialog', 'exit 1']);
      expect(shown[0][1]).toMatch(/newer version of S2T Desktop \(schema 9; this version knows up to 5\)/);
    } finally {
      vi.doUnmock('electron');
      vi.doUnmock('electron-store');
      vi.doUnmock('../../../main/backend');
      vi.resetModules();
    }
  });
});
