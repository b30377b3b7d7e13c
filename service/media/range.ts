/** Serves a file with HTTP range requests (RFC 9110 single ranges), as media players need. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';

export async function serveFileWithRanges(req: FastifyRequest, reply: FastifyReply, path: string, contentType: string): Promise<void> {
  const { size } = await stat(path);
  reply.header('accept-ranges', 'bytes').header('content-type', contentType).header('cache-control', 'private, max-age=300');
  const range = req.headers.range;
  if (!range) {
    reply.header('content-length', size);
    await reply.send(createReadStream(path));
    return;
  }
  const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  let start = m && m[1] !== '' ? Number(m[1]) : NaN;
  let end = m && m[2] !== '' ? Number(m[2]) : size - 1;
  if (m && m[1] === '' && m[2] !== '') {
    // suffix range: the last N bytes
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  }
  if (!m || !Number.isFinite(start) || start >= size || end < start) {
    await reply.code(416).header('content-range', `bytes */${size}`).send();
    return;
  }
  end = Math.min(end, size - 1);
  reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`).header('content-length', end - start + 1);
  await reply.send(createReadStream(path, { start, end }));
}
