/**
 * The web bridge's /media route over real HTTP: a signed link plays a file on this computer with
 * byte ranges exactly as the file has them; no link, a tampered or expired one, another Host, or
 * another run's token opens nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handlers } from '../../../main/ipc/registry';
import { bridgeMediaLinker } from '../../../main/ipc/media-route';
import { startWebBridge, type WebBridge } from '../../../main/ipc/web-bridge';
import { linkKey, LINK_TTL_MS, signedQuery } from '../../../main/media/links';
import { cleanup, tempDir } from '../../helpers/service';

let bridge: WebBridge;
let dir: string;
let file: string;
let bytes: Buffer;
let link: string;

beforeAll(async () => {
  dir = tempDir('s2t-media-route-');
  mkdirSync(join(dir, 'static'));
  writeFileSync(join(dir, 'static', 'index.html'), '<!doctype html>');
  file = join(dir, 'a recording é.wav');
  bytes = randomBytes(300_001);
  writeFileSync(file, bytes);
  bridge = await startWebBridge({ handlers: {} as Handlers, staticDir: join(dir, 'static') });
  link = bridgeMediaLinker(bridge.secret)({ path: file, mediaType: 'audio/wav' });
});
afterAll(async () => {
  await bridge?.close();
  cleanup(dir);
});

const at = (path: string) => `http://127.0.0.1:${bridge.port}${path}`;

describe('the bridge media route', () => {
  it('serves the whole file with its type and says it takes ranges', async () => {
    expect(link).toMatch(/^\/media\?/);
    expect(link).not.toContain(bridge.secret);
    const res = await fetch(at(link));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers ranges byte for byte as the file has them (206, Content-Range)', async () => {
    const n = bytes.length;
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=100-199', 100, 199],
      ['bytes=65536-', 65536, n - 1],
      ['bytes=-500', n - 500, n - 1],
      ['bytes=299990-400000', 299990, n - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await fetch(at(link), { headers: { range } });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${n}`);
      expect(res.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(res.headers.get('content-type')).toBe('audio/wav');
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('says 416 for a range past the end, and HEAD has the headers but no body', async () => {
    const past = await fetch(at(link), { headers: { range: `bytes=${bytes.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    const head = await fetch(at(link), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('refuses a link without a signature, with a tampered one, for another file, or expired', async () => {
    const q = new URLSearchParams(link.split('?')[1]);
    const without = new URLSearchParams(q);
    without.delete('s');
    expect((await fetch(at(`/media?${without}`))).status).toBe(403);
    expect((await fetch(at('/media'))).status).toBe(403);

    const sig = q.get('s')!;
    const tampered = new URLSearchParams(q);
    tampered.set('s', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    expect((await fetch(at(`/media?${tampered}`))).status).toBe(403);

    // The signature covers the path: another file under the same signature is refused.
    const other = new URLSearchParams(q);
    other.set('f', Buffer.from('/etc/passwd').toString('base64url'));
    expect((await fetch(at(`/media?${other}`))).status).toBe(403);

    // And the expiry: a later one under the old signature, or a link signed long ago.
    const later = new URLSearchParams(q);
    later.set('e', String(Number(q.get('e')) + 1000));
    expect((await fetch(at(`/media?${later}`))).status).toBe(403);
    const old = signedQuery(linkKey(bridge.secret), { path: file, mediaType: 'audio/wav' }, Date.now() - LINK_TTL_MS - 1000);
    const expired = await fetch(at(`/media?${old}`));
    expect(expired.status).toBe(403);
    expect(await expired.text()).toMatch(/expired/);

    // A link another run signed (another token) opens nothing here.
    const foreign = bridgeMediaLinker('another-runs-token')({ path: file, mediaType: 'audio/wav' });
    expect((await fetch(at(foreign))).status).toBe(403);
  });

  it('is not reachable under another Host, even with a good link', async () => {
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: bridge.port, path: link, headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await status(`127.0.0.1:${bridge.port}`)).toBe(200);
    expect(await status(`evil.example:${bridge.port}`)).toBe(421);
    expect(await status(`localhost.evil.example`)).toBe(421);
  });

  it("relays the service's media with the player's ranges, byte for byte", async () => {
    // The upstream: any server answering ranges; here the bridge's own link to the file.
    const upstream = at(link);
    const relay = bridgeMediaLinker(bridge.secret)({ url: upstream, mediaType: 'audio/wav' });
    expect(relay).not.toContain(String(bridge.port));
    const whole = await fetch(at(relay));
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(at(relay), { headers: { range: 'bytes=1000-70999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-70999/${bytes.length}`);
    expect(part.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 71000))).toBe(true);

    // The relayed URL is signed like a file: another URL under its signature, or f and u at once, is refused.
    const q = new URLSearchParams(relay.split('?')[1]);
    const other = new URLSearchParams(q);
    other.set('u', Buffer.from('http://127.0.0.1:1/elsewhere').toString('base64url'));
    expect((await fetch(at(`/media?${other}`))).status).toBe(403);
    const both = new URLSearchParams(q);
    both.set('f', Buffer.from(file).toString('base64url'));
    expect((await fetch(at(`/media?${both}`))).status).toBe(403);

    // A service that cannot be reached: 502, and the bridge goes on serving.
    const closed = bridgeMediaLinker(bridge.secret)({ url: 'http://127.0.0.1:1/media', mediaType: 'audio/mpeg' });
    const down = await fetch(at(closed));
    expect(down.status).toBe(502);
    expect(await down.text()).toMatch(/cannot be reached/);
    expect((await fetch(at(link), { method: 'HEAD' })).status).toBe(200);
  });

  it('says 404 for a signed file that is gone, and refuses other methods', async () => {
    const gone = bridgeMediaLinker(bridge.secret)({ path: join(dir, 'moved-away.wav'), mediaType: 'audio/wav' });
    expect((await fetch(at(gone))).status).toBe(404);
    expect((await fetch(at(link), { method: 'POST' })).status).toBe(405);
  });
});
