import type { IncomingMessage } from 'node:http';
import type { FastifyReply } from 'fastify';

/** How much of a refused body is read and thrown away before the connection is cut instead. */
export const REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
export const REFUSED_BODY_DRAIN_MS = 10_000;

/**
 * Lets the client read an answer that refuses a body it is still sending (413). Closing a socket
 * that holds unread bytes makes the kernel send a TCP reset, and a reset can destroy the answer
 * in the client's buffer before it is read: the client then sees only EPIPE or ECONNRESET. So the
 * rest of the body is read and dropped, as web servers do on a "lingering close", and the
 * connection stays usable. A client that sends more than the bound, or too slowly, is cut off.
 */
export function drainRefusedBody(raw: IncomingMessage, reply: FastifyReply): void {
  if (raw.readableEnded || raw.destroyed) return;
  // Fastify asks for `connection: close` here, and Node then closes right after the answer.
  reply.removeHeader('connection');
  let drained = 0;
  const cutOff = () => raw.socket?.destroy();
  const timer = setTimeout(cutOff, REFUSED_BODY_DRAIN_MS);
  timer.unref();
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > REFUSED_BODY_DRAIN_BYTES) cutOff();
  });
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}
