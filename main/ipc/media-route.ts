/**
 * The web bridge's /media route (browser mode): plays a file on this computer, or relays the
 * service's media, with byte ranges, to a link main signed (main/media/links.ts) under a key derived from the bridge's token. The
 * token never appears in the URL; a link without a signature, with a wrong one or past its
 * expiry gets 403. The bridge checks Host before it hands a request here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { linkKey, signedQuery, verifyQuery, type MediaLinker } from '../media/links';
import { sendTarget } from '../media/range';

export const MEDIA_ROUTE = '/media';

const keys = new Map<string, Buffer>();
const keyOf = (token: string) => keys.get(token) ?? keys.set(token, linkKey(token)).get(token)!;

/** Links the bridge at this token serves; same-origin paths, so the page's CSP 'self' covers them. */
export function bridgeMediaLinker(token: string): MediaLinker {
  return (target) => `${MEDIA_ROUTE}?${signedQuery(keyOf(token), target)}`;
}

/** Answers a request for /media (the bridge routes by path). */
export function serveMediaRoute(req: IncomingMessage, res: ServerResponse, url: URL, token: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const target = verifyQuery(keyOf(token), url.searchParams);
  if (typeof target === 'string') {
    const why = { missing: 'this media link is not signed', bad: 'this media link is not valid', expired: 'this media link has expired: open the session again' }[target];
    res.writeHead(403, { 'content-type': 'text/plain' }).end(why);
    return;
  }
  const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
  sendTarget(target, range, req.method, res, { 'referrer-policy': 'no-referrer' }).catch(() => res.destroy());
}
