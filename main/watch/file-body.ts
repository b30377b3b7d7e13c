/**
 * Upload bodies read from one open file handle (opened with O_NOFOLLOW and checked: no-follow.ts),
 * never from the path again, streamed so memory stays flat whatever the size:
 * - handleFile: a File for fetch (the multipart part, or the legacy PUT's whole body) that can
 *   report the bytes read, so the PUT shows progress (bytes read is bytes sent, less what the
 *   socket buffers);
 * - handleFileReader: tus-js-client's fileReader, whose chunks are ranges of the handle (so a
 *   resumed upload starts at the service's offset).
 *
 * handleFile must be a real File (a subclass): fetch in Node 24 (undici 7) takes a body as a Blob
 * only when it is an instance of Blob, and sends anything else as its string, "[object Blob]".
 */
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

export interface HandleSource {
  handle: FileHandle;
  /** Bytes to send: the file's first `size` bytes. */
  size: number;
}

/** A stream of bytes [start, end) of the handle; the handle stays open. */
function rangeStream(src: HandleSource, start: number, end: number): Readable {
  // createReadStream's end is inclusive; an empty range is an empty stream.
  if (end <= start) return Readable.from([]);
  return src.handle.createReadStream({ start, end: end - 1, autoClose: false, emitClose: true });
}

/** The most read from the file at a time. */
const CHUNK = 64 * 1024;

/**
 * Bytes [start, end) of the handle as a web stream, read as fetch asks for them. Made here rather
 * than with Readable.toWeb: when fetch gives up on a body (the service unreachable), toWeb's
 * adapter throws its premature close where nothing can catch it.
 */
function webRange(src: HandleSource, start: number, end: number): ReadableStream<Uint8Array<ArrayBuffer>> {
  let at = start;
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      async pull(out) {
        if (at >= end) return out.close();
        const chunk = new Uint8Array(Math.min(CHUNK, end - at));
        const { bytesRead } = await src.handle.read(chunk, 0, chunk.byteLength, at);
        if (bytesRead === 0) return out.error(new Error('the file became shorter while it was being sent'));
        at += bytesRead;
        out.enqueue(chunk.subarray(0, bytesRead));
      },
      cancel() {
        // Nothing to release: the handle is the caller's to close.
      },
    },
    { highWaterMark: 0 },
  );
}

class HandleFile extends File {
  constructor(
    private readonly src: HandleSource,
    name: string,
    type: string,
    private readonly onRead?: (bytes: number) => void,
  ) {
    super([], name, { type });
    // Own property over File's getter (which reads the empty parent's internals).
    Object.defineProperty(this, 'size', { value: src.size });
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    let read = 0;
    const onRead = this.onRead;
    const bytes = webRange(this.src, 0, this.src.size);
    if (!onRead) return bytes;
    return bytes.pipeThrough(
      new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
        transform(chunk, out) {
          read += chunk.byteLength;
          onRead(read);
          out.enqueue(chunk);
        },
      }),
    );
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    return new Response(this.stream()).arrayBuffer();
  }

  override async text(): Promise<string> {
    return new Response(this.stream()).text();
  }
}

/** The handle's bytes as a File named `name`, for FormData (set without a file name: this one is kept) or a PUT body. */
export function handleFile(src: HandleSource, name: string, type: string, onRead?: (bytes: number) => void): File {
  return new HandleFile(src, name, type, onRead);
}

/** tus-js-client's fileReader (its Node FileSource reopens a path per chunk): each chunk a range of the handle. */
export function handleFileReader(src: HandleSource) {
  return {
    openFile: async () => ({
      size: src.size,
      slice: async (start: number, end: number) => {
        const stop = Math.min(end, src.size);
        // tus's Node HTTP stack sends `size` as the chunk's Content-Length and pipes the stream.
        const value = Object.assign(rangeStream(src, start, stop), { size: Math.max(0, stop - start) });
        return { value, done: stop >= src.size };
      },
      close: () => {}, // the handle is the caller's to close
    }),
  };
}
