/** A live stream's audio: what is not samples is stripped (PcmFramer); the file is node/wav-recording's. */
export { LiveRecording, sealRecording, wavHeader } from '../../node/wav-recording';

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
