/**
 * Settings through the real channels (dispatch validates with the contract) into a real
 * settings.json written by conf: round trip, restart, the migration of the old file, refusals.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, GIB } from '../../common/ipc/settings';
import { dispatch, type Handlers } from '../../main/ipc/registry';
import { confSettingsFile } from '../../main/platform/settings-file';
import { SETTINGS_VERSION, settingsHandlers, SettingsStore } from '../../main/settings';
import { tempDir } from '../helpers/service';

function open(dir: string) {
  const store = new SettingsStore(confSettingsFile(dir));
  return { store, handlers: settingsHandlers(store) as unknown as Handlers };
}

describe('settings', () => {
  it('round-trips through settings.get and settings.set, tells listeners, and survives a restart', async () => {
    const dir = tempDir('s2t-settings-');
    const first = open(dir);
    expect(await dispatch(first.handlers, 'settings.get', {})).toEqual({ ok: true, value: DEFAULT_SETTINGS });
    expect(DEFAULT_SETTINGS.mediaCacheBytes).toBe(2 * GIB);
    expect(DEFAULT_SETTINGS.theme).toBe('system');
    const heard: unknown[] = [];
    first.store.onChange((s) => heard.push(s));
    const patch = { theme: 'dark', mediaCacheBytes: 512 * 1024 ** 2, captionProfile: 'bbc-like', exportFolder: '/home/me/Exports', transcription: { language: 'de', diarization: true } } as const;
    const set = await dispatch(first.handlers, 'settings.set', patch);
    expect(set.ok).toBe(true);
    const value = (set as { value: typeof DEFAULT_SETTINGS }).value;
    expect(value).toMatchObject({ theme: 'dark', mediaCacheBytes: 512 * 1024 ** 2, captionProfile: 'bbc-like', exportFolder: '/home/me/Exports' });
    // A nested key is replaced whole, with its own defaults filled in.
    expect(value.transcription).toEqual({ ...DEFAULT_SETTINGS.transcription, language: 'de', diarization: true });
    expect(heard).toEqual([value]);

    const again = open(dir);
    expect(await dispatch(again.handlers, 'settings.get', {})).toEqual({ ok: true, value });
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toMatchObject({ schemaVersion: SETTINGS_VERSION, theme: 'dark' });
  });

  it('changes only the keys a patch names', async () => {
    const { handlers, store } = open(tempDir('s2t-settings-'));
    await dispatch(handlers, 'settings.set', { theme: 'dark' });
    const next = await dispatch(handlers, 'settings.set', { captionProfile: 'short-form' });
    expect(next).toEqual({ ok: true, value: { ...DEFAULT_SETTINGS, theme: 'dark', captionProfile: 'short-form' } });
    expect(store.get().theme).toBe('dark');
  });

  it('migrates the settings.json of before (serviceUrl only) in place', () => {
    const dir = tempDir('s2t-settings-');
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ serviceUrl: 'https://stt.example.com' }));
    const { store } = open(dir);
    expect(store.get()).toEqual({ ...DEFAULT_SETTINGS, serviceUrl: 'https://stt.example.com' });
    const file = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'));
    expect(file.schemaVersion).toBe(SETTINGS_VERSION);
    expect(file.serviceUrl).toBe('https://stt.example.com');
  });

  it('refuses a value that fails the schema with the reason, and writes nothing', async () => {
    const dir = tempDir('s2t-settings-');
    const { handlers, store } = open(dir);
    await dispatch(handlers, 'settings.set', { theme: 'light' });
    const before = readFileSync(join(dir, 'settings.json'), 'utf8');
    const refused = await dispatch(handlers, 'settings.set', { theme: 'dark', mediaCacheBytes: -5 });
    expect(refused.ok).toBe(false);
    expect((refused as { error: { message: string } }).error.message).toMatch(/mediaCacheBytes/);
    const unknownKey = await dispatch(handlers, 'settings.set', { password: 'secret' });
    expect(unknownKey.ok).toBe(false);
    // Called directly (main's own callers), the store refuses in words too.
    expect(() => store.set({ lowConfidenceThreshold: 2 })).toThrow(/lowConfidenceThreshold/);
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(before);
    expect(store.get().theme).toBe('light');
  });

  it('refuses a file from a newer version and a malformed file, instead of resetting them', () => {
    const dir = tempDir('s2t-settings-');
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ schemaVersion: SETTINGS_VERSION + 1, theme: 'dark' }));
    expect(() => open(dir)).toThrow(/newer version/);
    const bad = tempDir('s2t-settings-');
    writeFileSync(join(bad, 'settings.json'), JSON.stringify({ schemaVersion: SETTINGS_VERSION, theme: 'purple' }));
    expect(() => open(bad)).toThrow(/theme/);
    expect(JSON.parse(readFileSync(join(bad, 'settings.json'), 'utf8')).theme).toBe('purple');
    expect(existsSync(join(dir, 'settings.json'))).toBe(true);
  });
});
