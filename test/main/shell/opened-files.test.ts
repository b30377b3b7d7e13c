/**
 * Files the system asks the app to open: which paths of a command line or of macOS's open-file the
 * app takes (main/opened-files.ts), and the built Electron entry under the fake electron sending
 * them to the window (open-file before ready, a second start's argv with its working directory).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { OpenedFiles } from '../../../common/ipc';
import { openedFiles, openedFilesQueue } from '../../../main/opened-files';
import { runFakeElectronMain } from '../../fixtures/fake-electron/run';

const dir = mkdtempSync(join(tmpdir(), 's2t-opened-'));
const file = (name: string) => {
  writeFileSync(join(dir, name), 'x');
  return join(dir, name);
};
const talk = file('Talk.MP3');
const clip = file('clip.webm');
const subs = file('talk.srt');
const notes = file('notes.txt');
mkdirSync(join(dir, 'folder.wav'));

it('takes existing files of the associated types, media together and the first caption file', () => {
  expect(openedFiles([talk, notes, join(dir, 'gone.wav'), join(dir, 'folder.wav'), clip, talk, subs, file('more.vtt')])).toEqual({ media: [talk, clip], captions: subs });
  expect(openedFiles([notes, '/nowhere/x.mp3'])).toBeNull();
});

it('passes over the program and its flags in a command line, resolves relative paths from its folder, and holds files until the window is there', () => {
  const queue = openedFilesQueue();
  queue.fromArgv(['/opt/S2T Desktop/s2t-desktop', '--no-sandbox', 'clip.webm', talk], dir);
  const sent: OpenedFiles[] = [];
  queue.attach((f) => sent.push(f));
  expect(sent).toEqual([{ media: [clip, talk], captions: null }]);
  queue.fromArgv(['s2t', subs], '/');
  expect(sent[1]).toEqual({ media: [], captions: subs });
});

it('the Electron entry sends a file opened before ready and a second start\'s files to the window', async () => {
  const { report, code, stderr } = await runFakeElectronMain({
    env: { FAKE_ELECTRON_OPEN_FILES: JSON.stringify([talk]), FAKE_ELECTRON_SECOND_ARGV: JSON.stringify(['s2t-desktop', '--flag', 'talk.srt', 'notes.txt']), FAKE_ELECTRON_SECOND_CWD: dir },
  });
  expect(code, stderr).toBe(0);
  const opened = report.sent.filter((s) => s.channel === 's2t:event:app.openFiles').map((s) => s.payload as OpenedFiles);
  expect({ media: opened.flatMap((o) => o.media), captions: opened.map((o) => o.captions).find(Boolean) }).toEqual({ media: [talk], captions: subs });
}, 90_000);
