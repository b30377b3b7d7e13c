/**
 * The web bridge: serves the built renderer and carries the IPC contract over one WebSocket, so
 * the same UI runs in a plain browser (browser mode, tests in Chromium). It listens on 127.0.0.1
 * only; every request must name us in Host (no DNS rebinding), the WebSocket must come from our
 * own Origin, and it must present a session as its subprotocol. A page gets its session once, by
 * spending the one-time ticket of a printed address at the admit route (main/ipc/admission.ts).
 * Nothing a client sends can stop it: every malformed request or frame gets an error answer (an
 * HTTP status, an error reply, or a close code) and the bridge keeps serving.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import { ADMIT_PATH, ADMIT_REFUSED, ADMIT_TICKET_HEADER, BRIDGE_PATH, STAGE_PATH, TOKEN_PROTOCOL_PREFIX, type BridgeFrame, type EventName, type EventPayload } from '../../common/ipc';
import { isFile } from '../platform/is-file';
import { createAdmission } from './admission';
import { readBinaryRequest } from './binary-frame';
import { dispatch, type Handlers } from './registry';
import { MEDIA_ROUTE, serveMediaRoute } from './media-route';
import { serveStageRoute } from './stage-route';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' http://127.0.0.1:* blob:; connect-src 'self' ws://127.0.0.1:* ws://localhost:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

export interface WebBridge {
  /** The first address to open, with a one-time ticket in the fragment (never sent to a server or logged). */
  url: string;
  /** A fresh address, for another browser (its ticket too admits one page once). */
  newUrl(): string;
  /** Where it listens: the port asked for, or a free one when that was taken. */
  port: number;
  /** This run's secret: the key of its media links (main/ipc/media-route.ts); never printed. */
  secret: string;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  close(): Promise<void>;
}

/** The largest frame a client may send: a long transcript saved whole fits many times over. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** A request frame; `channel` and `args` are checked by dispatch against the contract. */
const RequestFrame = z.object({ id: z.number().int().nonnegative(), channel: z.unknown(), args: z.unknown() });

/** The request's URL; null when it is not well formed (`//`, a bad host part). */
function requestUrl(rawUrl: string | undefined): URL | null {
  try {
    return new URL(rawUrl ?? '/', 'http://x');
  } catch {
    return null;
  }
}

/** A path decoded; null for a malformed escape (a bare `%`). */
function decodedPath(url: URL): string | null {
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
}

