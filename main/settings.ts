/**
 * The app's settings: one zod schema (common/ipc/settings.ts), stored by the platform's store
 * (electron-store in Electron, its Node sibling `conf` in browser mode and the watch daemon: both
 * write settings.json in the data dir), with numbered migrations. A file written by a newer version
 * is refused, not guessed at; a malformed file is an error, not a silent default. Secrets never
 * live here (main/platform/secrets.ts).
 */
import { DEFAULT_SETTINGS, Settings, SettingsPatch, type Settings as SettingsValue } from '../common/ipc/settings';
import { issueText } from '../node/zod-issues';
import type { Handlers } from './ipc/registry';
import { UserFacingError } from './ipc/user-facing-error';
import type { SettingsFile } from './platform/settings-file';

/** The key that holds the stored shape's version (absent: the first, pre-migration settings.json). */
export const VERSION_KEY = 'schemaVersion';

type Raw = Record<string, unknown>;
/**
 * MIGRATIONS[n] turns a version-n file into version n+1. Append only: a released step never
 * changes. Version 0 is the settings.json of before: `{ serviceUrl?: string }` and nothing else.
 */
const MIGRATIONS: ((raw: Raw) => Raw)[] = [
  (v0) => ({ serviceUrl: typeof v0.serviceUrl === 'string' ? v0.serviceUrl : null }),
];
export const SETTINGS_VERSION = MIGRATIONS.length;

export class SettingsTooNewError extends Error {}

/** The file's content brought up to the current version, or why it cannot be. */
export function migrateSettings(stored: Raw, where: string): Raw {
  const { [VERSION_KEY]: version = 0, ...rest } = stored;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) throw new Error(`${where}: ${VERSION_KEY} is not a version number`);
  if (version > SETTINGS_VERSION) {
    throw new SettingsTooNewError(`${where} was written by a newer version of S2T Desktop (settings version ${version}; this one knows ${SETTINGS_VERSION}). Update the app, or move the file away to start over.`);
  }
  let raw: Raw = rest;
  for (let v = version; v < SETTINGS_VERSION; v++) raw = MIGRATIONS[v](raw);
  return raw;
}

export type SettingsListener = (settings: SettingsValue) => void;

export class SettingsStore {
  private value: SettingsValue;
  private readonly listeners = new Set<SettingsListener>();

  constructor(private readonly file: SettingsFile) {
    const stored = file.store as Raw;
    const raw = migrateSettings(stored, file.path);
    const parsed = Settings.safeParse(raw);
    if (!parsed.success) throw new Error(`${file.path}: ${issueText(parsed.error)}`);
    this.value = parsed.data;
    // Write back only what changed the shape (a migration, or defaults of a fresh file), once.
    if (stored[VERSION_KEY] !== SETTINGS_VERSION) this.write();
  }

  get(): SettingsValue {
    return this.value;
  }

  /** Replaces the keys `patch` holds (each validated whole); refuses the lot, with the reason, if one fails. */
  set(patch: unknown): SettingsValue {
    const checked = SettingsPatch.safeParse(patch);
    if (!checked.success) throw new UserFacingError('INVALID_SETTINGS', `Not saved: ${issueText(checked.error)}`);
    const next = Settings.parse({ ...this.value, ...checked.data });
    if (JSON.stringify(next) === JSON.stringify(this.value)) return this.value;
    this.value = next;
    this.write();
    for (const fn of this.listeners) fn(next);
    return next;
  }

  onChange(fn: SettingsListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private write(): void {
    this.file.store = { [VERSION_KEY]: SETTINGS_VERSION, ...this.value };
  }
}

/** The service a fresh start talks to: S2T_SERVICE_URL over the stored choice; null: the embedded one. */
export function effectiveServiceUrl(settings: SettingsValue, env: NodeJS.ProcessEnv = process.env): string | null {
  const fromEnv = env.S2T_SERVICE_URL;
  if (!fromEnv) return settings.serviceUrl;
  const parsed = Settings.shape.serviceUrl.safeParse(fromEnv);
  if (!parsed.success) throw new Error(`S2T_SERVICE_URL: ${issueText(parsed.error)}`);
  return parsed.data;
}

export function settingsHandlers(settings: SettingsStore): Pick<Handlers, 'settings.get' | 'settings.set'> {
  return {
    'settings.get': async () => settings.get(),
    'settings.set': async (patch) => settings.set(patch),
  };
}

export { DEFAULT_SETTINGS };
