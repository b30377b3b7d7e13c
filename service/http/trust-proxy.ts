/**
 * --trust-proxy: which reverse proxies may say who the client is (X-Forwarded-For). Behind a proxy
 * every request arrives from the proxy's address; without this the lockouts and rate limits,
 * which are keyed on the client's address, would put every user in one bucket. Nobody else's
 * X-Forwarded-For is believed: a client that reaches the service directly cannot pick its key.
 */
import { isIP } from 'node:net';

/** proxy-addr's names for address ranges (Fastify's trustProxy takes them as they are). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 10;

/** Fastify's trustProxy: false (off), a hop count, or the proxies' addresses and ranges. */
export type TrustProxy = false | number | string[];

function addressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [ip, bits, extra] = entry.split('/');
  const family = isIP(ip);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/**
 * A hop count (1–10: trust that many proxies in front of the service, nearest first), or a
 * comma-separated list of proxy addresses, CIDR ranges or loopback/linklocal/uniquelocal.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined || raw.trim() === '') return false;
  if (/^\d+$/.test(raw.trim())) {
    const hops = Number(raw.trim());
    if (hops < 1 || hops > MAX_HOPS) throw new Error(`--trust-proxy: a hop count must be 1 to ${MAX_HOPS} (got ${raw})`);
    return hops;
  }
  const entries = raw.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.find((e) => !addressOrRange(e));
  if (bad !== undefined || entries.length === 0) {
    throw new Error(`--trust-proxy must be a hop count or proxy addresses and ranges (e.g. 127.0.0.1 or 10.0.0.0/8, or loopback), comma-separated (got "${bad ?? raw}")`);
  }
  return entries;
}

/** As Fastify takes it (its types have no hop count): the nearest `hops` addresses are proxies. */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}
