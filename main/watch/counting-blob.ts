/**
 * A file-backed Blob that reports how many bytes have been read from it, so a plain fetch PUT can
 * show upload progress while streaming from disk (memory stays flat whatever the size). fetch
 * (undici) takes any Blob-like: it sends Content-Length from `size` and reads `stream()` as it
 * writes to the socket, so bytes read is bytes sent, less what the socket buffers.
 */
import { openAsBlob } from 'node:fs';

export async function countingBlob(path: string, type: string, onRead: (bytes: number) => void): Promise<Blob> {
  const blob = await openAsBlob(path, { type });
  return {
    size: blob.size,
    type: blob.type,
    [Symbol.toStringTag]: 'Blob',
    stream() {
      let read = 0;
      return blob.stream().pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, out) {
            read += chunk.byteLength;
            onRead(read);
            out.enqueue(chunk);
          },
        }),
      );
    },
    arrayBuffer: () => blob.arrayBuffer(),
    text: () => blob.text(),
    slice: (...args: Parameters<Blob['slice']>) => blob.slice(...args),
  } as unknown as Blob;
}
