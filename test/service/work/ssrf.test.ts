/** The SSRF guard shared by media_source downloads and webhooks, on real sockets and real DNS resolution. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedAddressError, checkUrl, guardedFetch, isBlockedAddress, mediaSourcePolicy, webhookPolicy } from '../../../service/net/ssrf';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/big') res.end(Buffer.alloc(200_000, 1));
    else if (req.url === '/slow') setTimeout(() => res.end('late'), 2000);
    else if (req.url === '/hop') res.writeHead(302, { location: '/small' }).end();
    else res.end('small body');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('ssrf guard', () => {
  it('classifies loopback, private, link-local, metadata, CGNAT and mapped addresses as blocked', () => {
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '224.0.0.1']) {
      expect(isBlockedAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isBlockedAddress(a), a).toBe(false);
  });

  it('refuses by scheme, name and resolved address; URL tricks normalise to the address they mean', async () => {
    for (const u of [`${base}/x`, 'http://localhost/x', 'http://0x7f.1/x', 'http://[::ffff:7f00:1]/x', 'http://metadata.google.internal/', 'ftp://example.com/x', 'http://user:pw@example.com/']) {
      await expect(checkUrl(u, mediaSourcePolicy()), u).rejects.toBeInstanceOf(BlockedAddressError);
    }
    await expect(checkUrl('http://example.com/x', webhookPolicy(false, false))).rejects.toThrow(/https/);
    await expect(checkUrl('https://93.184.216.34/x', webhookPolicy(false, true))).rejects.toThrow(/bare IP/);
  });

  it('a trailing dot does not slip a name past the name rules; an injected network exempts only the exact addresses given', async () => {
    const fake: Record<string, string[]> = { 'own.test': ['127.0.0.2'], 'mixed.test': ['127.0.0.2', '10.0.0.1'], 'localhost.': ['127.0.0.2'] };
    const network = { resolve: async (h: string) => (fake[h] ?? []).map((address) => ({ address, family: 4 })), exemptAddresses: ['127.0.0.2'] };
    const policy = mediaSourcePolicy(network);
    for (const u of ['http://localhost./x', 'http://LocalHost../x', 'http://api.localhost./x', 'http://metadata.google.internal./x']) {
      await expect(checkUrl(u, policy), u).rejects.toThrow(/is not allowed/);
    }
    await expect(checkUrl('http://own.test/x', policy)).resolves.toMatchObject({ address: '127.0.0.2' });
    await expect(checkUrl('http://own.test/x', mediaSourcePolicy())).rejects.toBeInstanceOf(BlockedAddressError); // real DNS: no such name
    await expect(checkUrl('http://mixed.test/x', policy)).rejects.toThrow(/resolves to a private/);
    await expect(checkUrl('http://127.0.0.1/x', policy)).rejects.toThrow(/resolves to a private/);
    await expect(checkUrl('http://nothing.test/x', policy)).rejects.toThrow(/does not resolve/);
  });

  it('caps size and time and follows redirects through the guard', async () => {
    const open = webhookPolicy(true, false); // test policy: loopback allowed
    const small = await guardedFetch(`${base}/hop`, { timeoutMs: 5000, maxBytes: 1000, policy: { ...open, requireHttps: false } });
    expect(small.body).toBe('small body');
    expect(small.finalUrl).toBe(`${base}/small`);
    await expect(guardedFetch(`${base}/big`, { timeoutMs: 5000, maxBytes: 1000, policy: open })).rejects.toThrow(/larger than 1000/);
    await expect(guardedFetch(`${base}/slow`, { timeoutMs: 300, maxBytes: 1000, policy: open })).rejects.toThrow(/timed out/);
  });
});
