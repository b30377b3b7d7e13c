/**
 * Serving a media file with byte ranges (RFC 9110 §14), as media elements ask for them: the
 * first request for `bytes=0-`, then a seek for `bytes=N-`. One parser; two outlets: a Node
 * response (the web bridge) and a fetch Response (Electron's protocol.handle). The service's
 * media is relayed the same two ways, the player's Range passed through to the service.
 */
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import type { MediaFile, MediaRemote, MediaTarget } from './links';

export type ByteRange = { start: number; end: number };

/**
 * The one range a header asks for: null for the whole file (no header, or a form we do not
 * serve, such as several ranges, which a server may answer whole), 'unsatisfiable' for 416.
 */
export function parseRange(header: string | null | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    // A suffix: the last N bytes.
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

export interface RangedAnswer {
  status: 200 | 206 | 404 | 416;
  headers: Record<string, string>;
  /** Null when there is no body (404, 416, HEAD). */
  range: ByteRange | null;
}

/** The status and headers for a request of `file`; its bytes come from `range` (or the whole file). */
export async function answerFor(file: MediaFile, rangeHeader: string | null | undefined): Promise<RangedAnswer & { stats: Stats | null }> {
  const stats = await stat(file.path).catch(() => null);
  if (!stats?.isFile()) return { status: 404, headers: { 'content-type': 'text/plain' }, range: null, stats: null };
  const base = { 'accept-ranges': 'bytes', 'content-type': file.mediaType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  const r = parseRange(rangeHeader, stats.size);
  if (r === 'unsatisfiable') return { status: 416, headers: { ...base, 'content-range': `bytes */${stats.size}` }, range: null, stats };
  if (r === null) {
    const whole = stats.size > 0 ? { start: 0, end: stats.size - 1 } : null;
    return { status: 200, headers: { ...base, 'content-length': String(stats.size) }, range: whole, stats };
  }
  return {
    status: 206,
    headers: { ...base, 'content-length': String(r.end - r.start + 1), 'content-range': `bytes ${r.start}-${r.end}/${stats.size}` },
    range: r,
    stats,
  };
}

/** Answers a Node request for `file` (GET or HEAD) with its bytes or range. */
export async function sendFile(file: MediaFile, rangeHeader: string | undefined, method: string, res: ServerResponse, extraHeaders: Record<string, string> = {}): Promise<void> {
  const a = await answerFor(file, rangeHeader);
  res.writeHead(a.status, { ...extraHeaders, ...a.headers });
  if (method === 'HEAD' || !a.range) {
    res.end(a.status === 404 ? 'not found' : undefined);
    return;
  }
  // A read error (the file went away mid-read) ends this response, not the process.
  pipeline(createReadStream(file.path, { start: a.range.start, end: a.range.end }), res, () => {});
}

/** The same answer as a fetch Response, for Electron's protocol.handle. */
export async function fileResponse(file: MediaFile, rangeHeader: string | null, method: string): Promise<Response> {
  const a = await answerFor(file, rangeHeader);
  const body = method === 'HEAD' || !a.range ? null : (Readable.toWeb(createReadStream(file.path, { start: a.range.start, end: a.range.end })) as ReadableStream<Uint8Array>);
  return new Response(body, { status: a.status, headers: a.headers });
}

/** The service's answer headers the player needs; the rest (cookies, the service's own policies) stay behind. */
function relayedHeaders(up: Response, remote: MediaRemote): Record<string, string> {
  const h: Record<string, string> = { 'content-type': up.headers.get('content-type') ?? remote.mediaType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  for (const name of ['content-length', 'content-range', 'accept-ranges']) {
    const v = up.headers.get(name);
    if (v) h[name] = v;
  }
  return h;
}

/** Asks the service for the range; null when it cannot be reached. */
async function askUpstream(remote: MediaRemote, rangeHeader: string | null | undefined, method: string, signal: AbortSignal): Promise<Response | null> {
  try {
    return await fetch(remote.url, { method: method === 'HEAD' ? 'HEAD' : 'GET', headers: rangeHeader ? { range: rangeHeader } : {}, signal });
  } catch {
    return null;
  }
}

const UNREACHABLE = 'the service cannot be reached';

/** Relays the service's media into a Node response; a player that goes away cancels the upstream read. */
async function relayInto(remote: MediaRemote, rangeHeader: string | undefined, method: string, res: ServerResponse, extraHeaders: Record<string, string>): Promise<void> {
  const abort = new AbortController();
  res.once('close', () => abort.abort());
  const up = await askUpstream(remote, rangeHeader, method, abort.signal);
  if (!up) {
    if (!res.headersSent) res.writeHead(502, { ...extraHeaders, 'content-type': 'text/plain' }).end(UNREACHABLE);
    return;
  }
  res.writeHead(up.status, { ...extraHeaders, ...relayedHeaders(up, remote) });
  if (!up.body || method === 'HEAD') {
    await up.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  pipeline(Readable.fromWeb(up.body as import('node:stream/web').ReadableStream), res, () => abort.abort());
}

/** Answers a Node request for a link's target: a file read with ranges, or the service's media relayed. */
export async function sendTarget(target: MediaTarget, rangeHeader: string | undefined, method: string, res: ServerResponse, extraHeaders: Record<string, string> = {}): Promise<void> {
  if ('path' in target) return sendFile(target, rangeHeader, method, res, extraHeaders);
  return relayInto(target, rangeHeader, method, res, extraHeaders);
}

/** The same as a fetch Response, for Electron's protocol.handle. */
export async function targetResponse(target: MediaTarget, rangeHeader: string | null, method: string, signal?: AbortSignal): Promise<Response> {
  if ('path' in target) return fileResponse(target, rangeHeader, method);
  const up = await askUpstream(target, rangeHeader, method, signal ?? new AbortController().signal);
  if (!up) return new Response(UNREACHABLE, { status: 502, headers: { 'content-type': 'text/plain' } });
  return new Response(method === 'HEAD' ? null : up.body, { status: up.status, headers: relayedHeaders(up, target) });
}
