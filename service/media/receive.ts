import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { plainError } from '../http/errors';

/** Largest media accepted in one request (legacy PUT, multipart); bigger files use tus. */
export const MAX_DIRECT_UPLOAD_BYTES = 4 * 1024 ** 3;

export const directUploadTooLarge = () => plainError(413, `the upload is larger than ${MAX_DIRECT_UPLOAD_BYTES / 1024 ** 3} GiB; use the resumable (tus) upload`);

/** Room left in the organization's storage quota (service/quotas/storage.ts), and its refusal. */
export interface StorageRoom {
  room: number;
  full(): Error;
}

/**
 * Streams a request body or a multipart file part to a file (never buffered); refuses with 413 past
 * the cap (parts are given the cap as their fileSize limit) or past the room the storage quota
 * leaves, and removes what was written.
 */
export async function receiveToFile(source: Readable, path: string, quota?: StorageRoom): Promise<number> {
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      if (bytes > MAX_DIRECT_UPLOAD_BYTES) cb(directUploadTooLarge());
      else if (quota && bytes > quota.room) cb(quota.full());
      else cb(null, chunk);
    },
  });
  try {
    await pipeline(source, cap, createWriteStream(path, { mode: 0o600 }));
    // A multipart file part stops quietly at its fileSize limit and says so afterwards.
    if ((source as { truncated?: boolean }).truncated) throw directUploadTooLarge();
  } catch (e) {
    await rm(path, { force: true });
    throw e;
  }
  return bytes;
}
