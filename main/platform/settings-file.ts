/**
 * Where settings are kept: settings.json in the data dir, written atomically with mode 0600.
 * `conf` in plain Node (browser mode, the watch daemon); Electron passes electron-store, conf's
 * own subclass, through the same interface (main/platform/electron-settings-file.ts).
 */
import Conf from 'conf';

/** The slice of conf / electron-store that main/settings.ts uses. */
export interface SettingsFile {
  /** The whole file: reading parses it, assigning writes it. */
  store: Record<string, unknown>;
  readonly path: string;
}

/** The options both stores take, so both write the same file the same way. */
export function settingsFileOptions(dataDir: string) {
  return {
    cwd: dataDir,
    configName: 'settings',
    // Keys are plain names; no dotted paths, no JSON Schema (zod in main/settings.ts checks), no
    // silent reset of a broken file: the app says what is wrong with it instead.
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
    configFileMode: 0o600,
    projectName: 's2t-desktop',
  } as const;
}

export function confSettingsFile(dataDir: string): SettingsFile {
  return new Conf<Record<string, unknown>>(settingsFileOptions(dataDir));
}
