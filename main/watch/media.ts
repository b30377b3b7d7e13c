/** What a file is, by its bytes: media sniffing by magic numbers, and a streamed content hash. */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { READ_NO_FOLLOW } from './no-follow';

/** Containers that carry audio or video although their sniffed type is not audio/* or video/*. */
const MEDIA_CONTAINERS = new Set(['application/ogg', 'application/mp4', 'application/vnd.ms-asf', 'application/x-matroska', 'application/mxf']);

/** The first bytes' type of a regular file opened without following a link (a link, a FIFO, a device: none). */
async function sniffType(path: string) {
  const fh = await open(path, READ_NO_FOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!fh) return undefined;
  try {
    if (!(await fh.stat()).isFile()) return undefined;
    // Loaded by the first file to sniff (a watch folder's or an import's), not at the app's start.
    const { fileTypeFromStream } = await import('file-type');
    const stream = fh.readableWebStream();
    try {
      return await fileTypeFromStream(stream).catch(() => undefined);
    } finally {
      await stream.cancel().catch(() => {});
    }
  } finally {
    await fh.close();
  }
}

/** The media type of a file by its content (not its name), or null when it is not audio or video. */
export async function sniffMedia(path: string): Promise<string | null> {
  const type = await sniffType(path);
  if (!type) return null;
  if (type.mime.startsWith('audio/') || type.mime.startsWith('video/') || MEDIA_CONTAINERS.has(type.mime)) return type.mime;
  return null;
}

/** Files that are not media and are expected beside it (align texts, captions, our outputs, system files): not worth a "not media". */
const EXPECTED_BESIDE_MEDIA = new Set(['txt', 'srt', 'vtt', 'sbv', 'ttml', 'xml', 'stl', 'json', 'html', 'htm', 'docx', 'doc', 'pdf', 'md', 'ds_store', 'ini', 'db', 'tmp', 'part', 'crdownload']);

export function expectedBesideMedia(path: string): boolean {
  return basename(path).startsWith('.') || EXPECTED_BESIDE_MEDIA.has(extname(path).slice(1).toLowerCase());
}

/** sha256 of a file's content, read as a stream so memory stays flat whatever the size. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  const fh = await open(path, READ_NO_FOLLOW);
  await pipeline(fh.createReadStream({ highWaterMark: 1 << 20 }), hash);
  return hash.digest('hex');
}
