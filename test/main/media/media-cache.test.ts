/**
 * The kept copies of the service's media (main/media/media-cache.ts) against a real HTTP server
 * on loopback that serves media bytes as a service's media_url does: one download however many
 * ask at once, a cut download never counted, the bound kept by dropping the least recently used.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MEDIA_CACHE_BYTES, MediaCache } from '../../../main/media/media-cache';
import { MediaStore } from '../../../main/media/store';
import { cleanup, tempDir } from '../../helpers/service';

const media = new Map<string, Buffer>();
const requests: string[] = [];
let server: Server;
let base: string;
const dirs: string[] = [];

beforeAll(async () => {
  for (const [name, size] of [['a', 40_000], ['b', 50_000], ['c', 60_000], ['big', 500_000]] as const) media.set(name, randomBytes(size));
  server = createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    requests.push(name);
    if (name === 'cut') {
      // Declares 100 kB, sends 10 kB, then drops the connection: a download cut short.
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': '100000' });
      res.write(randomBytes(10_000), () => setTimeout(() => res.destroy(), 20));
      return;
    }
    const body = media.get(name);
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'audio/mpeg; charset=binary', 'content-length': String(body.length) });
    // In two halves, so a second ask arrives while the first download is still under way.
    res.write(body.subarray(0, body.length / 2));
    setTimeout(() => res.end(body.subarray(body.length / 2)), 50);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  for (const d of dirs) cleanup(d);
});

function open(limit: number, dir = tempDir('s2t-media-cache-')) {
  dirs.push(dir);
  const store = new MediaStore(join(dir, 'media.db'));
  let now = 1000;
  const cache = new MediaCache({ dir: join(dir, 'kept'), store, limitBytes: () => limit, now: () => now++ });
  return { dir, store, cache, close: async () => (await cache.close(), store.close()) };
}

describe('media cache', () => {
  it('downloads once however many ask at once, and keeps the bytes as served', async () => {
    const { cache, close } = open(DEFAULT_MEDIA_CACHE_BYTES);
    requests.length = 0;
    const first = cache.keep('acct', 's-a', `${base}/a`);
    const second = cache.keep('acct', 's-a', `${base}/a`);
    expect(await first.mediaType).toBe('audio/mpeg');
    expect(await second.mediaType).toBe('audio/mpeg');
    // Not kept until it is whole.
    expect(cache.use('acct', 's-a')).toBeNull();
    await cache.downloading('acct', 's-a');
    expect(requests).toEqual(['a']);
    const kept = cache.use('acct', 's-a')!;
    expect(kept.mediaType).toBe('audio/mpeg');
    expect(readFileSync(kept.path).equals(media.get('a')!)).toBe(true);
    // Per account: another account's session of the same id has nothing kept.
    expect(cache.use('other', 's-a')).toBeNull();
    await close();
  });

  it('never counts a download cut short, and leaves no partial file', async () => {
    const { dir, cache, store, close } = open(DEFAULT_MEDIA_CACHE_BYTES);
    const d = cache.keep('acct', 's-cut', `${base}/cut`);
    expect(await d.mediaType).toBe('audio/mpeg');
    await d.done;
    expect(cache.use('acct', 's-cut')).toBeNull();
    expect(store.totalCachedBytes()).toBe(0);
    expect(readdirSync(join(dir, 'kept'))).toEqual([]);
    // A 404 is no copy either, and says so to whoever waits for the type.
    const missing = cache.keep('acct', 's-none', `${base}/none`);
    await expect(missing.mediaType).rejects.toThrow(/404/);
    await close();
  });

  it('stays under its bound by dropping the least recently played copies', async () => {
    // 40 + 50 + 60 kB do not fit in 120 kB: the one played longest ago goes.
    const { dir, cache, store, close } = open(120_000);
    for (const name of ['a', 'b']) await cache.keep('acct', `s-${name}`, `${base}/${name}`).done;
    expect(store.totalCachedBytes()).toBe(90_000);
    // a is played again, so b is now the least recently used.
    expect(cache.use('acct', 's-a')).not.toBeNull();
    await cache.keep('acct', 's-c', `${base}/c`).done;
    expect(store.totalCachedBytes()).toBeLessThanOrEqual(120_000);
    expect(cache.use('acct', 's-b')).toBeNull();
    expect(cache.use('acct', 's-a')).not.toBeNull();
    expect(cache.use('acct', 's-c')).not.toBeNull();
    // The files on disk are exactly the kept ones.
    expect(readdirSync(join(dir, 'kept')).sort()).toEqual([...store.cachedFiles()].sort());
    // Media larger than the whole bound is played from the service but not kept.
    const big = cache.keep('acct', 's-big', `${base}/big`);
    expect(await big.mediaType).toBe('audio/mpeg');
    await big.done;
    expect(cache.use('acct', 's-big')).toBeNull();
    expect(cache.use('acct', 's-c')).not.toBeNull();
    await close();
  });

  it('drops copies at once when the bound is lowered', async () => {
    let limit = DEFAULT_MEDIA_CACHE_BYTES;
    const dir = tempDir('s2t-media-cache-');
    dirs.push(dir);
    const store = new MediaStore(join(dir, 'media.db'));
    const cache = new MediaCache({ dir: join(dir, 'kept'), store, limitBytes: () => limit });
    for (const name of ['a', 'b', 'c']) await cache.keep('acct', `s-${name}`, `${base}/${name}`).done;
    expect(store.totalCachedBytes()).toBe(150_000);
    limit = 70_000;
    cache.evict();
    // a and b were played longest ago; c (60 kB) alone fits.
    expect(store.totalCachedBytes()).toBe(60_000);
    expect(cache.use('acct', 's-c')).not.toBeNull();
    expect(readdirSync(join(dir, 'kept'))).toHaveLength(1);
    limit = 0;
    cache.evict();
    expect(store.totalCachedBytes()).toBe(0);
    expect(readdirSync(join(dir, 'kept'))).toEqual([]);
    await cache.close();
    store.close();
  });

  it('clears partial files and strays left by a run that ended, keeping finished copies', async () => {
    const first = open(DEFAULT_MEDIA_CACHE_BYTES);
    await first.cache.keep('acct', 's-a', `${base}/a`).done;
    await first.close();
    writeFileSync(join(first.dir, 'kept', 'x.part'), 'half');
    writeFileSync(join(first.dir, 'kept', 'stray'), 'nobody');
    const again = open(DEFAULT_MEDIA_CACHE_BYTES, first.dir);
    expect(existsSync(join(first.dir, 'kept', 'x.part'))).toBe(false);
    expect(existsSync(join(first.dir, 'kept', 'stray'))).toBe(false);
    expect(readFileSync(again.cache.use('acct', 's-a')!.path).equals(media.get('a')!)).toBe(true);
    await again.close();
  });
});
