/**
 * The SSRF guard against IPv6 spellings of loopback and private IPv4 addresses (IPv4-compatible,
 * mapped, SIIT, 6to4, Teredo, NAT64) must be refused like the IPv4 address they carry. Over real
 * HTTP: a legacy session's media_source naming our own loopback server through each form.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlockedAddress } from '../../service/net/ssrf';
import { startService, stopAndRemove, type RunningService } from '../helpers/service';
import { errorOf } from '../service/answers';
import { client, type Client } from '../service/work/helpers';

let svc: RunningService;
let c: Client;
let target: Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  target = createServer((_req, res) => {
    hits++;
    res.end('RIFF');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
  svc = await startService();
  c = await client(svc.url);
}, 60_000);

afterAll(async () => {
  await stopAndRemove(svc);
  await new Promise<void>((r) => target.close(() => r()));
});

// Each stands for 127.0.0.1 (or 10.0.0.1 / 169.254.169.254), only spelled as IPv6.
const DISGUISED = [
  '::127.0.0.1', // IPv4-compatible, the form of the report
  '::7f00:1',
  '::ffff:0:7f00:1', // SIIT
  '2002:7f00:1::', // 6to4 of 127.0.0.1
  '2002:a00:1::1', // 6to4 of 10.0.0.1
  '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 (inverted bits)
  '64:ff9b:1::a00:1', // local-use NAT64 of 10.0.0.1
  '::a9fe:a9fe', // compat form of the metadata address
];

describe('SSRF guard: every IPv6 form of a private IPv4 address', () => {
  it('media_source through each form is refused before any connection', async () => {
    for (const host of DISGUISED) {
      const r = await c.json('POST', '/api/v3/speech-to-text/session', { language: 'en', media_source: `http://[${host}]:${port}/speech.wav` }, { 'x-svc-s2t-key': c.batchKey });
      expect(r.status, host).toBe(422);
      expect(errorOf(r).error, host).toMatch(/private, loopback/);
    }
    expect(hits).toBe(0);
  });

  it('public addresses inside the same prefixes still pass', () => {
    for (const a of ['2002:808:808::1', '2606:4700:4700::1111', '2001:0:4136:e378:8000:63bf:f7f7:f7f7']) expect(isBlockedAddress(a), a).toBe(false);
    for (const a of DISGUISED) expect(isBlockedAddress(a), a).toBe(true);
  });
});
