/**
 * The tus 1.0 endpoint at TUS_PATH: @tus/server with @tus/file-store (core, creation,
 * creation-with-upload, termination, expiration) plus the checksum extension, which the library
 * lacks: the PATCH body is hashed as it streams to disk, and on a mismatch the file is cut back to
 * the offset before the PATCH and 460 is answered. Every request is authenticated (Bearer) and an
 * upload is visible only to its organization. Bodies stream to disk; nothing is buffered.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { Server, EVENTS, type Upload } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TUS_PATH } from '../../common/api';
import { authenticate, type UserPrincipal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { plainError } from '../http/errors';
import { sanitizeFilename, tusDir } from '../media/paths';
import { storageFullError, storageUsed } from '../quotas/storage';
import { sniffFile } from '../media/sniff';

/** Largest Upload-Length accepted. */
export const TUS_MAX_SIZE = 64 * 1024 ** 3;
/** An unfinished upload expires this long after creation (Upload-Expires). */
export const TUS_EXPIRY_MS = 24 * 3600_000;
export const CHECKSUM_ALGORITHMS = ['sha1', 'md5', 'sha256'] as const;

interface RequestScope {
  principal: UserPrincipal;
  checksum?: { algorithm: string; expected: Buffer };
}

const scope = new AsyncLocalStorage<RequestScope>();

class ChecksumError extends Error {
  status_code = 460;
  body = 'Checksum Mismatch\n';
}

/** FileStore plus the checksum extension, and expiry for unfinished uploads only. */
class ChecksumFileStore extends FileStore {
  constructor(opts: ConstructorParameters<typeof FileStore>[0]) {
    super(opts);
    this.extensions.push('checksum');
  }

  /**
   * tus expires unfinished uploads; a finished one is a file that sessions read, so it must not
   * answer 410 after 24 h. Without a creation date the library's expiry checks pass it by.
   */
  override async getUpload(id: string): Promise<Upload> {
    const upload = await super.getUpload(id);
    if (upload.size !== undefined && upload.offset === upload.size) upload.creation_date = undefined;
    return upload;
  }

