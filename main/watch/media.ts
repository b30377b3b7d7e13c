/** What a file is, by its bytes: media sniffing by magic numbers, and a streamed content hash. */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';

/** Containers that carry audio or video although their sniffed type is not audio/* or video/*. */
const MEDIA_CONTAINERS = new Set(['application/ogg', 'application/mp4', 'application/vnd.ms-asf', 'application/x-matroska', 'application/mxf']);

/** The media type of a file by its content (not its name), or null when it is not audio or video. */
export async function sniffMedia(path: string): Promise<string | null> {
  const type = await fileTypeFromFile(path).catch(() => undefined);
  if (!type) return null;
  if (type.mime.startsWith('audio/') || type.mime.startsWith('video/') || MEDIA_CONTAINERS.has(type.mime)) return type.mime;
  return null;
}

/** sha256 of a file's content, read as a stream so memory stays flat whatever the size. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), hash);
  return hash.digest('hex');
}
