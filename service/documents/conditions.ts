/** Conflict detection for document writes, and the validators (ETag, Last-Modified) that make it possible. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { documentError, validationError } from '../http/errors';
import { etagOf, type ScopedDocument } from './store';

/**
 * If-Match with the ETag we sent (exact), or If-Unmodified-Since (HTTP date, whole seconds)
 * older than the document's last_modified, gets 412: the client's copy is stale.
 */
export function checkPreconditions(req: FastifyRequest, doc: ScopedDocument): void {
  const ifMatch = req.headers['if-match'];
  if (typeof ifMatch === 'string' && ifMatch.trim() !== '*') {
    const tags = ifMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
    if (!tags.includes(etagOf(doc))) throw documentError(412, 'precondition_failed', 'the document changed since you read it (ETag mismatch)');
  }
  const ius = req.headers['if-unmodified-since'];
  if (typeof ius === 'string') {
    const since = Date.parse(ius);
    if (Number.isNaN(since)) throw validationError('If-Unmodified-Since is not an HTTP date');
    if (Math.floor(Date.parse(doc.last_modified) / 1000) * 1000 > since) {
      throw documentError(412, 'precondition_failed', 'the document changed since you read it (If-Unmodified-Since)');
    }
  }
}

export function withValidators(reply: FastifyReply, doc: ScopedDocument): void {
  reply.header('etag', etagOf(doc)).header('last-modified', new Date(doc.last_modified).toUTCString());
}
