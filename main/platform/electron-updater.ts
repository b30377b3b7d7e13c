/**
 * The installed app's updater: electron-updater's autoUpdater (its feed is the `publish` entry of
 * electron-builder.yml, written into the app as app-update.yml), behind main/updates/updates.ts,
 * which holds everything that runs without Electron.
 */
import updaterPackage from 'electron-updater';
import { createUpdates, type Updates } from '../updates/updates';

export function electronUpdates(): Updates {
  const { autoUpdater } = updaterPackage;
  // Its default logger writes every check to the console; failures reach the person as a notice.
  autoUpdater.logger = null;
  return createUpdates(autoUpdater);
}
