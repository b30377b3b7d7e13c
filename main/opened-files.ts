/**
 * Files the system asks the app to open: on Windows and Linux their paths arrive in the command
 * line (process.argv at start, second-instance's argv when the app already runs), on macOS in
 * open-file events, which can come before the window exists. This decides which of them the app
 * opens (existing files whose extension the installer associated) and holds them until the
 * renderer is there to open New transcription with them.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { MAX_OPENED_FILES, openableKind, type OpenedFiles } from '../common/ipc';

export interface OpenedFilesQueue {
  /** A command line: the paths in it the app opens (the program and its flags are passed over). */
  fromArgv(argv: readonly string[], cwd: string): void;
  /** One path from macOS's open-file. */
  fromOpenFile(path: string): void;
  /** The renderer is there: what waited goes now, and later files at once. */
  attach(send: (files: OpenedFiles) => void): void;
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** The files in `paths` the app opens, as one request; null when none. */
export function openedFiles(paths: readonly string[]): OpenedFiles | null {
  const media: string[] = [];
  let captions: string | null = null;
  for (const path of paths) {
    const kind = openableKind(path);
    if (!kind || !isFile(path)) continue;
    if (kind === 'media' && media.length < MAX_OPENED_FILES && !media.includes(path)) media.push(path);
    // One caption file makes one session: the first one given.
    if (kind === 'captions') captions ??= path;
  }
  return media.length || captions ? { media, captions } : null;
}

export function openedFilesQueue(): OpenedFilesQueue {
  let send: ((files: OpenedFiles) => void) | null = null;
  const waiting: string[] = [];
  const flush = () => {
    if (!send || !waiting.length) return;
    const files = openedFiles(waiting.splice(0));
    if (files) send(files);
  };
  return {
    fromArgv(argv, cwd) {
      for (const arg of argv.slice(1)) {
        if (arg.startsWith('-') || !openableKind(arg)) continue;
        if (waiting.length < MAX_OPENED_FILES) waiting.push(isAbsolute(arg) ? arg : resolve(cwd, arg));
      }
      flush();
    },
    fromOpenFile(path) {
      if (waiting.length < MAX_OPENED_FILES) waiting.push(path);
      // Files opened in one go come as one event each, back to back: open them as one request.
      setTimeout(flush, 50);
    },
    attach(fn) {
      send = fn;
      flush();
    },
  };
}
