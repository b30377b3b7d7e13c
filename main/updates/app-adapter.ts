/** electron-updater's view of the app, from plain values: what it reads of Electron's `app`. */
import type { AppAdapter } from 'electron-updater/out/AppAdapter';

export function appAdapter(app: { version: string; name: string; isPackaged: boolean; appUpdateConfigPath: string; userDataPath: string; cachePath: string; relaunch?(): void; quit?(): void }): AppAdapter {
  return {
    version: app.version,
    name: app.name,
    isPackaged: app.isPackaged,
    appUpdateConfigPath: app.appUpdateConfigPath,
    userDataPath: app.userDataPath,
    baseCachePath: app.cachePath,
    whenReady: () => Promise.resolve(),
    relaunch: () => app.relaunch?.(),
    quit: () => app.quit?.(),
    onQuit: () => {},
  };
}
