/**
 * A bound on what a media file may decode to. The engines work on 16 kHz mono 16-bit PCM, 32,000
 * bytes a second; the most a real recording compresses speech is about 1 kb/s (AMR, Speex, Opus at
 * their lowest take 2-6 kb/s), 125 bytes a second, so its decoded audio is at most
 * MAX_DECODE_RATIO times its size. A file claiming more (85 KB of FLAC holding 12 hours of
 * silence: 1.4 GB of PCM) is a compression bomb and is refused before it is decoded; and no
 * decode may write more than the ratio allows, whatever its header says.
 */
import { MediaError } from './decode';

export const PCM_BYTES_PER_SECOND = 32_000;
export const MAX_DECODE_RATIO = 256;

const size = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : bytes >= 1024 ** 2 ? `${(bytes / 1024 ** 2).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);
const length = (s: number) => (s >= 3600 ? `${+(s / 3600).toFixed(1)} h` : `${+(s / 60).toFixed(1)} min`);

/** The longest audio (s) a file of `fileBytes` may decode to. */
export function maxDecodedSeconds(fileBytes: number): number {
  return (fileBytes * MAX_DECODE_RATIO) / PCM_BYTES_PER_SECOND;
}

/** Refuses media whose stated duration decodes to more than any recording of its size could hold. */
export function assertPlausibleDecode(fileBytes: number, durationSec: number): void {
  if (durationSec <= maxDecodedSeconds(fileBytes)) return;
  throw new MediaError(
    `The media file is ${size(fileBytes)} but says it holds ${length(durationSec)} of audio (${size(durationSec * PCM_BYTES_PER_SECOND)} once decoded); no recording compresses that far, so it was not processed.`,
  );
}
