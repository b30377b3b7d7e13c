/**
 * A watched folder hands over only its own files: a symbolic link dropped into it (named
 * meeting.wav, pointing at a private file elsewhere) must never be read, uploaded or answered
 * with a transcript. Files are checked by lstat and realpath before they are queued and again
 * before upload, and opened with O_NOFOLLOW, so a link swapped in after a check is not read either.
 */
import { constants } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';

/** Open flags for reading a watched file: a symbolic link in its place fails (ELOOP) instead of being followed. */
export const READ_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW;

export const LINK_REASON = 'a link to a file elsewhere: S2T does not follow links out of a watched folder';

/**
 * Whether `path` is a plain file (not a link) whose real location is inside `root`'s: false
 * for a link, for a file reached through a linked folder that leads out, and for a missing file.
 */
export async function ownFileOf(root: string, path: string): Promise<boolean> {
  const st = await lstat(path).catch(() => null);
  if (!st || !st.isFile()) return false;
  const [realRoot, real] = await Promise.all([realpath(root), realpath(path)]).catch(() => [null, null]);
  if (!realRoot || !real) return false;
  const rel = relative(realRoot, real);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