export async function startWebBridge(opts: { handlers: Handlers; staticDir: string; port?: number; /** Where browser-mode files are staged (stage-route.ts); none: the route is not served. */ dataDir?: string }): Promise<WebBridge> {
  const secret = randomBytes(24).toString('base64url');
  const admission = createAdmission();
  let port = 0;
  const hosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const origins = () => hosts().map((h) => `http://${h}`);
  const hostOk = (req: IncomingMessage) => hosts().includes(String(req.headers.host ?? '').toLowerCase());

  const serveStatic = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const path = decodedPath(url);
    if (path === null || path.includes('\0')) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request path');
      return;
    }
    const file = normalize(join(opts.staticDir, path === '/' ? 'index.html' : path));
    // Only the kinds of file the renderer is made of: no source maps, nothing else that lands in dist.
    const mime = Object.hasOwn(MIME, extname(file)) ? MIME[extname(file)] : undefined;
    const servable = mime && file.startsWith(normalize(opts.staticDir) + sep) && (await isFile(file));
    if (!servable) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': mime, 'cache-control': 'no-cache' });
    if (req.method === 'HEAD') res.end();
    // A read error (the file went away mid-read) ends this response, not the process.
    else pipeline(createReadStream(file), res, () => {});
  };

  /** A ticket in, a session out, once; only from our own pages (the header forces a CORS preflight too). */
  const serveAdmit = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    if (!origins().includes(String(req.headers.origin ?? ''))) return answer(403, { error: 'only S2T Desktop\'s own page may ask' });
    const ticket = req.headers[ADMIT_TICKET_HEADER];
    const session = typeof ticket === 'string' ? admission.admit(ticket) : null;
    if (!session) return answer(401, { error: ADMIT_REFUSED });
    answer(200, { session });
  };

  const server = createServer((req, res) => {
    res.on('error', () => res.destroy());
    if (!hostOk(req)) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('unexpected Host header');
      return;
    }
    const url = requestUrl(req.url);
    if (!url) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request path');
      return;
    }
    // The bridge routes by path; each route checks its own credential (a session header, a signed link).
    if (url.pathname === ADMIT_PATH) serveAdmit(req, res);
    else if (url.pathname === STAGE_PATH && opts.dataDir) serveStageRoute(req, res, url, opts.dataDir, admission.sessionOk);
    else if (url.pathname === MEDIA_ROUTE) serveMediaRoute(req, res, url, secret);
    else void serveStatic(req, res, url).catch(() => res.destroy());
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    handleProtocols: (protocols) => [...protocols].find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX)) ?? false,
  });
  const clients = new Set<WebSocket>();

  /** One frame in, one answer out: JSON, or a binary frame carrying bytes (binary-frame.ts). */
  const onFrame = async (ws: WebSocket, data: RawData, isBinary: boolean) => {
    if (isBinary) {
      const request = readBinaryRequest(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer));
      if ('refused' in request) return void ws.close(1003, request.refused);
      return answer(ws, request.id, await dispatch(opts.handlers, request.channel, request.args));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      ws.close(1003, 'frames must be JSON');
      return;
    }
    const frame = RequestFrame.safeParse(parsed);
    if (!frame.success) {
      // Without an id there is nothing to answer to: say why in the close.
      ws.close(1008, 'frames are {id, channel, args}');
      return;
    }
    const { id, channel, args } = frame.data;
    answer(ws, id, await dispatch(opts.handlers, channel, args));
  };
  const answer = (ws: WebSocket, id: number, reply: Awaited<ReturnType<typeof dispatch>>) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, reply } satisfies BridgeFrame));
  };

  server.on('upgrade', (req, socket, head) => {
    // A client that resets mid-handshake must not take the process with it.
    socket.on('error', () => socket.destroy());
    const refuse = (status: number, reason: string) => {
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    const url = requestUrl(req.url);
    if (!url) return refuse(400, 'Bad Request');
    if (url.pathname !== BRIDGE_PATH) return refuse(404, 'Not Found');
    if (!hostOk(req)) return refuse(421, 'Misdirected Request');
    if (!origins().includes(String(req.headers.origin ?? ''))) return refuse(403, 'Forbidden');
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX));
    if (!offered || !admission.sessionOk(offered.slice(TOKEN_PROTOCOL_PREFIX.length))) return refuse(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      ws.on('close', () => clients.delete(ws));
      // ws reports an oversized frame, invalid UTF-8 or a protocol violation here, then closes
      // the socket with the matching code (1009, 1007, 1002); without a listener it would throw.
      ws.on('error', () => ws.terminate());
      // Whatever slips through (a reply that cannot be serialized) closes this socket: an
      // unhandled rejection would end the process.
      ws.on('message', (data, isBinary) => void onFrame(ws, data, isBinary).catch(() => ws.close(1011, 'internal error')));
    });
  });

  const listen = (at: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen(opts.port ?? 0);
  } catch (err) {
    // A port asked for (--port) that another program holds now: serve on a free one (the address
    // changes at every start anyway, its tickets with it) rather than not start.
    if (!opts.port || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    await listen(0);
  }
  port = (server.address() as AddressInfo).port;

  const newUrl = () => `http://127.0.0.1:${port}/#token=${admission.newTicket()}`;
  return {
    url: newUrl(),
    newUrl,
    port,
    secret,
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
