/**
 * The app's kept copies of the service's media, so a session played once plays offline after.
 * Bounded: after each download the least recently played copies go until the total is under the
 * limit (the mediaCacheBytes setting). A copy is downloaded in the background the first time its
 * session plays, once even when asked twice at once, into a `.part` file renamed into place and
 * recorded only when complete: a partial download never counts as kept.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MediaFile } from './links';
import type { MediaStore } from './store';

/** The bound when no setting says otherwise. */
export const DEFAULT_MEDIA_CACHE_BYTES = 2 * 1024 ** 3;

export interface MediaCacheOptions {
  /** The folder of kept copies; nothing else lives in it. */
  dir: string;
  store: MediaStore;
  limitBytes?: () => number;
  fetch?: typeof fetch;
  now?: () => number;
  onError?: (err: Error) => void;
}

interface Download {
  /** The response's media type, once its headers came (rejects when the download cannot start). */
  mediaType: Promise<string>;
  /** Settles when the copy is kept, or the download failed (never rejects). */
  done: Promise<void>;
}

const PART = '.part';

export class MediaCache {
  private readonly downloads = new Map<string, Download>();
  private readonly abort = new AbortController();
  private readonly now: () => number;

  constructor(private readonly opts: MediaCacheOptions) {
    this.now = opts.now ?? Date.now;
    mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
    this.sweep();
  }

  private limit(): number {
    return this.opts.limitBytes?.() ?? DEFAULT_MEDIA_CACHE_BYTES;
  }

  /** The kept copy of a session, marked as just used; null when there is none (or its file went). */
  use(account: string, sessionId: string): MediaFile | null {
    const c = this.opts.store.cached(account, sessionId);
    if (!c) return null;
    const path = join(this.opts.dir, c.file);
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) {
      this.opts.store.dropCached(c.file);
      return null;
    }
    this.opts.store.touch(account, sessionId, this.now());
    return { path, mediaType: c.mediaType };
  }

  /**
   * Starts keeping a copy of `url` for the session, or joins the download under way. Resolves
   * with the media type as soon as the service answered, while the body goes on to disk.
   */
  keep(account: string, sessionId: string, url: string): Download {
    const key = `${account}\n${sessionId}`;
    const running = this.downloads.get(key);
    if (running) return running;
    let typed!: (t: string) => void;
    let untyped!: (e: Error) => void;
    const mediaType = new Promise<string>((res, rej) => ((typed = res), (untyped = rej)));
    mediaType.catch(() => {});
    const done = this.download(account, sessionId, url, typed)
      .catch((err: Error) => {
        untyped(err);
        if (!this.abort.signal.aborted) this.opts.onError?.(err);
      })
      .finally(() => this.downloads.delete(key));
    const d = { mediaType, done };
    this.downloads.set(key, d);
    return d;
  }

  /** The download under way for a session, if any (tests wait on it). */
  downloading(account: string, sessionId: string): Promise<void> | undefined {
    return this.downloads.get(`${account}\n${sessionId}`)?.done;
  }

  async close(): Promise<void> {
    this.abort.abort();
    await Promise.all([...this.downloads.values()].map((d) => d.done));
  }

  private async download(account: string, sessionId: string, url: string, typed: (t: string) => void): Promise<void> {
    const res = await (this.opts.fetch ?? fetch)(url, { signal: this.abort.signal });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new Error(`the service answered ${res.status} for the media of ${sessionId}`);
    }
    const mediaType = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0].trim().toLowerCase();
    typed(mediaType);
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > this.limit()) {
      // Larger than the whole cache: it would only evict everything and then itself.
      await res.body.cancel();
      return;
    }
    const file = randomUUID();
    const part = join(this.opts.dir, file + PART);
    try {
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(part, { mode: 0o600 }), { signal: this.abort.signal });
      const bytes = statSync(part).size;
      if (Number.isFinite(declared) && bytes !== declared) throw new Error(`the media of ${sessionId} ended after ${bytes} of ${declared} bytes`);
      renameSync(part, join(this.opts.dir, file));
      const replaced = this.opts.store.addCached({ account, sessionId, file, bytes, mediaType, lastUsed: this.now() });
      if (replaced) rmSync(join(this.opts.dir, replaced), { force: true });
    } finally {
      rmSync(part, { force: true });
    }
    this.evict();
  }

  /** Drops least recently used copies until the kept total is within the limit. */
  evict(): void {
    const limit = this.limit();
    let total = this.opts.store.totalCachedBytes();
    for (const c of this.opts.store.cachedByAge()) {
      if (total <= limit) break;
      this.opts.store.dropCached(c.file);
      rmSync(join(this.opts.dir, c.file), { force: true });
      total -= c.bytes;
    }
  }

  /** At start: partial downloads of a run that ended, and files no row names, go. */
  private sweep(): void {
    const known = this.opts.store.cachedFiles();
    for (const name of readdirSync(this.opts.dir)) {
      if (name.endsWith(PART) || !known.has(name)) rmSync(join(this.opts.dir, name), { force: true, recursive: true });
    }
    for (const f of known) if (!statSync(join(this.opts.dir, f), { throwIfNoEntry: false })) this.opts.store.dropCached(f);
  }
}
