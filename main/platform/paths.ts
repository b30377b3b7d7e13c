import { homedir } from 'node:os';
import { join } from 'node:path';

/** The platform's per-user app-data dir (XDG on Linux), as Electron's userData would be. */
export function appDataDir(appName = 'S2T Desktop'): string {
  if (process.env.S2T_DATA_DIR) return process.env.S2T_DATA_DIR;
  switch (process.platform) {
    case 'win32':
      return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), appName);
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', appName);
    default:
      return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 's2t-desktop');
  }
}
