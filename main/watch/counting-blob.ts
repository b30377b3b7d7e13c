/**
 * A file-backed Blob that reports how many bytes have been read from it, so a plain fetch PUT can
 * show upload progress while streaming from disk (memory stays flat whatever the size). fetch
 * sends Content-Length from `size` and reads `stream()` as it writes to the socket, so bytes read
 * is bytes sent, less what the socket buffers.
 *
 * It must be a real Blob (a subclass): fetch in Node 24 (undici 7) takes a body as a Blob only
 * when it is an instance of Blob, and sends anything else as its string, "[object Blob]", which
 * the service rightly calls not audio or video.
 */
import { openAsBlob } from 'node:fs';

class CountingBlob extends Blob {
  constructor(
    private readonly file: Blob,
    private readonly onRead: (bytes: number) => void,
  ) {
    super([]);
    // Own properties over Blob's getters (which read the empty parent's internals).
    Object.defineProperties(this, { size: { value: file.size }, type: { value: file.type } });
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    let read = 0;
    const onRead = this.onRead;
    return this.file.stream().pipeThrough(
      new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
        transform(chunk, out) {
          read += chunk.byteLength;
          onRead(read);
          out.enqueue(chunk);
        },
      }),
    );
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.file.arrayBuffer();
  }

  override text(): Promise<string> {
    return this.file.text();
  }

  override slice(...args: Parameters<Blob['slice']>): Blob {
    return this.file.slice(...args);
  }
}

export async function countingBlob(path: string, type: string, onRead: (bytes: number) => void): Promise<Blob> {
  return new CountingBlob(await openAsBlob(path, { type }), onRead);
}
