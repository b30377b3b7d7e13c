/** Native dialogs in the Electron app, on the focused window (modal to it), and "show in folder". */
import type { BrowserWindow, Dialog, OpenDialogOptions, Shell } from 'electron';
import { OPEN_FILTERS, type Dialogs } from './dialogs';

/** The slices of Electron this needs (the fake electron module stands in for them in tests). */
export interface ElectronDialogDeps {
  dialog: Pick<Dialog, 'showOpenDialog' | 'showSaveDialog'>;
  shell: Pick<Shell, 'showItemInFolder'>;
  /** The window the dialog belongs to: the focused one, else the app's window. */
  window(): BrowserWindow | null;
}

const SAVE_TITLES = { export: 'Export' } as const;

export function electronDialogs(deps: ElectronDialogDeps): Dialogs {
  return {
    supported: true,
    async open({ purpose, multiple, defaultPath }) {
      const options: OpenDialogOptions = {
        defaultPath,
        properties: purpose === 'folder' ? ['openDirectory', 'createDirectory'] : multiple ? ['openFile', 'multiSelections'] : ['openFile'],
        filters: purpose === 'folder' ? undefined : [...OPEN_FILTERS[purpose], { name: 'All files', extensions: ['*'] }],
      };
      const win = deps.window();
      const result = await (win ? deps.dialog.showOpenDialog(win, options) : deps.dialog.showOpenDialog(options));
      return result.canceled ? [] : result.filePaths;
    },
    async save({ purpose, defaultPath }) {
      const options = { title: SAVE_TITLES[purpose], defaultPath, properties: ['createDirectory', 'showOverwriteConfirmation'] as ('createDirectory' | 'showOverwriteConfirmation')[] };
      const win = deps.window();
      const result = await (win ? deps.dialog.showSaveDialog(win, options) : deps.dialog.showSaveDialog(options));
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    showInFolder: (path) => deps.shell.showItemInFolder(path),
  };
}
