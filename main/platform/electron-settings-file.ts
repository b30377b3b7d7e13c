/** Settings in the Electron app: electron-store (conf for Electron) writing the same settings.json. */
import ElectronStore from 'electron-store';
import { settingsFileOptions, type SettingsFile } from './settings-file';

export function electronSettingsFile(dataDir: string): SettingsFile {
  const { configName, ...rest } = settingsFileOptions(dataDir);
  return new ElectronStore<Record<string, unknown>>({ ...rest, name: configName });
}
