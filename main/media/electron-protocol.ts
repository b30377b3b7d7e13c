/**
 * The s2t-media:// protocol (Electron): the renderer's player reads files on this computer, and
 * the service's media relayed by main, through it, with byte ranges, to links main signed
 * (links.ts) with a key made at each run.
 * Thin on purpose: the scheme, its privileges and a handler over range.ts; Electron's own
 * `protocol` is passed in, so a fake one tests it under plain Node.
 */
import { linkKey, signedQuery, verifyQuery, type MediaLinker } from './links';
import { targetResponse } from './range';

export const MEDIA_SCHEME = 's2t-media';
const HOST = 'media';

/** Standard and secure (a URL with a host, allowed beside https), streamed (range requests). */
export const MEDIA_SCHEME_PRIVILEGES = { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true } };

export interface ProtocolLike {
  registerSchemesAsPrivileged(schemes: (typeof MEDIA_SCHEME_PRIVILEGES)[]): void;
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
}

/** Before the app is ready: Electron only takes privileged schemes then. */
export function registerMediaScheme(protocol: Pick<ProtocolLike, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([MEDIA_SCHEME_PRIVILEGES]);
}

/** Once ready: serves the scheme, and returns the linker the media library hands out links with. */
export function handleMediaProtocol(protocol: Pick<ProtocolLike, 'handle'>, runSecret: Buffer): MediaLinker {
  const key = linkKey(runSecret);
  protocol.handle(MEDIA_SCHEME, async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return new Response('bad media link', { status: 400 });
    }
    if (url.host !== HOST) return new Response('not found', { status: 404 });
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
    const target = verifyQuery(key, url.searchParams);
    if (typeof target === 'string') return new Response(`media link ${target}`, { status: 403 });
    return targetResponse(target, request.headers.get('range'), request.method, request.signal);
  });
  return (target) => `${MEDIA_SCHEME}://${HOST}/?${signedQuery(key, target)}`;
}
