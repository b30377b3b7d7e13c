/**
 * The desktop shell around the app: native open and save dialogs, "show in folder", and the
 * application menu's commands. In browser mode the dialogs answer `supported: false` and the
 * renderer falls back to a file input, a path field or a download.
 */
import { z } from 'zod';
import { OpenedFiles } from './opened-files';
import { OpenPurpose, SavePurpose } from './settings';

const FilePath = z.string().min(1).max(4096);

export const AppCommand = z.enum(['new-transcription', 'export', 'find', 'preferences', 'shortcuts']);
export type AppCommand = z.infer<typeof AppCommand>;

/**
 * The embedded local service as supervised by main: restarting after a crash (the UI says so
 * instead of "Offline"), or failed after repeated tries. Cloud accounts are always 'running'.
 */
export const ServiceStatus = z.object({
  state: z.enum(['running', 'restarting', 'failed']),
  /** Tries since the last crash; 0 while running. */
  attempt: z.number().int().min(0),
  message: z.string().nullable(),
});
export type ServiceStatus = z.infer<typeof ServiceStatus>;

/** What Help and About shows: the app's version, where its data lives, and the licences of what it ships. */
export const AboutInfo = z.object({
  name: z.string().max(200),
  version: z.string().max(100),
  /** The folder with the app's settings, caches and this computer's service data. */
  dataDir: z.string().max(4096),
  /** The app's own documentation (README and docs/), where the app is installed; null when not shipped. */
  docsDir: z.string().max(4096).nullable(),
  runtime: z.string().max(200),
  licences: z.array(z.object({ name: z.string().max(214), version: z.string().max(100), licence: z.string().max(200) })).max(500),
});
export type AboutInfo = z.infer<typeof AboutInfo>;

/** One folder's sub-folders, for browser mode's folder browser (main/platform/folder-listing.ts). */
export const FolderListing = z.object({
  path: FilePath,
  /** null at the top of the file system. */
  parent: FilePath.nullable(),
  home: FilePath,
  folders: z.array(z.string().min(1).max(255)).max(2000),
  /** More folders than the listing holds: the person types the path instead. */
  truncated: z.boolean(),
});
export type FolderListing = z.infer<typeof FolderListing>;

export const shellChannels = {
  'app.about': { args: z.object({}), result: AboutInfo },
  'service.status': { args: z.object({}), result: ServiceStatus },
  /** Native open dialog (on the focused window, starting in the purpose's last folder). paths is empty when cancelled. */
  'dialog.open': {
    args: z.object({ purpose: OpenPurpose, multiple: z.boolean().default(false) }),
    result: z.object({ supported: z.boolean(), paths: z.array(FilePath) }),
  },
  /** Native save dialog; path is null when cancelled or unsupported. */
  'dialog.save': {
    args: z.object({ defaultName: z.string().min(1).max(255), purpose: SavePurpose.default('export') }),
    result: z.object({ supported: z.boolean(), path: FilePath.nullable() }),
  },
  /** The sub-folders of a folder (the home folder when no path is given), for the folder browser. */
  'folders.list': { args: z.object({ path: FilePath.optional(), showHidden: z.boolean().default(false) }), result: FolderListing },
  /** Reveals a file in the system's file manager. */
  'shell.showInFolder': { args: z.object({ path: FilePath }), result: z.object({ supported: z.boolean() }) },
} as const;

export type ShellChannelName = keyof typeof shellChannels;

export const shellEvents = {
  'service.status': ServiceStatus,
  /** A command from the application menu (Electron); the views it concerns listen for it. */
  'app.command': z.object({ command: AppCommand }),
  /** Files the system asked the app to open (main/shell/opened-files.ts). */
  'app.openFiles': OpenedFiles,
} as const;
