/**
 * What a drop of folders brings to the New transcription dialog (renderer/src/imports/pickedFiles.ts):
 * folders are walked through every readEntries batch and every subfolder, hidden files are passed
 * over, files that are not audio or video are counted as left out, and a single dropped file is
 * always kept (main says why it refuses it). Headless Chromium cannot make a real folder drop, so
 * the entries are small stand-ins with the FileSystemEntry API's shape; the Files are real.
 */
import { describe, expect, it } from 'vitest';
import { looksLikeMedia, readDrop } from '../../renderer/src/imports/pickedFiles';

type Entry = { name: string; isFile: boolean; isDirectory: boolean; file?: (ok: (f: File) => void) => void; createReader?: () => { readEntries: (ok: (e: Entry[]) => void) => void } };

function fileEntry(name: string, type = ''): Entry {
  return { name, isFile: true, isDirectory: false, file: (ok) => ok(new File(['x'], name, { type })) };
}

/** A folder whose reader answers in batches of `batch` entries, then an empty batch, as Chromium's does. */
function dirEntry(name: string, children: Entry[], batch = 2): Entry {
  return {
    name,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok) => {
          const out = children.slice(at, at + batch);
          at += out.length;
          setTimeout(() => ok(out));
        },
      };
    },
  };
}

function drop(entries: Entry[]): DataTransfer {
  return { items: entries.map((e) => ({ kind: 'file', webkitGetAsEntry: () => e, getAsFile: () => null })), files: [] } as unknown as DataTransfer;
}

describe('a drop of files and folders', () => {
  it('walks folders through every batch and subfolder, keeping media and counting the rest', async () => {
    const dt = drop([
      dirEntry('Recordings', [
        fileEntry('monday.wav', 'audio/wav'),
        fileEntry('.DS_Store'),
        fileEntry('notes.txt', 'text/plain'),
        fileEntry('meeting.MP4'),
        dirEntry('older', [fileEntry('january.m4a'), fileEntry('cover.jpg', 'image/jpeg'), dirEntry('.cache', [fileEntry('x.wav', 'audio/wav')])]),
      ]),
      fileEntry('readme.mp3'),
    ]);
    const got = await readDrop(dt);
    expect(got.files.map((f) => f.name).sort()).toEqual(['january.m4a', 'meeting.MP4', 'monday.wav', 'readme.mp3']);
    expect(got.leftOut).toBe(2);
  });

  it('takes the files of a drop that has no entries (a synthetic DataTransfer)', async () => {
    const file = new File(['x'], 'talk.webm', { type: 'video/webm' });
    const got = await readDrop({ items: [{ kind: 'file', webkitGetAsEntry: () => null, getAsFile: () => file }], files: [file] } as unknown as DataTransfer);
    expect(got.files).toEqual([file]);
    expect(got.leftOut).toBe(0);
  });

  it('tells media by type or by extension', () => {
    expect(looksLikeMedia(new File([''], 'a', { type: 'audio/ogg' }))).toBe(true);
    expect(looksLikeMedia(new File([''], 'clip.MOV'))).toBe(true);
    expect(looksLikeMedia(new File([''], 'clip.mov.txt', { type: 'text/plain' }))).toBe(false);
  });
});
