/**
 * A recording HTTP proxy in front of the real local service, for tests that must see or disturb
 * the traffic: count requests, answer one route with an error without forwarding it, cut the
 * connection after the service applied a request (a lost response), or corrupt an answer.
 * When the service is down, the client's connection is cut too, so the client sees "no answer".
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  /** Path and query. */
  url: string;
  /** The service's status; 0 when the service could not be reached, -1 when the proxy answered itself. */
  status: number;
  /** The answer was cut off after the service applied the request. */
  dropped: boolean;
  at: number;
}

export interface ProxyRules {
  /** Answer without forwarding (status, JSON body), e.g. a 500 for one poisoned route. */
  answer?: (method: string, url: string) => { status: number; body: unknown } | undefined;
  /** After the service answered: 'drop' cuts the connection; a Buffer replaces the body. */
  after?: (method: string, url: string, status: number, body: Buffer) => 'drop' | Buffer | undefined;
}

export interface RecordingProxy {
  url: string;
  seen: Seen[];
  rules: ProxyRules;
  /** Drops the answer of the next request matching `match` (once). */
  dropNext(match: (method: string, url: string) => boolean): void;
  close(): Promise<void>;
}

export async function recordingProxy(target: string, rules: ProxyRules = {}): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const seen: Seen[] = [];
  let dropOnce: ((method: string, url: string) => boolean) | null = null;
  const proxy: RecordingProxy = {
    url: '',
    seen,
    rules,
    dropNext: (match) => (dropOnce = match),
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const method = req.method!;
      const url = req.url!;
      const record = (status: number, dropped = false) => seen.push({ method, url, status, dropped, at: Date.now() });
      const canned = proxy.rules.answer?.(method, url);
      if (canned) {
        record(-1);
        res.writeHead(canned.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(canned.body));
        return;
      }
      const fwd = request({ host: upstream.hostname, port: upstream.port, method, path: url, headers: { ...req.headers, host: upstream.host } }, (up) => {
        const body: Buffer[] = [];
        up.on('data', (d: Buffer) => body.push(d));
        up.on('end', () => {
          const status = up.statusCode!;
          let out: Buffer = Buffer.concat(body);
          const drop = dropOnce?.(method, url) ? 'drop' : undefined;
          const change = drop ?? proxy.rules.after?.(method, url, status, out);
          if (change === 'drop') {
            if (drop) dropOnce = null;
            record(status, true);
            req.socket.destroy(); // the service applied it; the client never hears
            return;
          }
          record(status);
          if (change) out = change;
          const headers = { ...up.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          res.writeHead(status, { ...headers, 'content-length': String(out.length) });
          res.end(out);
        });
      });
      fwd.on('error', () => {
        record(0);
        req.socket.destroy();
      });
      fwd.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** Requests the service answered with success, by method and a path test. */
export function applied(seen: Seen[], method: string, path: (p: string) => boolean): Seen[] {
  return seen.filter((s) => s.method === method && s.status >= 200 && s.status < 300 && path(s.url.split('?')[0]));
}
