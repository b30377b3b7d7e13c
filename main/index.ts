/**
 * Electron entry: one window, hardened per Electron's security checklist, wired to the same
 * backend as browser mode. Everything of substance lives in Electron-free modules.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, screen, session, shell, utilityProcess } from 'electron';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBackend, type Backend } from './backend';
import { CacheTooNewError } from './cache/open';
import { electronUpdates } from './platform/electron-updater';
import { openedFilesQueue } from './opened-files';
import { registerElectronTransport, sendEvent } from './ipc/electron-transport';
import { handleMediaProtocol, registerMediaScheme } from './media/electron-protocol';
import { ElectronSecretStore } from './platform/electron-secrets';
import { utilityProcessLauncher } from './platform/electron-service-process';
import { electronDialogs } from './platform/electron-dialogs';
import { menuTemplate } from './platform/electron-menu';
import { electronSettingsFile } from './platform/electron-settings-file';
import { restoreBounds, trackWindowState } from './platform/window-state';
import { allowMediaCheck, allowMediaRequest } from './platform/media-permission';

const here = dirname(fileURLToPath(import.meta.url));
const rendererIndex = join(here, '..', 'renderer', 'index.html');
const rendererUrl = pathToFileURL(rendererIndex).href;
let backend: Backend | undefined;
let win: BrowserWindow | null = null;

app.enableSandbox();
const primaryInstance = app.requestSingleInstanceLock();
if (!primaryInstance) app.quit();
// Files the system asks us to open (associated types): in the command line on Windows and Linux,
// as open-file on macOS, which may come before ready; held until the window is there.
const opened = openedFilesQueue();
opened.fromArgv(process.argv, process.cwd());
app.on('open-file', (ev, path) => {
  ev.preventDefault();
  opened.fromOpenFile(path);
});
// A second start (a double-click on the icon, or on a file) brings the running window forward instead.
app.on('second-instance', (_ev, argv, workingDirectory) => {
  opened.fromArgv(argv, workingDirectory);
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
});
// The player reads files on this computer through s2t-media:// (main/media/electron-protocol.ts).
registerMediaScheme(protocol);

app.on('web-contents-created', (_e, contents) => {
  // No navigation away from the app, by a link, a redirect or a subframe, and no new windows;
  // https links open in the browser.
  const stayHome = (ev: { url: string; preventDefault(): void }) => ev.url !== rendererUrl && ev.preventDefault();
  contents.on('will-navigate', stayHome);
  contents.on('will-redirect', stayHome);
  contents.on('will-frame-navigate', stayHome);
  contents.setWindowOpenHandler(({ url }) => {
    // A web page, or a message to write in the person's mail app (a share e-mail that was not sent).
    if (url.startsWith('https://') || url.startsWith('mailto:')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (ev) => ev.preventDefault());
});

async function createWindow(): Promise<void> {
  // Where it was last time, on a display that is still there (main/platform/window-state.ts).
  const displays = [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((d) => d.workArea);
  const { maximized, ...bounds } = restoreBounds(backend?.settings.get().window ?? null, displays);
  win = new BrowserWindow({
    ...bounds,
    title: 'S2T Desktop',
    show: false,
    webPreferences: { preload: join(here, '..', 'preload', 'index.cjs'), contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true },
  });
  if (maximized) win.maximize();
  const settings = backend?.settings;
  if (settings) trackWindowState(win, (window) => settings.set({ window }));
  win.once('ready-to-show', () => win?.show());
  await win.loadFile(rendererIndex);
}

app.whenReady().then(async () => {
  if (!primaryInstance) return;
  // The app's own page may capture audio (live transcription); every other request is refused,
  // and checks (navigator.permissions, device enumeration) say no to all else.
  session.defaultSession.setPermissionRequestHandler((wc, permission, callback, details) =>
    callback(wc === win?.webContents && allowMediaRequest(permission, details.requestingUrl, rendererUrl, 'mediaTypes' in details ? details.mediaTypes : undefined)),
  );
  session.defaultSession.setPermissionCheckHandler((wc, permission, _origin, details) => wc === win?.webContents && allowMediaCheck(permission, details.requestingUrl, rendererUrl));
  session.defaultSession.setDevicePermissionHandler(() => false);
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate({ platform: process.platform, appName: app.name, send: (command) => win && sendEvent(win.webContents, 'app.command', { command }) })));
  const dataDir = app.getPath('userData');
  const secrets = new ElectronSecretStore(safeStorage, join(dataDir, 'secrets.json'), { allowBasicText: process.env.S2T_ALLOW_BASIC_TEXT_SECRETS === '1' });
  // Only an installed build has a feed (app-update.yml) to check.
  const updates = app.isPackaged ? electronUpdates() : undefined;
  backend = await startBackend({
    dataDir,
    secrets,
    launchService: utilityProcessLauncher(utilityProcess),
    settingsFile: electronSettingsFile(dataDir),
    dialogs: electronDialogs({ dialog, shell, window: () => BrowserWindow.getFocusedWindow() ?? win }),
    // Single sign-on happens in the person's own browser (RFC 8252), never in an app window.
    openExternal: (url) => shell.openExternal(url),
    updates,
  });
  registerElectronTransport(ipcMain, backend.handlers, (event) => event.senderFrame?.url === rendererUrl && event.sender === win?.webContents);
  backend.setEventSink((event, payload) => win && sendEvent(win.webContents, event, payload));
  backend.media.setLinker(handleMediaProtocol(protocol, randomBytes(32)));
  await createWindow();
  opened.attach((files) => win && sendEvent(win.webContents, 'app.openFiles', files));
  // Quietly: a failed check is a notice in the About box, never a dialog.
  void updates?.check();
}).catch((err: Error) => {
  process.stderr.write(`S2T Desktop could not start: ${err.message}\n`);
  // A cache from a newer version: a window-less exit would look like a crash, so say why first.
  if (err instanceof CacheTooNewError) dialog.showErrorBox('S2T Desktop cannot open its data', err.message);
  app.exit(1);
});

app.on('window-all-closed', () => app.quit());
app.on('will-quit', (ev) => {
  if (!backend) return;
  ev.preventDefault();
  const b = backend;
  backend = undefined;
  void b.close().finally(() => app.quit());
});
