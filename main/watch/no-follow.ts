/**
 * A watched folder hands over only its own files: a symbolic link dropped into it (named
 * meeting.wav, pointing at a private file elsewhere) must never be read, uploaded or answered
 * with a transcript. Files are checked by lstat and realpath before they are queued; at upload
 * the file is opened once with O_NOFOLLOW, the open descriptor is checked, and the upload reads
 * that descriptor, so a file swapped for a link after any check is never read.
 */
import { constants } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { Fail } from './item-failure';

/** Open flags for reading a watched file: a symbolic link in its place fails (ELOOP) instead of being followed. */
export const READ_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW;

export const LINK_REASON = 'a link to a file elsewhere: S2T does not follow links out of a watched folder';

const inside = (realRoot: string, real: string) => {
  const rel = relative(realRoot, real);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/**
 * Whether `path` is a plain file (not a link) whose real location is inside `root`'s: false
 * for a link, for a file reached through a linked folder that leads out, and for a missing file.
 */
export async function ownFileOf(root: string, path: string): Promise<boolean> {
  const st = await lstat(path).catch(() => null);
  if (!st || !st.isFile()) return false;
  const [realRoot, real] = await Promise.all([realpath(root), realpath(path)]).catch(() => [null, null]);
  if (!realRoot || !real) return false;
  return inside(realRoot, real);
}

/** Where an open descriptor's file really is: exact on Linux (/proc), else null. */
async function realPathOfDescriptor(fh: FileHandle): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  return realpath(`/proc/self/fd/${fh.fd}`).catch(() => null);
}

/**
 * Opens a watched folder's own file for upload, or answers null: opened without following a
 * link (ELOOP), then the descriptor itself is checked: a regular file whose real place is inside
 * `root`. Where the system cannot name a descriptor's path, the path must still lead inside and
 * to the very file that is open (same device and inode). The caller reads the handle, never the
 * path again, and closes it.
 */
export async function openOwnFile(root: string, path: string): Promise<FileHandle | null> {
  const fh = await open(path, READ_NO_FOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!fh) return null;
  try {
    const st = await fh.stat();
    const realRoot = await realpath(root);
    if (st.isFile()) {
      const real = await realPathOfDescriptor(fh);
      if (real !== null ? inside(realRoot, real) : await sameFileInside(realRoot, path, st)) return fh;
    }
  } catch {
    // a file gone or unreadable meanwhile: not the folder's own
  }
  await fh.close();
  return null;
}

async function sameFileInside(realRoot: string, path: string, open: { dev: number; ino: number }): Promise<boolean> {
  const real = await realpath(path);
  const st = await lstat(real);
  return st.isFile() && st.dev === open.dev && st.ino === open.ino && inside(realRoot, real);
}

/** Opens a file the person picked (imports): a link they chose is followed, but it must be a regular file. */
async function openPickedFile(path: string): Promise<FileHandle | null> {
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
  if (!fh) return null;
  if ((await fh.stat().catch(() => null))?.isFile()) return fh;
  await fh.close();
  return null;
}

/** The file to upload, open: a watched folder's own file (`root`), or a picked one (root null); else a Fail that says why. */
export async function openForUpload(root: string | null, path: string): Promise<FileHandle> {
  const handle = root === null ? await openPickedFile(path) : await openOwnFile(root, path);
  if (!handle) throw new Fail(root === null ? 'the file is gone or is not a regular file' : LINK_REASON);
  return handle;
}
