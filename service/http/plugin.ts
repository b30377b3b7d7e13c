import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ServiceContext } from '../context';
import { MAX_DIRECT_UPLOAD_BYTES } from '../media/receive';

/** What every area plugin of the service is registered with. */
export interface AreaOptions {
  ctx: ServiceContext;
}

/** One area of the service (auth, sessions, documents, ...): its routes and, if any, its lifecycle. */
export type AreaPlugin = FastifyPluginAsync<AreaOptions>;

/**
 * For a scope whose routes take uploads: multipart is parsed, and media bodies (legacy PUT:
 * audio/*, video/*, or a text document in upload mode) are left unread for the handler to stream
 * to disk; only JSON and multipart are parsed here.
 */
export async function acceptMediaBodies(scope: FastifyInstance): Promise<void> {
  await scope.register(multipart, { limits: { fileSize: MAX_DIRECT_UPLOAD_BYTES, files: 2, fields: 10 } });
  scope.removeContentTypeParser('text/plain');
  scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
}
