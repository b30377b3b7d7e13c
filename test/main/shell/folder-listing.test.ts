/**
 * The folder listing behind browser mode's folder browser (main/platform/folder-listing.ts), on
 * real folders: folders only (a link to a folder counts, a link to a file or nowhere does not),
 * hidden ones only when asked, in a person's order, capped, and errors in words.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { listFolders, MAX_FOLDERS } from '../../../main/platform/folder-listing';

const dir = mkdtempSync(join(tmpdir(), 's2t-folders-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('lists the folders and links to folders, by name as a person sorts them, hidden ones when asked', async () => {
  for (const name of ['Recordings', 'archive', 'take 10', 'take 9', '.cache']) mkdirSync(join(dir, name));
  writeFileSync(join(dir, 'notes.txt'), 'x');
  symlinkSync(join(dir, 'Recordings'), join(dir, 'shortcut'));
  symlinkSync(join(dir, 'notes.txt'), join(dir, 'notes-link'));
  symlinkSync(join(dir, 'gone'), join(dir, 'broken'));

  const listing = await listFolders(dir, false);
  expect(listing).toEqual({ path: dir, parent: tmpdir(), home: homedir(), folders: ['archive', 'Recordings', 'shortcut', 'take 9', 'take 10'], truncated: false });
  expect((await listFolders(dir, true)).folders).toEqual(['.cache', 'archive', 'Recordings', 'shortcut', 'take 9', 'take 10']);
  // The top of the file system has no parent; no path means the home folder.
  expect((await listFolders('/', false)).parent).toBeNull();
  expect((await listFolders(undefined, false)).path).toBe(homedir());
});

it('refuses a relative path, a missing folder and a file, in words', async () => {
  await expect(listFolders('Recordings', false)).rejects.toThrow('Recordings: give a full path (starting with /).');
  await expect(listFolders(join(dir, 'nowhere'), false)).rejects.toThrow(`${join(dir, 'nowhere')}: This folder does not exist.`);
  await expect(listFolders(join(dir, 'notes.txt'), false)).rejects.toThrow('This is a file, not a folder.');
});

it(`lists at most ${MAX_FOLDERS} folders and says there are more`, async () => {
  const many = join(dir, 'many');
  mkdirSync(many);
  for (let i = 0; i <= MAX_FOLDERS; i++) mkdirSync(join(many, `f${i}`));
  const listing = await listFolders(many, false);
  expect(listing.folders).toHaveLength(MAX_FOLDERS);
  expect(listing.truncated).toBe(true);
  expect(listing.folders.slice(0, 3)).toEqual(['f0', 'f1', 'f2']);
});
