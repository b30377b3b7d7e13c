/**
 * The channels of the desktop shell: dialog.open, dialog.save and shell.showInFolder over the
 * platform's dialogs, each dialog starting in the last folder used for its purpose (remembered in
 * settings), folders.list for browser mode's folder browser (which has no native dialog),
 * service.status from the embedded service's supervisor, and app.about (main/about.ts).
 */
import { basename, dirname, join } from 'node:path';
import type { ServiceStatus } from '../common/ipc/shell';
import { aboutApp } from './about';
import { listFolders } from './platform/folder-listing';
import type { Handlers } from './ipc/registry';
import type { Dialogs } from './platform/dialogs';
import type { SettingsStore } from './settings';

export type ShellHandlers = Pick<Handlers, 'dialog.open' | 'dialog.save' | 'folders.list' | 'shell.showInFolder' | 'service.status' | 'app.about'>;

export function shellHandlers(dialogs: Dialogs, settings: SettingsStore, serviceStatus: () => ServiceStatus, dataDir: string): ShellHandlers {
  const remember = (purpose: Parameters<Handlers['dialog.open']>[0]['purpose'] | 'export', folder: string) =>
    settings.set({ lastFolders: { ...settings.get().lastFolders, [purpose]: folder } });
  return {
    'dialog.open': async ({ purpose, multiple }) => {
      if (!dialogs.supported) return { supported: false, paths: [] };
      const paths = await dialogs.open({ purpose, multiple, defaultPath: settings.get().lastFolders[purpose] });
      if (paths.length) remember(purpose, purpose === 'folder' ? paths[0] : dirname(paths[0]));
      return { supported: true, paths };
    },
    'dialog.save': async ({ defaultName, purpose }) => {
      if (!dialogs.supported) return { supported: false, path: null };
      const s = settings.get();
      const folder = s.lastFolders[purpose] ?? s.exportFolder;
      // Only a name is suggested: a path in defaultName must not steer where the dialog opens.
      const name = basename(defaultName);
      const path = await dialogs.save({ purpose, defaultPath: folder ? join(folder, name) : name });
      if (path) remember(purpose, dirname(path));
      return { supported: true, path };
    },
    // Starts where the person last chose a folder, as the native dialog does.
    'folders.list': async ({ path, showHidden }) => {
      const last = path === undefined ? settings.get().lastFolders.folder : undefined;
      return (last && (await listFolders(last, showHidden).catch(() => null))) || listFolders(path, showHidden);
    },
    'shell.showInFolder': async ({ path }) => {
      if (!dialogs.supported) return { supported: false };
      dialogs.showInFolder(path);
      return { supported: true };
    },
    'service.status': async () => serviceStatus(),
    'app.about': async () => aboutApp(dataDir),
  };
}
