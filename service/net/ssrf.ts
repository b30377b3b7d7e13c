/**
 * The one guard for every request the service makes to an address a client gave it (media_source
 * downloads, webhooks): scheme allow-list, name and address checks after DNS resolution against
 * loopback, private, link-local, CGNAT, multicast and cloud-metadata ranges, the connection pinned
 * to the checked address (no DNS rebinding between check and connect), every redirect re-checked,
 * and caps on time and size.
 */
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { Writable } from 'node:stream';
import { rootCertificates } from 'node:tls';

export class BlockedAddressError extends Error {}

/** The response passed GuardedRequest.maxBytes (declared or as it arrived). */
export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the response is larger than ${limit} bytes`);
  }
}

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32],
] as const) blocked.addSubnet(net, bits, 'ipv6');

const BLOCKED_NAMES = /^(localhost|.*\.localhost|metadata|metadata\.google\.internal|.*\.internal|.*\.local)$/i;

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * The network as the guard sees it. Production uses the defaults; tests inject a resolver (a fake
 * DNS) and the exact addresses of their own servers, so the real checks run unchanged against them.
 */
export interface OutboundNetwork {
  resolve?: Resolver;
  /** Exact addresses let through the private-range check (a test's servers on 127.0.0.2). */
  exemptAddresses?: readonly string[];
  /** Extra trusted CA certificate (PEM), added to the system roots (a test's https receiver). */
  ca?: string;
}

export interface GuardPolicy {
  /** Loopback, private addresses and http allowed (tests only: --allow-private-webhooks). */
  allowPrivate: boolean;
  /** https only (legacy callbacks, webhooks). */
  requireHttps: boolean;
  /** Refuse a literal IP address as host (legacy callbacks). */
  refuseBareIp: boolean;
  network?: OutboundNetwork;
}

/** The 16 bytes of an IPv6 address (any textual form, a trailing dotted quad included), or undefined. */
function ipv6Bytes(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    if (isIP(quad[1]) !== 4) return undefined;
    const [a, b, c, d] = quad[1].split('.').map(Number);
    text = text.slice(0, -quad[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]);
}

const quadOf = (b: number[]) => b.join('.');
const startsWith = (b: number[], prefix: number[]) => prefix.every((x, i) => b[i] === x);

/**
 * The IPv4 address an IPv6 address stands for, when it carries one: IPv4-compatible (::a.b.c.d),
 * IPv4-mapped (::ffff:a.b.c.d), SIIT (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96, 64:ff9b:1::/48),
 * 6to4 (2002:AABB:CCDD::/16) and Teredo (2001:0::/32, client address inverted in the last 32
 * bits). Each of them reaches that IPv4 host, so it is checked as that host.
 */
export function embeddedIpv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  if (!b) return undefined;
  const zeros = (n: number) => Array<number>(n).fill(0);
  if (startsWith(b, zeros(12))) return b.slice(12, 15).some((x) => x) ? quadOf(b.slice(12)) : undefined; // :: and ::1 are not IPv4
  if (startsWith(b, [...zeros(10), 0xff, 0xff])) return quadOf(b.slice(12));
  if (startsWith(b, [...zeros(8), 0xff, 0xff, 0, 0])) return quadOf(b.slice(12));
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return quadOf(b.slice(12));
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 1])) return quadOf(b.slice(12));
  if (startsWith(b, [0x20, 0x02])) return quadOf(b.slice(2, 6));
  if (startsWith(b, [0x20, 0x01, 0, 0])) return quadOf(b.slice(12).map((x) => x ^ 0xff));
  return undefined;
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    return (v4 !== undefined && blocked.check(v4, 'ipv4')) || blocked.check(address.replace(/%.*$/, ''), 'ipv6');
  }
  return true;
}

/** Checks a URL against the policy (scheme, name, every resolved address); returns the address to connect to. */
export async function checkUrl(raw: string | URL, policy: GuardPolicy): Promise<{ url: URL; address: string; family: number }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedAddressError('not a valid URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (!policy.requireHttps || policy.allowPrivate))) {
    throw new BlockedAddressError(policy.requireHttps ? 'the address must use https' : 'the address must use http or https');
  }
  if (url.username || url.password) throw new BlockedAddressError('credentials in the URL are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // "localhost." is the same name as "localhost": the name rules see it without the root dot.
  const name = host.replace(/\.+$/, '');
  if (!policy.allowPrivate) {
    if (policy.refuseBareIp && isIP(host)) throw new BlockedAddressError('a bare IP address is not allowed; use a host name');
    if (BLOCKED_NAMES.test(name)) throw new BlockedAddressError(`the host ${host} is not allowed: it names this computer, which the service does not fetch from for safety`);
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await (policy.network?.resolve ?? systemResolver)(host);
  } catch {
    throw new BlockedAddressError(`the host ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new BlockedAddressError(`the host ${host} does not resolve`);
  if (!policy.allowPrivate) {
    const exempt = new Set(policy.network?.exemptAddresses ?? []);
    // Every address must pass: a name with one public and one private address could connect to either.
    const bad = addresses.find((a) => !exempt.has(a.address) && isBlockedAddress(a.address));
    if (bad) throw new BlockedAddressError(`the host ${host} is on this computer or a private network, which the service does not fetch from for safety; give an address on the internet (it resolves to a private, loopback, link-local or metadata address)`);
  }
  return { url, ...addresses[0] };
}

