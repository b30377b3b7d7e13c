/**
 * Content sniffing by magic numbers on the first bytes of a file, so a file that is not media is
 * refused at upload (INVALID_FILE_FORMAT) whatever its name or Content-Type claim. The real check
 * of whether it decodes is ffmpeg's, in the job.
 */
import { open } from 'node:fs/promises';
import { SUPPORTED_MEDIA_FORMATS } from '../../common/api';
import { codedError } from '../http/errors';

export interface Sniffed {
  /** MIME type reported as the session's media_type. */
  mime: string;
  ext: string;
  /** The ffmpeg demuxer for this format: decoding is forced to it, never left to ffmpeg's own probing. */
  demuxer: string;
}

const ascii = (b: Buffer, at: number, s: string) => b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

/** Sniffs the first bytes of a file; an ID3 tag is not enough on its own (see sniffFile). */
export function sniffBytes(b: Buffer): Sniffed | null {
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return { mime: 'audio/wav', ext: 'wav', demuxer: 'wav' };
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'AVI ')) return { mime: 'video/x-msvideo', ext: 'avi', demuxer: 'avi' };
  if (ascii(b, 0, 'fLaC')) return { mime: 'audio/flac', ext: 'flac', demuxer: 'flac' };
  if (ascii(b, 0, 'OggS')) return ascii(b, 28, 'OpusHead') ? { mime: 'audio/opus', ext: 'opus', demuxer: 'ogg' } : { mime: 'audio/ogg', ext: 'ogg', demuxer: 'ogg' };
  if (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0) {
    // MPEG audio frame sync; 0xFFF1/0xFFF9 is ADTS AAC.
    return (b[1] & 0x06) === 0 ? { mime: 'audio/aac', ext: 'aac', demuxer: 'aac' } : { mime: 'audio/mpeg', ext: 'mp3', demuxer: 'mp3' };
  }
  if (ascii(b, 4, 'ftyp')) {
    const brand = b.toString('latin1', 8, 12);
    if (brand.startsWith('M4A') || brand.startsWith('M4B')) return { mime: 'audio/mp4', ext: 'm4a', demuxer: 'mov' };
    if (brand.startsWith('qt')) return { mime: 'video/quicktime', ext: 'mov', demuxer: 'mov' };
    return { mime: 'video/mp4', ext: 'mp4', demuxer: 'mov' };
  }
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3) {
    return b.includes('webm') ? { mime: 'video/webm', ext: 'webm', demuxer: 'matroska' } : { mime: 'video/x-matroska', ext: 'mkv', demuxer: 'matroska' };
  }
  return null;
}

/** Length of the ID3v2 tag the bytes start with (header, syncsafe size, optional footer), or 0. */
function id3Length(b: Buffer): number {
  if (!ascii(b, 0, 'ID3') || b.length < 10) return 0;
  const size = ((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f);
  return 10 + size + (b[5] & 0x10 ? 10 : 0);
}

/** What may follow an ID3 tag: MPEG audio (mp3, ADTS AAC) or FLAC. */
const AFTER_ID3 = new Set(['mp3', 'aac', 'flac']);
const MAX_ID3_TAGS = 4;

/**
 * Sniffs a stored file. Behind ID3 tags the real content must be audio too: "ID3" followed by a
 * playlist (#EXTM3U) or anything else is refused, since ffmpeg would follow what a playlist names.
 */
export async function sniffFile(path: string): Promise<Sniffed | null> {
  const fh = await open(path, 'r');
  try {
    let at = 0;
    for (let tags = 0; tags <= MAX_ID3_TAGS; tags++) {
      const buf = Buffer.alloc(64);
      const { bytesRead } = await fh.read(buf, 0, 64, at);
      const head = buf.subarray(0, bytesRead);
      const tag = id3Length(head);
      if (tag === 0) {
        const s = sniffBytes(head);
        return at === 0 || (s && AFTER_ID3.has(s.ext)) ? s : null;
      }
      at += tag;
    }
    return null;
  } finally {
    await fh.close();
  }
}

export function invalidFileFormat(what = 'the file is not audio or video'): Error {
  return codedError(415, 'INVALID_FILE_FORMAT', `${what}; upload one of the supported formats`, { supported_formats: [...SUPPORTED_MEDIA_FORMATS] });
}

/** Sniffs a stored file, or throws the newer INVALID_FILE_FORMAT error. */
export async function requireMedia(path: string): Promise<Sniffed> {
  const s = await sniffFile(path);
  if (!s) throw invalidFileFormat();
  return s;
}
