/**
 * Which paths a watched folder never queues: hidden and temp files, partial downloads, our own
 * outputs and the folders we write into (so an output folder inside a watched folder never loops).
 */
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import type { WatchFolder } from '../../common/ipc';

/** Names of unfinished downloads and editors' temporary files. */
const PARTIAL = /\.(part|partial|crdownload|download|tmp|temp|swp|opdownload|!ut|aria2|filepart)$/i;
/** Prefixes of temp files: Office lock files, our own atomic-write temp files and the like. */
const TEMP_PREFIX = /^(~\$|\.~|\.s2t-|\.#)/;

/** Subfolders a profile writes into: the output folder, and done/ and failed/ when sources move. */
export const DONE_DIR = 'done';
export const FAILED_DIR = 'failed';

export function outputDirOf(folder: WatchFolder): string | null {
  if (folder.profile.output !== 'folder' || !folder.profile.outputDir) return null;
  return isAbsolute(folder.profile.outputDir) ? resolve(folder.profile.outputDir) : resolve(folder.path, folder.profile.outputDir);
}

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!!rel && !rel.startsWith('..') && !isAbsolute(rel));
}

export interface IgnoreRule {
  /** True skips the path (and, for a directory, everything under it); kind unknown checks the name only. */
  (path: string, kind?: 'file' | 'dir'): boolean;
}

export function ignoreRule(folder: WatchFolder): IgnoreRule {
  const root = resolve(folder.path);
  const skipDirs = [outputDirOf(folder), folder.profile.afterwards === 'move' ? resolve(root, DONE_DIR) : null, folder.profile.afterwards === 'move' ? resolve(root, FAILED_DIR) : null].filter((d): d is string => !!d && d !== root);
  const include = folder.profile.include.length ? picomatch(folder.profile.include, { dot: false }) : null;
  const exclude = folder.profile.exclude.length ? picomatch(folder.profile.exclude, { dot: false }) : null;
  return (path: string, kind?: 'file' | 'dir') => {
    const abs = resolve(path);
    if (abs === root) return false;
    if (!inside(abs, root)) return true;
    if (skipDirs.some((d) => inside(abs, d))) return true;
    const name = basename(abs);
    if (name.startsWith('.') || name.endsWith('~') || TEMP_PREFIX.test(name)) return true;
    const rel = relative(root, abs).split(sep).join('/');
    if (kind === 'dir') return !folder.profile.subfolders || (exclude?.(rel) ?? false);
    if (kind !== 'file') return false;
    if (PARTIAL.test(name)) return true;
    if (!folder.profile.subfolders && rel.includes('/')) return true;
    if (exclude?.(rel)) return true;
    if (include && !include(rel) && !include(name)) return true;
    return false;
  };
}
