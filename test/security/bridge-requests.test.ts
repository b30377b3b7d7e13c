/**
 * Single requests that could end browser mode. Each one is sent to the built
 * app (dist/main/headless.js) over real HTTP or a real WebSocket; each now gets an error answer,
 * and the same process goes on serving pages and calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/service';
import { browserModeAppPerFile, bridgeClient, clientFrame, rawRequest, rawSocket } from './bridge-wire';

const bridge = browserModeAppPerFile();

/** The process runs, serves its page and answers a call on a fresh socket. */
async function stillServing(): Promise<void> {
  expect(bridge.app.child.exitCode).toBeNull();
  expect(bridge.app.child.signalCode).toBeNull();
  expect((await fetch(`http://127.0.0.1:${bridge.port}/`)).status).toBe(200);
  const { ws, call } = await bridgeClient(bridge.port, bridge.token);
  expect(await call('auth.state')).toMatchObject({ ok: true, value: { mode: 'local' } });
  ws.close();
}

describe('browser mode survives hostile requests', () => {
  it('answers a malformed percent-encoding (an <img src="/%"> on any page) with 400', async () => {
    expect(await rawRequest(bridge.port, 'GET /% HTTP/1.1')).toBe(400);
    expect(await rawRequest(bridge.port, 'GET /assets/%E0%A4%A HTTP/1.1')).toBe(400);
    await stillServing();
  });

  it('answers a path that is no URL path (`//`) and a NUL byte with 400', async () => {
    expect(await rawRequest(bridge.port, 'GET // HTTP/1.1')).toBe(400);
    expect(await rawRequest(bridge.port, 'GET /index.html%00.js HTTP/1.1')).toBe(400);
    await stillServing();
  });

  it('refuses a handshake on a malformed path, then serves the next one', async () => {
    const status = await rawRequest(bridge.port, `GET // HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${'A'.repeat(22)}==`);
    expect(status).toBe(400);
    await stillServing();
  });

  it('answers a null frame and a frame without an id by closing that socket (1008)', async () => {
    for (const text of ['null', '42', '"x"', '[]', '{"channel":"auth.state"}', '{"id":"1","channel":"auth.state"}']) {
      const { socket, closed } = await rawSocket(bridge.port, bridge.token);
      socket.write(clientFrame(1, Buffer.from(text)));
      expect(await closed, text).toBe(1008);
    }
    await stillServing();
  });

  it('answers a frame whose channel is not a string with UNKNOWN_CHANNEL on the same socket', async () => {
    const { ws, call } = await bridgeClient(bridge.port, bridge.token);
    // String() of this object throws: it has a toString that is not a function.
    for (const channel of [{ toString: 0 }, { toString: 0, valueOf: 0 }, null, 7, ['auth.state'], true]) {
      expect(await call(channel), JSON.stringify(channel)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    }
    expect(await call('auth.state')).toMatchObject({ ok: true });
    ws.close();
    await stillServing();
  });

  it('closes a socket that announces an oversized frame with 1009, without reading it', async () => {
    const { socket, closed } = await rawSocket(bridge.port, bridge.token);
    socket.write(clientFrame(1, Buffer.from('{'), { claimedLength: 2 ** 40 }));
    expect(await closed).toBe(1009);
    await stillServing();
  });

  it('closes a socket that sends invalid UTF-8 with 1007, and one that breaks the protocol with 1002', async () => {
    const bad = await rawSocket(bridge.port, bridge.token);
    bad.socket.write(clientFrame(1, Buffer.from([0x7b, 0xc3, 0x28, 0xff, 0x7d])));
    expect(await bad.closed).toBe(1007);
    const reserved = await rawSocket(bridge.port, bridge.token);
    reserved.socket.write(clientFrame(0x3, Buffer.from('x')));
    expect(await reserved.closed).toBe(1002);
    await stillServing();
  });

  it('serves no source map, and the bundle names none', async () => {
    const assets = join(ROOT, 'dist/renderer/assets');
    const js = readdirSync(assets).find((f) => f.endsWith('.js'))!;
    expect(readFileSync(join(assets, js), 'utf8')).not.toContain('sourceMappingURL');
    // The map is on disk (for reading stack traces) but the bridge will not hand it out.
    expect(readdirSync(assets)).toContain(`${js}.map`);
    expect((await fetch(`http://127.0.0.1:${bridge.port}/assets/${js}.map`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${bridge.port}/assets/${js}`)).status).toBe(200);
  });
});
