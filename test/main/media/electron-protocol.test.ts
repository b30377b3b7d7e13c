/**
 * The s2t-media:// protocol under a fake of Electron's `protocol` (the Electron binary cannot run
 * here): the scheme is privileged for streaming, a signed link plays the file with byte ranges,
 * and anything else is refused. Then the built Electron entry under the fake electron module
 * registers it before ready and serves it after.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Handlers } from '../../../main/ipc/registry';
import { bridgeMediaLinker } from '../../../main/ipc/media-route';
import { startWebBridge } from '../../../main/ipc/web-bridge';
import { handleMediaProtocol, MEDIA_SCHEME, registerMediaScheme, type ProtocolLike } from '../../../main/media/electron-protocol';
import { runFakeElectronMain } from '../../fixtures/fake-electron/run';
import { cleanup, tempDir } from '../../helpers/service';

const dir = tempDir('s2t-media-proto-');
afterAll(() => cleanup(dir));

function fakeProtocol() {
  const handlers = new Map<string, (r: Request) => Response | Promise<Response>>();
  const privileged: unknown[] = [];
  const protocol: ProtocolLike = {
    registerSchemesAsPrivileged: (schemes) => void privileged.push(...schemes),
    handle: (scheme, handler) => void handlers.set(scheme, handler),
  };
  return { protocol, handlers, privileged };
}

describe('s2t-media protocol', () => {
  const file = join(dir, 'talk.mp4');
  const bytes = randomBytes(100_000);
  writeFileSync(file, bytes);

  it('is registered as a standard, secure, streaming scheme', () => {
    const { protocol, privileged } = fakeProtocol();
    registerMediaScheme(protocol);
    expect(privileged).toEqual([{ scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true } }]);
  });

  it('plays a signed link with ranges, and refuses unsigned, tampered and foreign links', async () => {
    const { protocol, handlers } = fakeProtocol();
    const link = handleMediaProtocol(protocol, randomBytes(32));
    const serve = handlers.get(MEDIA_SCHEME)!;
    const url = link({ path: file, mediaType: 'video/mp4' });
    expect(url).toMatch(/^s2t-media:\/\/media\/\?/);

    const whole = await serve(new Request(url));
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await serve(new Request(url, { headers: { range: 'bytes=1000-1999' } }));
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);

    const tail = await serve(new Request(url, { headers: { range: 'bytes=99000-' } }));
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(99000))).toBe(true);

    const unsigned = new URL(url);
    unsigned.searchParams.delete('s');
    expect((await serve(new Request(unsigned.href))).status).toBe(403);
    const otherFile = new URL(url);
    otherFile.searchParams.set('f', Buffer.from('/etc/passwd').toString('base64url'));
    expect((await serve(new Request(otherFile.href))).status).toBe(403);
    // Links from another run (another key) open nothing.
    const foreign = fakeProtocol();
    const foreignUrl = handleMediaProtocol(foreign.protocol, randomBytes(32))({ path: file, mediaType: 'video/mp4' });
    expect((await serve(new Request(foreignUrl))).status).toBe(403);
    expect((await serve(new Request(url.replace('//media/', '//elsewhere/')))).status).toBe(404);
  });

  it("relays the service's media with ranges", async () => {
    const bridge = await startWebBridge({ handlers: {} as Handlers, staticDir: dir });
    try {
      const upstream = `http://127.0.0.1:${bridge.port}${bridgeMediaLinker(bridge.secret)({ path: file, mediaType: 'video/mp4' })}`;
      const { protocol, handlers } = fakeProtocol();
      const url = handleMediaProtocol(protocol, randomBytes(32))({ url: upstream, mediaType: 'video/mp4' });
      const serve = handlers.get(MEDIA_SCHEME)!;
      const part = await serve(new Request(url, { headers: { range: 'bytes=500-1499' } }));
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 500-1499/${bytes.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(500, 1500))).toBe(true);
      const down = handleMediaProtocol(protocol, randomBytes(32))({ url: 'http://127.0.0.1:1/x', mediaType: 'video/mp4' });
      expect((await handlers.get(MEDIA_SCHEME)!(new Request(down))).status).toBe(502);
    } finally {
      await bridge.close();
    }
  });

  it('is registered by the built Electron entry before ready and served after', async () => {
    const { report, code } = await runFakeElectronMain();
    expect(code).toBe(0);
    const r = report as unknown as { privilegedSchemes?: { scheme: string; privileges: Record<string, boolean> }[]; protocols?: string[] };
    expect(r.privilegedSchemes?.map((s) => s.scheme)).toEqual([MEDIA_SCHEME]);
    expect(r.privilegedSchemes?.[0].privileges.stream).toBe(true);
    expect(r.protocols).toEqual([MEDIA_SCHEME]);
  });
});
