/**
 * A watched folder never follows a link out of itself, against the real service with real
 * chokidar: a symlink named meeting.wav pointing at a private recording elsewhere, and a linked
 * subfolder leading to a private folder, were uploaded and answered with a transcript written
 * into the watched folder. Now they are skipped with a reason; the folder's own file still goes.
 * A file swapped for a link while its upload starts is not read through the link either: the
 * upload reads the descriptor that was opened (O_NOFOLLOW) and checked, never the path again.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TUS_PATH } from '../../common/api';
import { WatchProfile } from '../../common/ipc';
import { startService, tempDirs, type RunningService } from '../helpers/service';
import { countServiceRows, readServiceDb } from '../helpers/service-db';
import { speechWav } from '../helpers/speech';
import { closeWatchTest, countingProxy, until, watchHarness, type CountingProxy, type Harness } from '../main/watch/helpers';

let svc: RunningService;
let h: Harness;
const dirs = tempDirs();
const swapHarnesses: Harness[] = [];
const proxies: CountingProxy[] = [];

beforeAll(async () => {
  svc = await startService();
  h = watchHarness(svc.url, dirs.make('s2t-watch-links-data-'));
  await h.watch.start();
}, 60_000);

afterAll(() => closeWatchTest({ watchers: [h, ...swapHarnesses], proxies, svc, dirs }));

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

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The bytes the service stored for an item's upload: the batch upload's file, or the legacy session's media. */
function storedUpload(item: { file_id: string | null; session_id: string | null; method: string | null }): string {
  return readServiceDb(svc.dataDir, (db) =>
    item.method === 'legacy'
      ? (db.prepare('SELECT media_path FROM sessions WHERE session_id = ?').pluck().get(item.session_id) as string)
      : (db.prepare('SELECT path FROM uploads WHERE file_id = ?').pluck().get(item.file_id) as string),
  );
}

describe('a file swapped for a link as its upload begins', () => {
  // Each way of uploading, with the swap made at the first request that carries (or, for tus,
  // announces) the file: after the queue's check, before a byte of the file is read.
  const ways = [
    { method: 'multipart', onFetch: /\/batch\/upload$/, onProxy: null, hide: undefined, tusThresholdBytes: undefined },
    { method: 'tus', onFetch: null, onProxy: TUS_PATH, hide: undefined, tusThresholdBytes: 1 },
    { method: 'legacy', onFetch: /\/speech-to-text\/session\/[^/]+$/, onProxy: null, hide: /^\/api\/v3\/batch\//, tusThresholdBytes: undefined },
  ] as const;

  for (const way of ways) {
    it(`${way.method}: the folder's own file is sent, not the file the link points at`, async () => {
      const secret = dirs.make(`s2t-private-${way.method}-`);
      const privateWav = join(secret, 'private.wav');
      copyFileSync(await speechWav('Nobody else should hear this.'), privateWav);
      const watched = dirs.make(`s2t-watched-${way.method}-`);
      const path = join(watched, 'talk.wav');
      copyFileSync(await speechWav('A talk of our own.'), path);
      const own = sha256(path);
      let swaps = 0;
      const swap = () => {
        if (swaps++ > 0) return;
        rmSync(path);
        symlinkSync(privateWav, path);
      };
      const proxy = await countingProxy(svc.url, {
        hide: way.hide,
        drop: (method, url) => (way.onProxy !== null && method === 'POST' && url.startsWith(way.onProxy) && swap(), false),
      });
      proxies.push(proxy);
      const fetchThenSwap: typeof fetch = (input, init) => {
        if (way.onFetch?.test(new URL(String(input)).pathname) && init?.body) swap();
        return fetch(input, init);
      };
      const harness = watchHarness(proxy.url, dirs.make('s2t-watch-swap-data-'), { fetch: fetchThenSwap, tusThresholdBytes: way.tusThresholdBytes });
      swapHarnesses.push(harness);
      await harness.watch.start();
      await harness.watch.addFolder(watched, WatchProfile.parse({ language: 'en', formats: [{ format: 'txt' }] }));

      // The link the swap leaves may be reported on its own; this is the item of the file found first.
      const found = await until('found', () => harness.detected.find((d) => d.path === path), 30_000);
      const sent = await until('the upload done', () => harness.progress.find((p) => p.itemId === found.itemId && (p.state === 'transcribing' || p.state === 'failed')), 60_000);
      expect(swaps).toBe(1);
      expect(sent.message).toBeNull();
      const item = harness.watch.store.item(sent.itemId)!;
      expect(item.method).toBe(way.method);
      expect(sha256(storedUpload(item))).toBe(own);
      expect(sha256(storedUpload(item))).not.toBe(sha256(privateWav));
    }, 90_000);
  }
});