  override async write(readable: Readable, fileId: string, offset: number): Promise<number> {
    const checksum = scope.getStore()?.checksum;
    if (!checksum) return super.write(readable, fileId, offset);
    const hash = createHash(checksum.algorithm);
    const tap = new Transform({
      transform(chunk: Buffer, _e, cb) {
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    readable.on('error', (e) => tap.destroy(e));
    const end = await super.write(readable.pipe(tap), fileId, offset);
    if (!hash.digest().equals(checksum.expected)) {
      await truncate(join(this.directory, fileId), offset);
      throw new ChecksumError();
    }
    return end;
  }
}

function parseChecksum(header: string | string[] | undefined): RequestScope['checksum'] {
  if (header === undefined) return undefined;
  const m = /^\s*([a-z0-9-]+)\s+([A-Za-z0-9+/=]+)\s*$/.exec(String(header));
  if (!m) throw plainError(400, 'Upload-Checksum must be "<algorithm> <base64 digest>"');
  if (!(CHECKSUM_ALGORITHMS as readonly string[]).includes(m[1])) throw plainError(400, `unsupported checksum algorithm ${m[1]} (supported: ${CHECKSUM_ALGORITHMS.join(', ')})`);
  return { algorithm: m[1], expected: Buffer.from(m[2], 'base64') };
}

/**
 * The upload id of a tus request, from the path alone: `${TUS_PATH}/<id>` with one segment of
 * the shape the store names files. The ownership check and the store both use this, so no part of
 * the URL (a query string, an encoded slash) can make them see two different uploads.
 */
export function tusFileId(url: string): string | undefined {
  // Fastify's req.url is a path; @tus/server hands its hook a whole URL.
  const path = url.startsWith('/') ? url.split('?')[0] : URL.canParse(url) ? new URL(url).pathname : '';
  if (!path.startsWith(`${TUS_PATH}/`)) return undefined;
  const id = path.slice(TUS_PATH.length + 1).replace(/\/$/, '');
  return /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : undefined;
}

function tusStore(ctx: ServiceContext): ChecksumFileStore {
  return new ChecksumFileStore({ directory: tusDir(ctx.config.dataDir), expirationPeriodInMilliseconds: TUS_EXPIRY_MS });
}

/** Registers the tus routes in a scope of their own (they parse no body). */
export async function mountTus(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  const directory = tusDir(ctx.config.dataDir);
  const store = tusStore(ctx);
  const server = new Server({
    path: TUS_PATH,
    datastore: store,
    maxSize: TUS_MAX_SIZE,
    respectForwardedHeaders: false,
    // Never the library's own reading of req.url (its last segment includes the query string).
    getFileIdFromRequest: (req) => tusFileId(req.url ?? ''),
    async onUploadCreate(_req, upload) {
      const s = scope.getStore();
      if (!s) throw { status_code: 401, body: 'unauthenticated\n' };
      const used = await storageUsed(ctx, s.principal.orgId);
      if (used + (upload.size ?? 0) > ctx.config.quota.storageBytes) throw { status_code: 413, body: `${storageFullError(ctx, used, upload.size ?? 0).message}\n` };
      ctx.db
        .prepare("INSERT INTO uploads (file_id, org_id, user_id, path, filename, size_bytes, media_type, complete, via, created_at) VALUES (?, ?, ?, ?, ?, ?, '', 0, 'tus', ?)")
        .run(upload.id, s.principal.orgId, s.principal.userId, join(directory, upload.id), sanitizeFilename(upload.metadata?.filename ?? undefined, 'upload'), upload.size ?? 0, new Date().toISOString());
      return {};
    },
    async onUploadFinish(_req, upload) {
      const path = join(directory, upload.id);
      const sniffed = await sniffFile(path);
      ctx.db.prepare('UPDATE uploads SET complete = 1, size_bytes = ?, media_type = ? WHERE file_id = ?').run(upload.size ?? upload.offset, sniffed?.mime ?? 'application/octet-stream', upload.id);
      return { headers: { 'X-File-Id': upload.id } };
    },
  });
  server.on(EVENTS.POST_TERMINATE, (_req, _res, id) => {
    ctx.db.prepare('DELETE FROM uploads WHERE file_id = ?').run(id);
  });

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    // tus requests carry everything in headers; a query string could only confuse which upload is meant.
    if (req.url.includes('?')) throw plainError(400, 'tus requests take no query string');
    const limiter = app.rateLimiter;
    let principal: UserPrincipal | null = null;
    if (req.method !== 'OPTIONS') {
      try {
        principal = await authenticate(ctx, 'bearer', req);
      } catch (err) {
        limiter.hit(`ip:${req.ip}`, reply);
        throw err;
      }
    }
    limiter.hit(principal?.rateKey ?? `ip:${req.ip}`, reply);
    const id = tusFileId(req.url);
    if (req.url !== TUS_PATH && !id) throw plainError(404, 'upload not found');
    if (id && principal) {
      const row = ctx.db.prepare('SELECT org_id FROM uploads WHERE file_id = ?').get(id) as { org_id: number } | undefined;
      if (!row || row.org_id !== principal.orgId) throw plainError(404, 'upload not found');
    }
    const checksum = req.method === 'PATCH' || req.method === 'POST' ? parseChecksum(req.headers['upload-checksum']) : undefined;
    reply.hijack();
    // The rate-limit headers were set on the Fastify reply, which is bypassed from here on.
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v);
    reply.raw.setHeader('Tus-Checksum-Algorithm', CHECKSUM_ALGORITHMS.join(','));
    try {
      await scope.run({ principal: principal!, checksum }, () => server.handle(req.raw, reply.raw));
    } catch (e) {
      ctx.log.error('tus request failed', { error: String(e) });
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'text/plain' });
      reply.raw.end('internal error\n');
    }
  };

  await app.register(async (tus) => {
    // tus bodies (application/offset+octet-stream) are read by @tus/server itself, as a stream.
    tus.removeAllContentTypeParsers();
    tus.addContentTypeParser('*', (_req, _payload, done) => done(null));
    for (const url of [TUS_PATH, `${TUS_PATH}/:id`]) {
      tus.route({ method: ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'], url, handler, exposeHeadRoute: false });
    }
  });
}

/** Removes expired unfinished tus uploads and forgets their rows; answers how many. */
export async function cleanUpExpiredTus(ctx: ServiceContext): Promise<number> {
  const removed = await removeExpiredUploads(tusStore(ctx));
  const forget = ctx.db.prepare("DELETE FROM uploads WHERE via = 'tus' AND file_id = ?");
  for (const id of removed) forget.run(id);
  return removed.length;
}

/**
 * Removes unfinished uploads older than TUS_EXPIRY_MS, data and info file alike. Not the library's
 * deleteExpired: that compares the size with the offset saved at creation (always 0), so it would
 * also delete finished uploads that sessions still read. Here the offset is the file's real size.
 */
async function removeExpiredUploads(store: FileStore, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const id of (await store.configstore.list?.()) ?? []) {
    // Finished uploads come back without a creation date (see getUpload), so they never expire.
    const upload = await store.getUpload(id).catch(() => null);
    if (!upload?.creation_date || Date.parse(upload.creation_date) + TUS_EXPIRY_MS > now) continue;
    await store.remove(id);
    removed.push(id);
  }
  return removed;
}
