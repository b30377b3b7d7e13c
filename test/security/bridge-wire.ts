/**
 * The web bridge's wire, spoken by hand: raw HTTP request lines and raw WebSocket frames, so the
 * tests can send what no well-behaved client library would (a bare `%`, invalid UTF-8, a frame
 * that claims to be larger than the bridge allows).
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import { startApp, type RunningApp } from '../helpers/app';

/** Sends one raw request; resolves the status code (0 when the connection ended without one). */
export function rawRequest(port: number, requestLine: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (d) => {
      got += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0)));
    socket.write(`${requestLine}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, 'latin1');
  });
}

/** A masked client frame, as RFC 6455 section 5.2 draws it; `claimedLength` may lie. */
export function clientFrame(opcode: number, payload: Buffer, opts: { fin?: boolean; rsv?: number; claimedLength?: number } = {}): Buffer {
  const len = opts.claimedLength ?? payload.length;
  const head = [((opts.fin ?? true) ? 0x80 : 0) | ((opts.rsv ?? 0) << 4) | (opcode & 0x0f)];
  let ext = Buffer.alloc(0);
  if (len < 126) head.push(0x80 | len);
  else if (len < 65536) {
    head.push(0x80 | 126);
    ext = Buffer.alloc(2);
    ext.writeUInt16BE(len);
  } else {
    head.push(0x80 | 127);
    ext = Buffer.alloc(8);
    ext.writeBigUInt64BE(BigInt(len));
  }
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
  return Buffer.concat([Buffer.from(head), ext, mask, body]);
}

/** An upgraded raw socket on the bridge; `closed` resolves the close code the bridge sent (null: none). */
export function rawSocket(port: number, session: string): Promise<{ socket: Socket; closed: Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let upgraded = false;
    let code: number | null = null;
    socket.on('error', () => {});
    const closed = new Promise<number | null>((res) => socket.on('close', () => res(code)));
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(head.split('\r\n')[0]));
        upgraded = true;
        buf = buf.subarray(end + 4);
        resolve({ socket, closed });
      }
      // Server frames are unmasked; a close frame (opcode 8) carries its code in two bytes.
      while (buf.length >= 2) {
        const small = buf[1] & 0x7f;
        const [skip, len] = small === 126 ? [4, buf.readUInt16BE(2)] : small === 127 ? [10, Number(buf.readBigUInt64BE(2))] : [2, small];
        if (buf.length < skip + len) break;
        const isClose = (buf[0] & 0x0f) === 8;
        if (isClose && len >= 2) code = buf.readUInt16BE(skip);
        buf = buf.subarray(skip + len);
        // We have the close; hang up rather than play the closing handshake.
        if (isClose) socket.destroy();
      }
    });
    socket.write(
      [
        'GET /bridge HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Origin: http://127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        `Sec-WebSocket-Protocol: s2t.${session}`,
        '',
        '',
      ].join('\r\n'),
    );
  });
}

/** A well-behaved client on the bridge, as the renderer is. */
export async function bridgeClient(port: number, session: string): Promise<{ ws: WebSocket; call(channel: unknown, args?: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, [`s2t.${session}`], { headers: { origin: `http://127.0.0.1:${port}` } });
  await new Promise((res, rej) => ws.once('open', res).once('error', rej));
  let next = 1;
  const pending = new Map<number, (reply: { ok: boolean }) => void>();
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data));
    if (typeof frame.id === 'number') pending.get(frame.id)?.(frame.reply);
  });
  return {
    ws,
    call: (channel, args = {}) =>
      new Promise((resolve) => {
        const id = next++;
        pending.set(id, resolve);
        ws.send(JSON.stringify({ id, channel, args }));
      }),
  };
}

/** The built browser-mode app for one test file, with its bridge's port and a session (set once it runs). */
export function browserModeAppPerFile(): { app: RunningApp; port: number; token: string } {
  const it = {} as { app: RunningApp; port: number; token: string };
  beforeAll(async () => {
    it.app = await startApp();
    it.port = Number(new URL(it.app.url).port);
    it.token = await it.app.newSession();
  }, 90_000);
  afterAll(() => it.app?.stop());
  return it;
}
