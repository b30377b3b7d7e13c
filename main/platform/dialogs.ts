/**
 * Native open and save dialogs and "show in folder", as the platform offers them. Electron has
 * them (main/platform/electron-dialogs.ts); plain Node (browser mode) has none, so its answers say
 * `supported: false` and the renderer uses a file input, a path field or a download instead.
 */
import type { OpenPurpose, SavePurpose } from '../../common/ipc/settings';

export interface OpenRequest {
  purpose: OpenPurpose;
  multiple: boolean;
  /** Where the dialog starts: the purpose's last folder, when there is one. */
  defaultPath?: string;
}

export interface SaveRequest {
  purpose: SavePurpose;
  /** The folder and the suggested name, joined. */
  defaultPath: string;
}

export interface Dialogs {
  readonly supported: boolean;
  /** The chosen paths; empty when cancelled. */
  open(req: OpenRequest): Promise<string[]>;
  /** The chosen path; null when cancelled. */
  save(req: SaveRequest): Promise<string | null>;
  showInFolder(path: string): void;
}

/** Browser mode: no native dialogs. */
export const noDialogs: Dialogs = {
  supported: false,
  open: async () => [],
  save: async () => null,
  showInFolder: () => {},
};

/** What each open purpose lets the user pick (extensions without the dot). */
export const OPEN_FILTERS: Record<Exclude<OpenPurpose, 'folder'>, { name: string; extensions: string[] }[]> = {
  media: [{ name: 'Audio and video', extensions: ['mp3', 'wav', 'm4a', 'aac', 'flac', 'ogg', 'opus', 'wma', 'mp4', 'm4v', 'mov', 'mkv', 'webm', 'avi', 'mpg', 'mpeg', 'mxf'] }],
  text: [{ name: 'Text', extensions: ['txt'] }],
  captions: [{ name: 'Captions and transcripts', extensions: ['srt', 'vtt', 'sbv', 'ttml', 'dfxp', 'xml', 'stl', 'txt', 'docx'] }],
};
