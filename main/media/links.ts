/**
 * Signed links for the player: the bridge's /media route in browser mode, the s2t-media://
 * protocol in Electron. A link names a file on this computer (or the service's media link, which
 * main relays, so the page needs no CSP room for a cloud's origin and never holds its signed
 * link), its media type and an expiry, and carries an HMAC of all three under a key derived from
 * the run's secret: only links main handed out open anything, only until they expire, and the
 * secret itself never appears in a URL. Stateless: whoever serves links needs the key, not a table.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A file main lets the player read. */
export interface MediaFile {
  path: string;
  /** The Content-Type it is served with. */
  mediaType: string;
}

/** The service's media, relayed by main with the player's byte ranges. */
export interface MediaRemote {
  url: string;
  mediaType: string;
}

export type MediaTarget = MediaFile | MediaRemote;

/** Makes the URL the renderer loads for a file or a relayed link. */
export type MediaLinker = (target: MediaTarget) => string;

/** Long enough for a long listen; a session opened again asks for a fresh link. */
export const LINK_TTL_MS = 12 * 60 * 60 * 1000;

/** The signing key of a run, from its secret (the bridge token, or Electron's random run key). */
export function linkKey(runSecret: string | Buffer): Buffer {
  return createHmac('sha256', runSecret).update('s2t media links v1').digest();
}

/** f: a file's path, u: a URL to relay; the letter is signed with the rest. */
type RefKind = 'f' | 'u';
const mac = (key: Buffer, kind: RefKind, ref: string, type: string, exp: number) => createHmac('sha256', key).update(`${kind}:${ref}\n${type}\n${exp}`).digest('base64url');

/** The query that opens `target` until `now + ttl`: the path or URL (base64url), type, expiry and signature. */
export function signedQuery(key: Buffer, target: MediaTarget, now = Date.now(), ttlMs = LINK_TTL_MS): string {
  const kind: RefKind = 'path' in target ? 'f' : 'u';
  const ref = Buffer.from('path' in target ? target.path : target.url).toString('base64url');
  const exp = now + ttlMs;
  const q = new URLSearchParams({ [kind]: ref, t: target.mediaType, e: String(exp), s: mac(key, kind, ref, target.mediaType, exp) });
  return q.toString();
}

/** Why a link does not open: 'missing' (no signature or parts), 'bad' (wrong signature), 'expired'. */
export type LinkRefusal = 'missing' | 'bad' | 'expired';

/** What a link's query opens, or why it does not. */
export function verifyQuery(key: Buffer, query: URLSearchParams, now = Date.now()): MediaTarget | LinkRefusal {
  const file = query.get('f');
  const url = query.get('u');
  const type = query.get('t');
  const exp = query.get('e');
  const sig = query.get('s');
  // Exactly one of f and u.
  const [kind, ref] = file && !url ? (['f', file] as const) : url && !file ? (['u', url] as const) : [null, null];
  if (!kind || !type || !exp || !sig || !/^\d{1,16}$/.test(exp)) return 'missing';
  const want = Buffer.from(mac(key, kind, ref, type, Number(exp)));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return 'bad';
  if (Number(exp) <= now) return 'expired';
  const value = Buffer.from(ref, 'base64url').toString();
  return kind === 'f' ? { path: value, mediaType: type } : { url: value, mediaType: type };
}
