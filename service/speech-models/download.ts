/**
 * Model downloads, only when a person (or the admin's command line) asks: from the catalog's
 * official location into NAME.part, resumed with an HTTP Range request after a pause, a kill or a
 * restart, then checked against the published SHA-1 before it is installed. A wrong checksum
 * removes the file; a cancel removes the partial file; a pause keeps it. A download the service
 * stopped by closing or dying (the app quit or was killed) carries on when the service starts
 * again; one a person paused waits for them.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CatalogEntry } from './catalog';
import { RoomError, sha1OfFile, type ModelStore } from './store';

export type DownloadState = 'idle' | 'downloading' | 'verifying' | 'paused' | 'failed';

export interface DownloadStatus {
  state: DownloadState;
  received: number;
  total: number;
  error: string | null;
}

interface Running {
  ac: AbortController;
  stop: 'pause' | 'cancel' | null;
  state: 'downloading' | 'verifying';
  received: number;
  total: number;
  done: Promise<void>;
}

/** A server may send at most this much more than the catalog's size before the download is stopped. */
const SIZE_SLACK = 1.05;

export class DownloadRefused extends Error {
  constructor(
    message: string,
    readonly status: 404 | 409 | 507,
  ) {
    super(message);
  }
}

export class ModelDownloads {
  private running = new Map<string, Running>();
  private failures = new Map<string, string>();

  constructor(
    private store: ModelStore,
    private hooks: { installed(name: string): void; log(msg: string, fields?: Record<string, unknown>): void },
  ) {}

  status(name: string): DownloadStatus {
    const r = this.running.get(name);
    const total = this.store.catalogEntry(name)?.bytes ?? 0;
    if (r) return { state: r.state, received: r.received, total: r.total || total, error: null };
    const error = this.failures.get(name) ?? null;
    const part = this.store.partBytes(name);
    if (part > 0) return { state: 'paused', received: part, total, error };
    return { state: error ? 'failed' : 'idle', received: 0, total, error };
  }

  /** Starts or resumes; refuses an unknown or installed model, a second start, or a disk without room. */
  async start(name: string): Promise<void> {
    const entry = this.store.catalogEntry(name);
    if (!entry) throw new DownloadRefused(`There is no model called "${name}" to download.`, 404);
    if (this.store.find(name)) throw new DownloadRefused(`The model "${name}" is already installed.`, 409);
    if (this.running.has(name)) return;
    try {
      await this.store.assertRoomFor(entry.bytes - this.store.partBytes(name));
    } catch (e) {
      if (e instanceof RoomError) throw new DownloadRefused(e.message, 507);
      throw e;
    }
    this.failures.delete(name);
    this.store.setPaused(name, false);
    const r: Running = { ac: new AbortController(), stop: null, state: 'downloading', received: this.store.partBytes(name), total: entry.bytes, done: Promise.resolve() };
    this.running.set(name, r);
    r.done = this.run(entry, r).finally(() => this.running.delete(name));
  }

  /** Stops the transfer and keeps what arrived, until a person starts it again. */
  async pause(name: string): Promise<void> {
    await this.stop(name, 'pause');
    if (this.store.partBytes(name) > 0) this.store.setPaused(name, true);
  }

  /** Carries on every download the service stopped without being asked to (a kill, the app quitting). */
  resumeInterrupted(): void {
    for (const entry of this.store.catalog) {
      if (this.store.partBytes(entry.name) === 0 || this.store.isPaused(entry.name) || this.store.find(entry.name)) continue;
      this.hooks.log('speech model download resumed', { name: entry.name, bytes: this.store.partBytes(entry.name) });
      this.start(entry.name).catch((e: Error) => {
        this.failures.set(entry.name, e.message);
        this.hooks.log('speech model download not resumed', { name: entry.name, error: e.message });
      });
    }
  }

  /** Stops the transfer and removes the partial file. */
  async cancel(name: string): Promise<void> {
    await this.stop(name, 'cancel');
    await rm(this.store.partPath(name), { force: true });
    this.store.setPaused(name, false);
    this.failures.delete(name);
  }

  /** Stops every transfer (the service is closing): each carries on from its partial file at the next start. */
  async close(): Promise<void> {
    await Promise.all([...this.running.keys()].map((n) => this.stop(n, 'pause')));
  }

  private async stop(name: string, how: 'pause' | 'cancel'): Promise<void> {
    const r = this.running.get(name);
    if (!r) return;
    r.stop = how;
    r.ac.abort();
    await r.done;
  }

  private async run(entry: CatalogEntry, r: Running): Promise<void> {
    const part = this.store.partPath(entry.name);
    try {
      await this.transfer(entry, r, part);
      r.state = 'verifying';
      const sha1 = await sha1OfFile(part, r.ac.signal);
      if (sha1 !== entry.sha1) {
        await rm(part, { force: true });
        throw new Error(`The downloaded file does not match the published checksum (SHA-1 ${sha1}, expected ${entry.sha1}); it was removed. Try again later.`);
      }
      this.store.install(part, { name: entry.name, label: entry.label, bytes: r.received, sha1, languages: entry.languages, source: entry.url });
      this.hooks.log('speech model installed', { name: entry.name, bytes: r.received });
      this.hooks.installed(entry.name);
    } catch (e) {
      if (r.stop) return;
      const message = (e as Error).message;
      this.failures.set(entry.name, message);
      this.hooks.log('speech model download failed', { name: entry.name, error: message });
    }
  }

  private async transfer(entry: CatalogEntry, r: Running, part: string): Promise<void> {
    const from = r.received;
    let res: Response;
    try {
      res = await fetch(entry.url, { headers: from > 0 ? { range: `bytes=${from}-` } : {}, signal: r.ac.signal, redirect: 'follow' });
    } catch (e) {
      if (r.stop) throw e;
      throw new Error(`The model's download location could not be reached (${(e as Error).message}).`);
    }
    if (res.status === 416 && from > 0) {
      // Everything already arrived: the check decides.
      await res.body?.cancel();
      return;
    }
    if (res.status !== 200 && res.status !== 206) {
      await res.body?.cancel();
      throw new Error(`The model's download location answered ${res.status} ${res.statusText}.`);
    }
    // A server that ignores Range sends the whole file again: start over rather than append it.
    const append = res.status === 206 && from > 0;
    if (!append) r.received = 0;
    const length = Number(res.headers.get('content-length') ?? NaN);
    r.total = Number.isFinite(length) ? r.received + length : entry.bytes;
    const limit = Math.ceil(entry.bytes * SIZE_SLACK);
    if (r.total > limit) {
      await res.body?.cancel();
      throw new Error(`The server offers ${r.total} bytes for a model of about ${entry.bytes}; nothing more was downloaded.`);
    }
    if (!res.body) throw new Error('The model download answered without a body.');
    const count = new Transform({
      transform: (chunk: Buffer, _enc, cb) => {
        r.received += chunk.length;
        if (r.received > limit) cb(new Error(`The download grew past the model's published size (${entry.bytes} bytes); it was stopped.`));
        else cb(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), count, createWriteStream(part, { flags: append ? 'a' : 'w', mode: 0o600 }), { signal: r.ac.signal });
  }
}
