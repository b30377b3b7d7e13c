/**
 * Serving a media file with byte ranges (RFC 9110 §14), as media elements ask for them: the
 * first request for `bytes=0-`, then a seek for `bytes=N-`. One parser; two outlets: a Node
 * response (the web bridge) and a fetch Response (Electron's protocol.handle).
 */
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import type { MediaFile } from './links';

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
