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
}

const ascii = (b: Buffer, at: number, s: string) => b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

export function sniffBytes(b: Buffer): Sniffed | null {
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return { mime: 'audio/wav', ext: 'wav' };
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'AVI ')) return { mime: 'video/x-msvideo', ext: 'avi' };
  if (ascii(b, 0, 'fLaC')) return { mime: 'audio/flac', ext: 'flac' };
  if (ascii(b, 0, 'OggS')) return ascii(b, 28, 'OpusHead') ? { mime: 'audio/opus', ext: 'opus' } : { mime: 'audio/ogg', ext: 'ogg' };
  if (ascii(b, 0, 'ID3')) return { mime: 'audio/mpeg', ext: 'mp3' };
  if (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0) {
    // MPEG audio frame sync; 0xFFF1/0xFFF9 is ADTS AAC.
    return (b[1] & 0x06) === 0 ? { mime: 'audio/aac', ext: 'aac' } : { mime: 'audio/mpeg', ext: 'mp3' };
  }
  if (ascii(b, 4, 'ftyp')) {
    const brand = b.toString('latin1', 8, 12);
    if (brand.startsWith('M4A') || brand.startsWith('M4B')) return { mime: 'audio/mp4', ext: 'm4a' };
    if (brand.startsWith('qt')) return { mime: 'video/quicktime', ext: 'mov' };
    return { mime: 'video/mp4', ext: 'mp4' };
  }
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3) {
    return b.includes('webm') ? { mime: 'video/webm', ext: 'webm' } : { mime: 'video/x-matroska', ext: 'mkv' };
  }
  return null;
}

export async function sniffFile(path: string): Promise<Sniffed | null> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64);
    const { bytesRead } = await fh.read(buf, 0, 64, 0);
    return sniffBytes(buf.subarray(0, bytesRead));
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
