/**
 * A watched folder never follows a link out of itself, against the real service with real
 * chokidar: a symlink named meeting.wav pointing at a private recording elsewhere, and a linked
 * subfolder leading to a private folder, were uploaded and answered with a transcript written
 * into the watched folder. Now they are skipped with a reason; the folder's own file still goes.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WatchProfile } from '../../common/ipc';
import { startService, tempDirs, type RunningService } from '../helpers/service';
import { countServiceRows } from '../helpers/service-db';
import { speechWav } from '../helpers/speech';
import { closeWatchTest, until, watchHarness, type Harness } from '../main/watch/helpers';

let svc: RunningService;
let h: Harness;
const dirs = tempDirs();

beforeAll(async () => {
  svc = await startService();
  h = watchHarness(svc.url, dirs.make('s2t-watch-links-data-'));
  await h.watch.start();
}, 60_000);

afterAll(() => closeWatchTest({ watchers: [h], svc, dirs }));

describe('links in a watched folder', () => {
  it('uploads the folder\'s own file, and neither a linked file nor a file inside a linked folder', async () => {
    const secret = dirs.make('s2t-private-');
    const privateWav = join(secret, 'private-call.wav');
    copyFileSync(await speechWav('The private call is about the bank account.'), privateWav);
    mkdirSync(join(secret, 'more'));
    copyFileSync(privateWav, join(secret, 'more', 'also-private.wav'));

    const watched = dirs.make('s2t-watched-links-');
    await h.watch.addFolder(watched, WatchProfile.parse({ language: 'en', subfolders: true, formats: [{ format: 'txt' }] }));
    symlinkSync(privateWav, join(watched, 'meeting.wav'));
    symlinkSync(join(secret, 'more'), join(watched, 'linked-folder'));
    const own = join(watched, 'own.wav');
    copyFileSync(await speechWav('Our own meeting starts at noon.'), own);

    await until('the own file delivered', () => h.progress.find((p) => p.path === own && p.state === 'delivered'), 120_000);
    const skipped = await until('the link skipped', () => h.progress.find((p) => p.path === join(watched, 'meeting.wav')), 10_000);
    expect(skipped.state).toBe('failed');
    expect(skipped.message).toMatch(/link to a file elsewhere/);
    // A settle window more for anything late, then: only the folder's own file went up.
    await new Promise((r) => setTimeout(r, 2000));
    expect(h.detected.map((d) => d.path)).toEqual([own]);
    expect(countServiceRows(svc.dataDir, 'uploads')).toBe(1);
    expect(readdirSync(watched).filter((n) => !n.startsWith('.')).sort()).toEqual(['linked-folder', 'meeting.wav', 'own.txt', 'own.wav']);
    expect(existsSync(join(secret, 'more', 'also-private.txt'))).toBe(false);
  });

  it('refuses at upload a file swapped for a link after it was found', async () => {
    const secret = dirs.make('s2t-private-swap-');
    const privateWav = join(secret, 'private.wav');
    copyFileSync(await speechWav('Nobody else should hear this.'), privateWav);
    const watched = dirs.make('s2t-watched-swap-');
    // Paused: the file is found and queued, but nothing is uploaded until it resumes.
    const folder = await h.watch.addFolder(watched, WatchProfile.parse({ language: 'en', formats: [{ format: 'txt' }] }));
    h.watch.pause(true, folder.id);
    const path = join(watched, 'talk.wav');
    copyFileSync(await speechWav('A talk of our own.'), path);
    await until('found', () => h.detected.find((d) => d.path === path), 30_000);
    // Swap: the found file becomes a link to the private one.
    rmSync(path);
    symlinkSync(privateWav, path);
    const uploadsBefore = countServiceRows(svc.dataDir, 'uploads');
    h.watch.pause(false, folder.id);
    const failed = await until('refused', () => h.progress.find((p) => p.path === path && p.state === 'failed'), 30_000);
    expect(failed.message).toMatch(/link to a file elsewhere/);
    expect(countServiceRows(svc.dataDir, 'uploads')).toBe(uploadsBefore);
    expect(existsSync(join(watched, 'talk.txt'))).toBe(false);
  });
});
