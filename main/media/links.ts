/**
 * Signed links to a media file on this computer, for the player: the bridge's /media route in
 * browser mode, the s2t-media:// protocol in Electron. A link names the file, its media type and
 * an expiry, and carries an HMAC of all three under a key derived from the run's secret, so only
 * links main handed out open a file, only until they expire, and the secret itself never appears
 * in a URL. Stateless: whoever serves links needs the key, not a table of them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A file main lets the player read. */
export interface MediaFile {
  path: string;
  /** The Content-Type it is served with. */
  mediaType: string;
}

/** Makes the URL the renderer loads for a file. */
export type MediaLinker = (file: MediaFile) => string;

/** Long enough for a long listen; a session opened again asks for a fresh link. */
export const LINK_TTL_MS = 12 * 60 * 60 * 1000;

/** The signing key of a run, from its secret (the bridge token, or Electron's random run key). */
export function linkKey(runSecret: string | Buffer): Buffer {
  return createHmac('sha256', runSecret).update('s2t media links v1').digest();
}

const mac = (key: Buffer, ref: string, type: string, exp: number) => createHmac('sha256', key).update(`${ref}\n${type}\n${exp}`).digest('base64url');

/** The query that opens `file` until `now + ttl`: the path (base64url), type, expiry and signature. */
export function signedQuery(key: Buffer, file: MediaFile, now = Date.now(), ttlMs = LINK_TTL_MS): string {
  const ref = Buffer.from(file.path).toString('base64url');
  const exp = now + ttlMs;
  const q = new URLSearchParams({ f: ref, t: file.mediaType, e: String(exp), s: mac(key, ref, file.mediaType, exp) });
  return q.toString();
}

/** Why a link does not open: 'missing' (no signature or parts), 'bad' (wrong signature), 'expired'. */
export type LinkRefusal = 'missing' | 'bad' | 'expired';

/** The file a link's query opens, or why it does not. */
export function verifyQuery(key: Buffer, query: URLSearchParams, now = Date.now()): MediaFile | LinkRefusal {
  const ref = query.get('f');
  const type = query.get('t');
  const exp = query.get('e');
  const sig = query.get('s');
  if (!ref || !type || !exp || !sig || !/^\d{1,16}$/.test(exp)) return 'missing';
  const want = Buffer.from(mac(key, ref, type, Number(exp)));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return 'bad';
  if (Number(exp) <= now) return 'expired';
  return { path: Buffer.from(ref, 'base64url').toString(), mediaType: type };
}
