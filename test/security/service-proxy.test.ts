/**
 * Behind a reverse proxy (the --public-url set-up), over real HTTP through a real proxy in the
 * test (node:http, forwarding with X-Forwarded-For as nginx does). Every request reached the
 * service from the proxy's address, so ten wrong passwords from anyone locked the real user out,
 * and one client spending the anonymous quota blocked everyone's sign-in. With --trust-proxy the
 * service keys both on the client behind the proxy; X-Forwarded-For from anyone else is not
 * believed. Clients are told apart by their own loopback source addresses (127.0.0.2, .3, .4).
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startService, stopAndRemove, type RunningService } from '../helpers/service';

let svc: RunningService;
let proxy: Server;
let proxyPort: number;

/** Forwards every request to the service, appending the peer's address to X-Forwarded-For. */
function startProxy(): Promise<number> {
  proxy = createServer((req, res) => {
    const target = new URL(svc.url);
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': forwarded } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return new Promise((r) => proxy.listen(0, '127.0.0.1', () => r((proxy.address() as AddressInfo).port)));
}

/** One request from `source` (a loopback address of this machine) to `port`. */
function send(source: string, port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, localAddress: source, method, path, headers: { host: `localhost:${proxyPort}`, ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res: IncomingMessage) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const login = (source: string, password: string, port = proxyPort, headers: Record<string, string> = {}) =>
  send(source, port, 'POST', '/api/v3/auth/login?login_type=token', new URLSearchParams({ username: DEMO.email, password }).toString(), { 'content-type': 'application/x-www-form-urlencoded', ...headers });

beforeAll(async () => {
  proxyPort = await startProxy();
  // A small anonymous quota, so one client can spend it in a few requests.
  svc = await startService({ args: ['--public-url', `http://localhost:${proxyPort}`, '--trust-proxy', '127.0.0.1', '--rate-limit', '30'] });
}, 60_000);

afterAll(async () => {
  await stopAndRemove(svc);
  await new Promise((r) => proxy.close(r));
});

describe('behind a trusted reverse proxy', () => {
  it('locks out the client guessing passwords, not the real user behind the same proxy', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login('127.0.0.2', `wrong-${i}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const real = await login('127.0.0.3', DEMO.password);
    expect(real.status, real.text).toBe(200);
  });

  it("one client spending the anonymous quota leaves everyone else's sign-in alone", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) statuses.push((await send('127.0.0.4', proxyPort, 'GET', '/api/v3/speech-to-text/session')).status);
    expect(statuses).toContain(429);
    const real = await login('127.0.0.3', DEMO.password);
    expect(real.status, real.text).toBe(200);
  });

  it('believes X-Forwarded-For only from the proxy: a client going around it cannot take another key', async () => {
    // 127.0.0.5 talks to the service directly, claiming to be the real user's address.
    const direct = new URL(svc.url).port;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await login('127.0.0.5', `wrong-${i}`, Number(direct), { host: `127.0.0.1:${direct}`, 'x-forwarded-for': '127.0.0.3' })).status);
    expect(statuses.at(-1)).toBe(429);
    expect((await login('127.0.0.3', DEMO.password)).status).toBe(200);
  });
});
