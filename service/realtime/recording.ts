/**
 * A live stream's audio, written to the session's media folder as it arrives (16 kHz mono 16-bit
 * WAV): nothing received is lost if the service stops mid-stream, and the header's sizes are set
 * when the stream ends (readers of the batch path accept an unfinished header too).
 */
import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

const HEADER_BYTES = 44;

export function wavHeader(dataBytes: number, sampleRate = 16_000): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(Math.min(0xffffffff, dataBytes), 40);
  return h;
}

export class LiveRecording {
  private fd: number;
  bytes = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w', 0o600);
    writeSync(this.fd, wavHeader(0xffffffff - 36));
  }

  append(pcm: Int16Array): void {
    if (this.fd < 0) return;
    writeSync(this.fd, new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    this.bytes += pcm.byteLength;
  }

  /** Sets the header's sizes and closes the file. */
  finish(): void {
    if (this.fd < 0) return;
    writeSync(this.fd, wavHeader(this.bytes), 0, HEADER_BYTES, 0);
    closeSync(this.fd);
    this.fd = -1;
  }
}

/** Sets the sizes of a recording left unfinished (the service stopped); answers its audio bytes (0: none or no file). */
export function sealRecording(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch {
    return 0;
  }
  try {
    const bytes = Math.max(0, fstatSync(fd).size - HEADER_BYTES) & ~1;
    writeSync(fd, wavHeader(bytes), 0, HEADER_BYTES, 0);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * Strips what is not samples from the front of a stream: a RIFF/WAV header (the example clients
 * pipe `ffmpeg -f wav -`), found by its `data` chunk; returns the samples and any odd byte carried.
 */
export class PcmFramer {
  private head: Buffer | null = Buffer.alloc(0);
  private carry: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Int16Array {
    let bytes = chunk;
    if (this.head) {
      const seen = Buffer.concat([this.head, chunk]);
      if (seen.length < 4 && 'RIFF'.startsWith(seen.toString('latin1'))) {
        this.head = seen;
        return new Int16Array(0);
      }
      if (seen.toString('latin1', 0, 4) === 'RIFF') {
        const at = dataChunkStart(seen);
        if (at === null) {
          if (seen.length > 64 * 1024) throw new Error('the WAV header has no data chunk in its first 64 KiB');
          this.head = seen;
          return new Int16Array(0);
        }
        bytes = seen.subarray(at);
      } else bytes = seen;
      this.head = null;
    }
    const all = this.carry.length ? Buffer.concat([this.carry, bytes]) : bytes;
    const even = all.length & ~1;
    this.carry = Buffer.from(all.subarray(even));
    const aligned = Buffer.from(all.subarray(0, even));
    return new Int16Array(aligned.buffer, aligned.byteOffset, even / 2);
  }
}

/** Where a WAV's samples begin (after the `data` chunk's header), or null when not yet seen. */
function dataChunkStart(b: Buffer): number | null {
  let at = 12;
  while (at + 8 <= b.length) {
    const id = b.toString('latin1', at, at + 4);
    const len = b.readUInt32LE(at + 4);
    if (id === 'data') return at + 8;
    at += 8 + len + (len & 1);
  }
  return null;
}
