/**
 * A local HTTP server for model downloads: serves files with Range support, can throttle (so a
 * test can pause or kill mid-transfer) and counts the ranges it was asked for.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelServer {
  url(name: string): string;
  /** "bytes=N-" headers received, in order. */
  ranges: string[];
  /** Bytes per 50 ms tick (0: unthrottled). */
  setRate(bytesPerTick: number): void;
  close(): Promise<void>;
}

export async function startModelServer(files: Record<string, Buffer>): Promise<ModelServer> {
  let rate = 0;
  const ranges: string[] = [];
  const server: Server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    const data = files[name];
    if (!data) {
      res.writeHead(404).end('no such model');
      return;
    }
    let start = 0;
    const range = req.headers.range;
    if (range) {
      ranges.push(range);
      const m = /^bytes=(\d+)-$/.exec(range);
      start = m ? Number(m[1]) : 0;
      if (start >= data.length) {
        res.writeHead(416, { 'content-range': `bytes */${data.length}` }).end();
        return;
      }
      res.writeHead(206, { 'content-length': data.length - start, 'content-range': `bytes ${start}-${data.length - 1}/${data.length}`, 'accept-ranges': 'bytes' });
    } else {
      res.writeHead(200, { 'content-length': data.length, 'accept-ranges': 'bytes' });
    }
    let at = start;
    const send = () => {
      if (res.destroyed) return;
      if (at >= data.length) {
        res.end();
        return;
      }
      const step = rate > 0 ? rate : data.length;
      const ok = res.write(data.subarray(at, at + step));
      at += step;
      if (rate > 0) setTimeout(send, 50);
      else if (ok) setImmediate(send);
      else res.once('drain', send);
    };
    send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}`,
    ranges,
    setRate: (n) => {
      rate = n;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
