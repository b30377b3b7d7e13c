/**
 * The web bridge: serves the built renderer and carries the IPC contract over one WebSocket, so
 * the same UI runs in a plain browser (browser mode, tests in Chromium). It listens on 127.0.0.1
 * only; every request must name us in Host (no DNS rebinding), the WebSocket must come from our
 * own Origin, and it must present this run's random token as its subprotocol.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { BRIDGE_PATH, TOKEN_PROTOCOL_PREFIX, type BridgeFrame, type EventName, type EventPayload } from '../../common/ipc';
import { dispatch, type Handlers } from './registry';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' http://127.0.0.1:* blob:; connect-src 'self' ws://127.0.0.1:* ws://localhost:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

export interface WebBridge {
  /** The address to open, with the token in the fragment (never sent to a server or logged). */
  url: string;
  port: number;
  token: string;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  close(): Promise<void>;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function startWebBridge(opts: { handlers: Handlers; staticDir: string; port?: number; token?: string }): Promise<WebBridge> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  let port = 0;
  const hosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const origins = () => hosts().map((h) => `http://${h}`);
  const hostOk = (req: IncomingMessage) => hosts().includes(String(req.headers.host ?? '').toLowerCase());

  const serveStatic = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(opts.staticDir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(normalize(opts.staticDir) + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': MIME[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  };

  const server = createServer((req, res) => {
    if (!hostOk(req)) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('unexpected Host header');
      return;
    }
    serveStatic(req, res);
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024 * 1024,
    handleProtocols: (protocols) => [...protocols].find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX)) ?? false,
  });
  const clients = new Set<WebSocket>();

  server.on('upgrade', (req, socket, head) => {
    const refuse = (status: number, reason: string) => {
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (new URL(req.url ?? '/', 'http://x').pathname !== BRIDGE_PATH) return refuse(404, 'Not Found');
    if (!hostOk(req)) return refuse(421, 'Misdirected Request');
    if (!origins().includes(String(req.headers.origin ?? ''))) return refuse(403, 'Forbidden');
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX));
    if (!offered || !sameSecret(offered.slice(TOKEN_PROTOCOL_PREFIX.length), token)) return refuse(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      ws.on('close', () => clients.delete(ws));
      ws.on('message', async (data) => {
        let msg: { id?: unknown; channel?: unknown; args?: unknown };
        try {
          msg = JSON.parse(String(data));
        } catch {
          ws.close(1003, 'frames must be JSON');
          return;
        }
        if (typeof msg.id !== 'number') return;
        const reply = await dispatch(opts.handlers, msg.channel, msg.args);
        const frame: BridgeFrame = { id: msg.id, reply };
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    token,
    emit(event, payload) {
      const frame = JSON.stringify({ event, payload } satisfies BridgeFrame);
      for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(frame);
    },
    async close() {
      for (const ws of clients) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
