/**
 * The folders inside a folder, for the folder browser browser mode shows where the Electron app has
 * a native folder dialog. Names only, folders only (a link to a folder counts), hidden ones left
 * out unless asked for, at most MAX_FOLDERS of them; errors in words a person understands.
 */
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { FolderListing } from '../../common/ipc/shell';

export const MAX_FOLDERS = 2000;

const REASONS: Record<string, string> = {
  ENOENT: 'This folder does not exist.',
  ENOTDIR: 'This is a file, not a folder.',
  EACCES: 'This folder cannot be read (permission denied).',
  EPERM: 'This folder cannot be read (permission denied).',
  ELOOP: 'This folder is a loop of links.',
};

function explain(e: unknown, path: string): Error {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  return new Error(`${path}: ${REASONS[code] ?? `it cannot be opened (${code || (e as Error).message}).`}`);
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Lists `path` (an absolute path; the home folder when none is given). */
export async function listFolders(path: string | undefined, showHidden: boolean): Promise<FolderListing> {
  if (path !== undefined && !isAbsolute(path)) throw new Error(`${path}: give a full path (starting with ${process.platform === 'win32' ? 'a drive letter' : '/'}).`);
  const at = resolve(path ?? homedir());
  let entries;
  try {
    entries = await readdir(at, { withFileTypes: true });
  } catch (e) {
    throw explain(e, at);
  }
  const names: string[] = [];
  for (const d of entries) {
    if (!showHidden && d.name.startsWith('.')) continue;
    if (d.isDirectory() || (d.isSymbolicLink() && (await isFolder(join(at, d.name))))) names.push(d.name);
  }
  names.sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }));
  const parent = dirname(at);
  return { path: at, parent: parent === at ? null : parent, home: homedir(), folders: names.slice(0, MAX_FOLDERS), truncated: names.length > MAX_FOLDERS };
}
