/** Shared parts of the watch-folder tests: a WatchService against a real service, WAV files, waits. */
import { closeSync, openSync, writeSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform } from 'node:stream';
import { ApiClient } from '../../../main/api/client';
import { PasswordAuth } from '../../../main/watch/auth';
import { WatchService, type WatchServiceOptions } from '../../../main/watch/service';
import type { WatchProgress } from '../../../common/ipc';
import { DEMO, type RunningService, type TempDirs } from '../../helpers/service';

export interface Harness {
  watch: WatchService;
  auth: PasswordAuth;
  progress: (WatchProgress & { at: number })[];
  detected: { path: string; created: boolean; itemId: number; at: number }[];
}

export function watchHarness(url: string, dataDir: string, { fetch, ...opts }: Partial<WatchServiceOptions> & { fetch?: typeof globalThis.fetch } = {}): Harness {
  const auth = new PasswordAuth(DEMO.email, DEMO.password);
  const client = new ApiClient({ baseUrl: url, auth: auth.asAuthSource(), retries: 0, timeoutMs: 15_000, fetch });
  auth.attach(client);
  const progress: Harness['progress'] = [];
  const detected: Harness['detected'] = [];
  const watch = new WatchService({
    dataDir,
    client,
    auth,
    stabilityMs: 800,
    pollMs: 300,
    onProgress: (p) => progress.push({ ...p, at: Date.now() }),
    onDetected: (f) => detected.push({ path: f.path, created: f.created, itemId: f.itemId, at: Date.now() }),
    ...opts,
  });
  return { watch, auth, progress, detected };
}

/** For afterAll: closes the watchers, then the proxies, kills the service and removes the temp dirs (whatever of it was made). */
export async function closeWatchTest({ watchers = [], proxies = [], svc, dirs }: { watchers?: (Harness | undefined)[]; proxies?: (CountingProxy | undefined)[]; svc?: RunningService; dirs: TempDirs }): Promise<void> {
  for (const h of watchers) await h?.watch.close();
  for (const p of proxies) await p?.close();
  await svc?.kill();
  dirs.removeAll();
}

export async function until<T>(what: string, fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 60_000, stepMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** A 16 kHz mono 16-bit WAV header for `dataBytes` of samples. */
export function wavHeader(dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(16000, 24);
  h.writeUInt32LE(32000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(Math.min(0xffffffff, dataBytes), 40);
  return h;
}

/** A small WAV whose samples depend on `seed`, so every one has its own content hash. */
export function smallWav(seed: number, samples = 1600): Buffer {
  const body = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) body.writeInt16LE(Math.round(8000 * Math.sin((i * (seed + 1) * 2 * Math.PI) / 400)), i * 2);
  body.writeUInt32LE(seed, 0);
  return Buffer.concat([wavHeader(body.length), body]);
}

/** A WAV of `size` bytes that takes no disk: the header, then a hole (sparse file) of silence; `seed` makes its content its own. */
export function sparseWav(path: string, size: number, seed = 0): void {
  const fd = openSync(path, 'w');
  writeSync(fd, wavHeader(size - 44), 0, 44, 0);
  if (seed) writeSync(fd, Buffer.from([seed & 0xff, seed >> 8]), 0, 2, 44);
  writeSync(fd, Buffer.from([0]), 0, 1, size - 1);
  closeSync(fd);
}

/**
 * An HTTP proxy in front of the service that counts the request body bytes clients send (what an
 * upload costs on the wire), and can be cut off to play "offline". It keeps the service's own Host
 * (the service refuses others) and maps Location back to itself, so tus PATCHes come through it.
 */
export interface CountingProxy {
  url: string;
  sent(): number;
  /** While offline, every request gets its connection dropped. */
  offline: boolean;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Answer these paths 404, as an older service without them would. */
  hide?: RegExp;
  /** Cut the connection of a request when this says so (called once per request). */
  drop?: (method: string, url: string) => boolean;
  /** Pass request bodies on at about this rate, so uploads take a while. */
  bytesPerSecond?: number;
}

export async function countingProxy(target: string, opts: ProxyOptions = {}): Promise<CountingProxy> {
  const t = new URL(target);
  let sent = 0;
  let self = '';
  const state = { offline: false };
  const server = createServer((req, res) => {
    if (state.offline || opts.drop?.(req.method ?? '', req.url ?? '')) return void req.socket.destroy();
    if (opts.hide?.test(req.url ?? '')) {
      // An older service without these routes.
      res.writeHead(404, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ error: 'not_found', error_description: `no route for ${req.method} ${req.url}`, status: 404 }));
    }
    const up = request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host } }, (upRes) => {
      const headers = { ...upRes.headers };
      if (typeof headers.location === 'string') headers.location = headers.location.replace(t.origin, self);
      res.writeHead(upRes.statusCode ?? 502, headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.on('data', (d: Buffer) => (sent += d.length));
    const bps = opts.bytesPerSecond;
    if (bps) req.pipe(new Transform({ transform: (chunk: Buffer, _enc, done) => void setTimeout(() => done(null, chunk), (chunk.length / bps) * 1000) })).pipe(up);
    else req.pipe(up);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self,
    sent: () => sent,
    get offline() {
      return state.offline;
    },
    set offline(v: boolean) {
      state.offline = v;
      if (v) server.closeAllConnections();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
