/**
 * Sends one file to the service, streaming it from disk so memory stays flat whatever its size:
 * - batch multipart (POST batch/upload) for small files;
 * - tus (TUS_PATH) for large ones, in fixed-size PATCH chunks, with the upload URL kept in a
 *   file-backed urlStorage under the content hash, so a restart resumes at the server's offset;
 * - the legacy session flow (create, then PUT) when the service has no batch family (404). The
 *   session id is handed back as soon as it exists, so a retry or a restart PUTs into that session
 *   instead of creating a second one; the PUT streams from disk with byte progress.
 * Every way reads the one handle the queue opened and checked (no-follow.ts), never the path.
 * A 401 refreshes the token and resumes the same upload; no answer at all is "offline".
 */
import type { FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import * as tus from 'tus-js-client';
import { TUS_PATH, type LegacyCreateBody } from '../../common/api';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { WatchAuth } from './auth';
import { handleBody, handleFileReader, multipartBody, type StreamBody } from './file-body';

/** A stream body's headers: its type and its length (sent as Content-Length, not chunked). */
const streamHeaders = (body: StreamBody) => ({ 'content-type': body.contentType, 'content-length': String(body.length) });

export type Uploaded = { method: 'multipart' | 'tus'; fileId: string } | { method: 'legacy'; sessionId: string };

export interface UploadSource {
  path: string;
  /** The file, open and checked: what is sent (the path only names it). */
  handle: FileHandle;
  size: number;
  mediaType: string;
  hash: string;
  /** A tus upload URL from an earlier attempt, when the queue has one. */
  tusUrl: string | null;
  /** The session the legacy flow creates, when the service has no batch family. */
  legacy: LegacyCreateBody;
  /** A legacy session an earlier attempt created: only its PUT may be left to do. */
  legacySessionId: string | null;
  /** The name the service gives the session; the file's own name by default. */
  filename?: string;
}

export interface UploadHooks {
  onBytes(sent: number, total: number): void;
  onTusUrl?(url: string): void;
  /** The legacy flow made its session: keep the id before anything else can fail. */
  onLegacySession?(sessionId: string): void;
  signal?: AbortSignal;
}

export interface UploaderOptions {
  client: ApiClient;
  auth: WatchAuth;
  /** JSON file of tus upload URLs by fingerprint (tus-js-client's FileUrlStorage). */
  tusStorageFile: string;
  /** Files at least this big go through tus. */
  tusThresholdBytes?: number;
  /** Bytes a tus PATCH carries; fixed, so memory does not grow with the file. */
  chunkBytes?: number;
}

interface TusUrlStorage {
  findAllUploads(): Promise<tus.PreviousUpload[]>;
  findUploadsByFingerprint(fingerprint: string): Promise<tus.PreviousUpload[]>;
  removeUpload(urlStorageKey: string): Promise<void>;
  addUpload(fingerprint: string, upload: tus.PreviousUpload): Promise<string>;
}
/** tus-js-client ships a file-backed urlStorage for Node but does not declare its type. */
const FileUrlStorage = (tus as unknown as { FileUrlStorage: new (path: string) => TusUrlStorage }).FileUrlStorage;

/** The service said it has no batch family. */
class NoBatchFamily extends Error {}

export const DEFAULT_TUS_THRESHOLD = 8 * 1024 * 1024;
export const DEFAULT_CHUNK = 32 * 1024 * 1024;

export class Uploader {
  /** Learned from the service: undefined until a batch call answered or 404'd. */
  private batchFamily: boolean | undefined;
  private readonly storage: TusUrlStorage;

  constructor(private readonly opts: UploaderOptions) {
    this.storage = new FileUrlStorage(opts.tusStorageFile);
  }

  async upload(src: UploadSource, hooks: UploadHooks): Promise<Uploaded> {
    if (this.batchFamily !== false && !src.legacySessionId) {
      try {
        const big = src.size >= (this.opts.tusThresholdBytes ?? DEFAULT_TUS_THRESHOLD);
        const fileId = big ? await this.tus(src, hooks) : await this.withFreshToken(() => this.multipart(src, hooks));
        this.batchFamily = true;
        return { method: big ? 'tus' : 'multipart', fileId };
      } catch (err) {
        if (!(err instanceof NoBatchFamily)) throw err;
        this.batchFamily = false;
      }
    }
    return { method: 'legacy', sessionId: await this.legacy(src, hooks) };
  }

  /** Runs fn; after a 401, refreshes the token once and runs it again. */
  async withFreshToken<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && (await this.opts.auth.refresh().catch(() => false))) return fn();
      throw err;
    }
  }

  private async multipart(src: UploadSource, hooks: UploadHooks): Promise<string> {
    const body = multipartBody(src, 'file', src.filename ?? basename(src.path), src.mediaType);
    hooks.onBytes(0, src.size);
    try {
      const res = await this.opts.client.call('batch.upload', { body: body.open, headers: streamHeaders(body) }, { signal: hooks.signal, timeoutMs: 10 * 60_000 });
      hooks.onBytes(src.size, src.size);
      return res.file_id;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 405)) throw new NoBatchFamily();
      throw err;
    }
  }

  private tus(src: UploadSource, hooks: UploadHooks): Promise<string> {
    const endpoint = this.opts.client.baseUrl + TUS_PATH;
    const auth = this.opts.auth;
    let refreshing: Promise<boolean> | null = null;
    // Chunks are ranges of the open handle (tus-js-client's own Node reader reopens the path).
    return new Promise<string>((resolve, reject) => {
      // The input is handed only to fileReader, which reads the handle.
      const upload = new tus.Upload(src.handle as unknown as Buffer, {
        fileReader: handleFileReader(src),
        endpoint,
        uploadUrl: src.tusUrl,
        uploadSize: src.size,
        chunkSize: this.opts.chunkBytes ?? DEFAULT_CHUNK,
        metadata: { filename: src.filename ?? basename(src.path), filetype: src.mediaType },
        // The content hash, not path+mtime: a renamed file resumes the same upload.
        fingerprint: async () => `s2t-watch-${src.hash}-${endpoint}`,
        urlStorage: this.storage,
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        retryDelays: [0, 500, 1000, 2000, 4000],
        onBeforeRequest: async (req) => {
          if (refreshing) await refreshing;
          refreshing = null;
          const token = await auth.token();
          if (token) req.setHeader('Authorization', `Bearer ${token}`);
        },
        onShouldRetry: (err) => {
          const status = err.originalResponse?.getStatus() ?? 0;
          if (status === 401) {
            refreshing = auth.refresh().catch(() => false);
            return true;
          }
          return status === 0 || status === 409 || status === 423 || status === 429 || status >= 500;
        },
        onProgress: (sent, total) => hooks.onBytes(sent, total),
        onUploadUrlAvailable: () => {
          if (upload.url) hooks.onTusUrl?.(upload.url);
        },
        onSuccess: ({ lastResponse }) => {
          const id = lastResponse.getHeader('x-file-id') ?? lastResponse.getHeader('upload-file-id') ?? upload.url?.split('/').pop();
          if (id) resolve(id);
          else reject(new Error('the service accepted the upload but named no file id'));
        },
        onError: (err) => {
          const status = (err as tus.DetailedError).originalResponse?.getStatus() ?? 0;
          if (status === 404 && !upload.url) reject(new NoBatchFamily());
          else if (status === 401) reject(new ApiError('batch.upload', { status, code: 'UNAUTHORIZED', message: 'the service refused our sign-in', details: {} }));
          else if (status === 0) reject(new ApiError('batch.upload', { status: 0, code: 'NETWORK', message: `the service is unreachable (${err.message.split('\n')[0]})`, details: {} }));
          else reject(new ApiError('batch.upload', { status, code: 'UPLOAD_FAILED', message: `the service refused the upload (${status})`, details: {} }));
        },
      });
      const onAbort = () => void upload.abort(false).finally(() => reject(new ApiError('batch.upload', { status: 0, code: 'ABORTED', message: 'upload paused', details: {} })));
      hooks.signal?.addEventListener('abort', onAbort, { once: true });
      void (async () => {
        if (!src.tusUrl) {
          const previous = await upload.findPreviousUploads().catch(() => []);
          if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        }
        upload.start();
      })();
    });
  }

  /** Creates the session (once: its id is saved through the hook), then PUTs the media into it; a 401 repeats only the step it hit. */
  private async legacy(src: UploadSource, hooks: UploadHooks): Promise<string> {
    const c = this.opts.client;
    let sessionId = src.legacySessionId;
    if (sessionId) {
      // A PUT that reached the service before a crash or a lost answer already attached the media.
      const s = (await this.withFreshToken(() => c.call('sessions.get', { params: { sessionId: sessionId! } }, { signal: hooks.signal }))).result;
      if (s.date_upload) {
        hooks.onBytes(src.size, src.size);
        return sessionId;
      }
    } else {
      sessionId = (await this.withFreshToken(() => c.call('sessions.create', { body: src.legacy }, { signal: hooks.signal }))).result.session_id;
      hooks.onLegacySession?.(sessionId);
    }
    const id = sessionId;
    hooks.onBytes(0, src.size);
    const body = handleBody(src, src.mediaType, (n) => hooks.onBytes(Math.min(n, src.size), src.size));
    await this.withFreshToken(async () =>
      c.call(
        'sessions.upload',
        { params: { sessionId: id }, body: body.open, headers: { 'x-filename': src.filename ?? basename(src.path), ...streamHeaders(body) } },
        { signal: hooks.signal, timeoutMs: 60 * 60_000, retries: 0 },
      ),
    );
    hooks.onBytes(src.size, src.size);
    return id;
  }
}