export interface GuardedRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  policy: GuardPolicy;
  /** Where the response body goes (a file); without it the body is collected (up to maxBytes). */
  sink?: Writable;
}

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  bytes: number;
  finalUrl: string;
}

/** One request through the guard; redirects (GET only) are followed and re-checked. */
export async function guardedFetch(raw: string, opts: GuardedRequest): Promise<GuardedResponse> {
  const deadline = Date.now() + opts.timeoutMs;
  let current = raw;
  for (let hop = 0; hop <= (opts.maxRedirects ?? 5); hop++) {
    const { url, address, family } = await checkUrl(current, opts.policy);
    const res = await requestOnce(url, address, family, opts, deadline);
    if (res.redirect) {
      if ((opts.method ?? 'GET') !== 'GET') return { ...res.response, finalUrl: url.href };
      current = new URL(res.redirect, url).href;
      continue;
    }
    return { ...res.response, finalUrl: url.href };
  }
  throw new BlockedAddressError('too many redirects');
}

function requestOnce(url: URL, address: string, family: number, opts: GuardedRequest, deadline: number): Promise<{ redirect?: string; response: Omit<GuardedResponse, 'finalUrl'> }> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new Error('timed out'));
    const req = mod.request(
      url,
      {
        method: opts.method ?? 'GET',
        headers: { 'user-agent': 's2t-local-service', ...opts.headers, ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}) },
        // Connect to the address we checked, not to whatever DNS answers next.
        lookup: ((_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) => (o?.all ? cb(null, [{ address, family }]) : cb(null, address, family))) as never,
        signal: AbortSignal.timeout(remaining),
        ...(url.protocol === 'https:' && opts.policy.network?.ca ? { ca: [...rootCertificates, opts.policy.network.ca] } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ redirect: res.headers.location, response: { status, headers: res.headers, body: '', bytes: 0 } });
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > opts.maxBytes) {
          req.destroy();
          return reject(new ResponseTooLargeError(opts.maxBytes));
        }
        let bytes = 0;
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => {
          bytes += d.length;
          if (bytes > opts.maxBytes) {
            // Refused first, so the reset the destroy causes is not what the caller hears.
            reject(new ResponseTooLargeError(opts.maxBytes));
            req.destroy();
            return;
          }
          if (opts.sink && status < 300) {
            if (!opts.sink.write(d)) {
              res.pause();
              opts.sink.once('drain', () => res.resume());
            }
          } else if (bytes <= 64 * 1024) chunks.push(d);
        });
        res.on('error', reject);
        res.on('end', () => {
          const done = () => resolve({ response: { status, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), bytes } });
          if (opts.sink && status < 300) opts.sink.end(done);
          else done();
        });
      },
    );
    req.on('error', (e) => reject(e.name === 'AbortError' || e.name === 'TimeoutError' ? new Error('timed out') : e));
    if (opts.body !== undefined) req.end(opts.body);
    else req.end();
  });
}

/** Policy for media_source downloads: public http(s) only; the webhook test flag never loosens it. */
export function mediaSourcePolicy(network?: OutboundNetwork): GuardPolicy {
  return { allowPrivate: false, requireHttps: false, refuseBareIp: false, network };
}

export function webhookPolicy(allowPrivateWebhooks: boolean, legacy: boolean, network?: OutboundNetwork): GuardPolicy {
  return { allowPrivate: allowPrivateWebhooks, requireHttps: true, refuseBareIp: legacy, network };
}
