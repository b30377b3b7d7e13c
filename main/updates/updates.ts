/**
 * Updates for the installed app, as a person meets them: what is new (the release notes from
 * latest.yml), a download with progress, and the install when the app restarts, only after the
 * person agrees. Runs under plain Node over electron-updater's own classes; main/platform/
 * electron-updater.ts hands it the Electron-side updater. A failed check is a quiet notice
 * (offline is normal), never an error box; a file whose SHA-512 differs from latest.yml's is
 * refused by electron-updater and reported the same way.
 */
import type { AppUpdater, ProgressInfo, UpdateInfo } from 'electron-updater';
import type { UpdateState } from '../../common/ipc';

export type { UpdateState };

/** The longest release notes shown; latest.yml is the server's to write. */
const MAX_NOTES_CHARS = 20_000;

/** Release notes as plain text: a string, or electron-updater's list of notes per version. */
export function notesText(info: Pick<UpdateInfo, 'releaseNotes'>): string {
  const notes = info.releaseNotes;
  const text = typeof notes === 'string' ? notes : Array.isArray(notes) ? notes.map((n) => `${n.version}\n${n.note ?? ''}`).join('\n\n') : '';
  // Notes may come as HTML: show the words, not the tags.
  return text.replace(/<[^>]*>/g, '').trim().slice(0, MAX_NOTES_CHARS);
}

/** A failure in words: no stack, no URL with its query. */
function quietMessage(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'ERR_CHECKSUM_MISMATCH' || /sha512 checksum mismatch/i.test(String((err as Error).message))) return 'The downloaded update did not match its published checksum and was discarded.';
  return 'Could not check for updates right now; S2T Desktop will try again later.';
}

export interface Updates {
  state(): UpdateState;
  onChange(listener: (state: UpdateState) => void): () => void;
  check(): Promise<UpdateState>;
  download(): Promise<UpdateState>;
  /** Installs the downloaded update and restarts; only after the person agreed. */
  installAndRestart(): void;
}

export function createUpdates(updater: AppUpdater): Updates {
  // Nothing happens without the person: no download before they ask, no install on quit unasked.
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  let current: UpdateState = { state: 'idle' };
  let found: { version: string; notes: string } | null = null;
  const listeners = new Set<(state: UpdateState) => void>();
  const set = (next: UpdateState) => {
    current = next;
    for (const l of listeners) l(next);
    return next;
  };
  updater.on('checking-for-update', () => set({ state: 'checking' }));
  updater.on('update-available', (info: UpdateInfo) => {
    found = { version: info.version.slice(0, 64), notes: notesText(info) };
    set({ state: 'available', ...found });
  });
  updater.on('update-not-available', (info: UpdateInfo) => set({ state: 'current', version: info.version }));
  updater.on('download-progress', (p: ProgressInfo) => {
    if (found) set({ state: 'downloading', ...found, percent: Math.round(p.percent), transferred: p.transferred, total: p.total });
  });
  updater.on('update-downloaded', () => {
    if (found) set({ state: 'ready', ...found });
  });
  // electron-updater also rejects the promise; the event alone would leave an error unlogged.
  updater.on('error', (err: Error) => set({ state: 'failed', message: quietMessage(err) }));
  return {
    state: () => current,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async check() {
      try {
        const result = await updater.checkForUpdates();
        if (!result) return set({ state: 'failed', message: 'Updates are checked only in the installed app.' });
      } catch (err) {
        set({ state: 'failed', message: quietMessage(err) });
      }
      return current;
    },
    async download() {
      if (!found) return current;
      try {
        await updater.downloadUpdate();
      } catch (err) {
        set({ state: 'failed', message: quietMessage(err) });
      }
      return current;
    },
    installAndRestart() {
      if (current.state === 'ready') updater.quitAndInstall(false, true);
    },
  };
}
