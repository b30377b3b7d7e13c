/**
 * Upload bodies read from one open file handle (opened with O_NOFOLLOW and checked: no-follow.ts),
 * never from the path again, streamed so memory stays flat whatever the size:
 * - handleBody: the handle's bytes as a web stream for fetch (the legacy PUT), reporting the bytes
 *   read, so the PUT shows progress (bytes read is bytes sent, less what the socket buffers);
 * - multipartBody: the same bytes as the one file part of a multipart/form-data body;
 * - handleFileReader: tus-js-client's fileReader, whose chunks are ranges of the handle (so a
 *   resumed upload starts at the service's offset).
 *
 * fetch gets a ReadableStream of our own, never a Blob, File or FormData: for those, Node's fetch
 * (undici 7) pumps the bytes into the request from a promise nothing awaits, and when the request
 * ends early (cancelled, the service gone) its next write throws "ReadableStream is already closed"
 * as an unhandled rejection, which ends the process. A stream of ours is only read when fetch asks.
 */
import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

export interface HandleSource {
  handle: FileHandle;
  /** Bytes to send: the file's first `size` bytes. */
  size: number;
}

/** The most read from the file at a time. */
const CHUNK = 64 * 1024;

/** Bytes [start, end) of the handle, read a chunk at a time as they are asked for; the handle stays open. */
async function* readRange(src: HandleSource, start: number, end: number): AsyncGenerator<Buffer> {
  for (let at = start; at < end; ) {
    const chunk = Buffer.allocUnsafeSlow(Math.min(CHUNK, end - at)); // its own memory, never the shared pool: fetch may keep it
    const { bytesRead } = await src.handle.read(chunk, 0, chunk.byteLength, at);
    if (bytesRead === 0) throw new Error('the file became shorter while it was being sent');
    at += bytesRead;
    yield chunk.subarray(0, bytesRead);
  }
}

/**
 * Bytes [start, end) of the handle as a Node stream (tus's chunks). Not the handle's own
 * createReadStream: each of those hangs a listener on the handle until it closes, so a long upload
 * of many chunks kept every chunk's stream alive (and Node warned of a leak past ten).
 */
function rangeStream(src: HandleSource, start: number, end: number): Readable {
  const chunk = Readable.from(readRange(src, start, end), { objectMode: false });
  // tus pipes a chunk into its request without listening for the chunk's errors, so a read that
  // fails (the upload paused and the file closed while a read was under way, or the file cut short)
  // must not be thrown where nothing catches it, ending the process. The chunk stops short instead:
  // a paused request is aborted already, and any other the service refuses or times out, and tus
  // tries again.
  chunk.on('error', () => {});
  return chunk;
}

/**
 * Bytes [start, end) of the handle as a web stream, read as fetch asks for them. Made here rather
 * than with Readable.toWeb: when fetch gives up on a body (the service unreachable), toWeb's
 * adapter throws its premature close where nothing can catch it.
 */
function webRange(src: HandleSource, start: number, end: number): ReadableStream<Uint8Array<ArrayBuffer>> {
  const chunks = readRange(src, start, end);
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      async pull(out) {
        const { done, value } = await chunks.next();
        if (done) return out.close();
        out.enqueue(new Uint8Array(value.buffer as ArrayBuffer, value.byteOffset, value.byteLength));
      },
      async cancel() {
        // Ends the reading; the handle is the caller's to close.
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** A request body for fetch (with `duplex: 'half'`): a new stream of its bytes at each `open`, how many, and their type. */
export interface StreamBody {
  open(): ReadableStream<Uint8Array<ArrayBuffer>>;
  length: number;
  contentType: string;
}

/** The handle's bytes as the whole body; `onRead` hears the running count of bytes read (from 0 at each open). */
export function handleBody(src: HandleSource, contentType: string, onRead?: (bytes: number) => void): StreamBody {
  const open = () => {
    const bytes = webRange(src, 0, src.size);
    if (!onRead) return bytes;
    let read = 0;
    return bytes.pipeThrough(
      new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
        transform(chunk, out) {
          read += chunk.byteLength;
          onRead(read);
          out.enqueue(chunk);
        },
      }),
    );
  };
  return { open, length: src.size, contentType };
}

/** A file name in a multipart header, escaped as the HTML standard's form encoder does (", CR, LF). */
const headerName = (name: string) => name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** The handle's bytes as the one part `field` of a multipart/form-data body, named `name`. */
export function multipartBody(src: HandleSource, field: string, name: string, type: string): StreamBody {
  const boundary = `----s2t${randomBytes(16).toString('hex')}`;
  const encoder = new TextEncoder();
  const head = encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${headerName(field)}"; filename="${headerName(name)}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const open = () => {
    const file = webRange(src, 0, src.size).getReader();
    let stage: 'head' | 'file' | 'tail' | 'done' = 'head';
    return new ReadableStream<Uint8Array<ArrayBuffer>>(
      {
        async pull(out) {
          // A copy of the head and tail for each open: fetch may keep or hand on the buffers it is given.
          if (stage === 'head') {
            stage = 'file';
            return out.enqueue(head.slice());
          }
          if (stage === 'file') {
            const { done, value } = await file.read();
            if (!done) return out.enqueue(value);
            stage = 'tail';
          }
          if (stage === 'tail') {
            stage = 'done';
            return out.enqueue(tail.slice());
          }
          out.close();
        },
        cancel: (reason) => file.cancel(reason),
      },
      { highWaterMark: 0 },
    );
  };
  return { open, length: head.byteLength + src.size + tail.byteLength, contentType: `multipart/form-data; boundary=${boundary}` };
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
