/**
 * A recording written as it is made (16 kHz mono 16-bit WAV): nothing received is lost if the
 * process stops, and the header's sizes are set when it ends (sealRecording mends a file left
 * unfinished). The service keeps a live stream's audio so; the app keeps what its microphone hears.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
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

  /** `resume`: goes on after the samples already in the file (a resumed stream). */
  constructor(readonly path: string, resume = false) {
    mkdirSync(dirname(path), { recursive: true });
    if (resume) {
      this.bytes = sealRecording(path);
      this.fd = openSync(path, 'r+');
    } else {
      this.fd = openSync(path, 'w+', 0o600);
      writeSync(this.fd, wavHeader(0xffffffff - 36));
    }
  }

  append(pcm: Int16Array): void {
    if (this.fd < 0) return;
    writeSync(this.fd, new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength), 0, pcm.byteLength, HEADER_BYTES + this.bytes);
    this.bytes += pcm.byteLength;
  }

  /** Samples from `fromSample` to the end (for the recogniser of a resumed stream). */
  samplesFrom(fromSample: number): Int16Array {
    const from = Math.min(this.bytes, fromSample * 2);
    const buf = Buffer.alloc(this.bytes - from);
    if (buf.length > 0) readSync(this.fd, buf, 0, buf.length, HEADER_BYTES + from);
    return new Int16Array(buf.buffer, buf.byteOffset, buf.length / 2);
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
