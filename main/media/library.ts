/**
 * Where a session's media plays from, in order: the file it was made from on this computer (by
 * the path watch folders and new transcriptions recorded), the app's kept copy, or the service's
 * link (relayed through main), whose first play also keeps a copy in the background. When none
 * plays, the reason is said in words: the file moved (named), the service keeps no media, or
 * offline and not kept.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { MediaKind, MediaSource } from '../../common/ipc';
import { isFile } from '../platform/is-file';
import { sniffMedia } from '../watch/media';
import type { MediaLinker, MediaTarget } from './links';
import { MediaCache } from './media-cache';
import { MediaStore } from './store';

export interface MediaLibraryOptions {
  /** media/ in the data dir: media.db and kept/ (the kept copies). */
  dir: string;
  limitBytes?: () => number;
  fetch?: typeof fetch;
  onError?: (err: Error) => void;
}

/** The service's current view of a session's media, or why it could not be asked. */
export type ServiceMedia = { mediaUrl: string } | { offline: true } | { failed: string };

const kindOf = (mediaType: string): MediaKind => (mediaType.startsWith('video/') ? 'video' : 'audio');

export class MediaLibrary {
  readonly store: MediaStore;
  readonly cache: MediaCache;
  private linker: MediaLinker | null = null;
  private localLookup: ((sessionId: string) => string | null) | null = null;

  constructor(opts: MediaLibraryOptions) {
    mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
    this.store = new MediaStore(join(opts.dir, 'media.db'));
    this.cache = new MediaCache({ dir: join(opts.dir, 'kept'), store: this.store, limitBytes: opts.limitBytes, fetch: opts.fetch, onError: opts.onError });
  }

  /** How files on this computer reach the player: the bridge's route or Electron's protocol. */
  setLinker(linker: MediaLinker): void {
    this.linker = linker;
  }

  /** Watch folders' own record of a session's source file, for sessions made before this table existed. */
  setLocalLookup(lookup: (sessionId: string) => string | null): void {
    this.localLookup = lookup;
  }

  /** A session was made from this file on this computer. */
  rememberLocal(account: string, sessionId: string, path: string): void {
    this.store.rememberLocal(account, sessionId, path);
  }

  async source(account: string, sessionId: string, askService: () => Promise<ServiceMedia>): Promise<MediaSource> {
    const link = (target: MediaTarget) => this.linker?.(target) ?? null;
    let moved: string | null = null;

    const localPath = this.madeFrom(account, sessionId);
    if (localPath) {
      const there = await isFile(localPath);
      const mediaType = there ? await sniffMedia(localPath) : null;
      const url = mediaType ? link({ path: localPath, mediaType }) : null;
      if (url && mediaType) return { url, kind: kindOf(mediaType), origin: 'local' };
      if (!mediaType) moved = there ? `The file this session was made from is no longer a media file: ${localPath}.` : `The file this session was made from was moved or deleted: ${localPath}.`;
    }

    const kept = this.cache.use(account, sessionId);
    const keptUrl = kept && link(kept);
    if (kept && keptUrl) return { url: keptUrl, kind: kindOf(kept.mediaType), origin: 'cache' };

    const why = (rest: string) => ({ url: null, reason: moved ? `${moved} ${rest}` : rest });
    const service = await askService();
    if ('offline' in service) return why("The service cannot be reached, and this session's media has not been kept on this computer yet (a copy is kept the first time it plays online).");
    if ('failed' in service) return why(`The service's media could not be asked for: ${service.failed}`);
    if (!service.mediaUrl) return why('The service keeps no media for this session (it was transcribed without keeping the media).');
    // The first play keeps a copy; the service's answer tells audio from video.
    const download = this.cache.keep(account, sessionId, service.mediaUrl);
    try {
      const mediaType = await download.mediaType;
      // Relayed by main where a transport links it (no CSP room for the service's origin needed).
      return { url: link({ url: service.mediaUrl, mediaType }) ?? service.mediaUrl, kind: kindOf(mediaType), origin: 'service' };
    } catch (err) {
      return why(`The service's media could not be read (${(err as Error).message}).`);
    }
  }

  /** The session's media on this computer, for the waveform: the file it was made from, else the kept copy; null when neither. */
  async fileOf(account: string, sessionId: string): Promise<{ path: string; from: 'local' | 'cache' } | null> {
    const local = this.madeFrom(account, sessionId);
    if (local && (await isFile(local))) return { path: local, from: 'local' };
    const kept = this.cache.use(account, sessionId);
    return kept ? { path: kept.path, from: 'cache' } : null;
  }

  async close(): Promise<void> {
    await this.cache.close();
    this.store.close();
  }

  /** The file the session was made from, as recorded (it may have moved since). */
  private madeFrom(account: string, sessionId: string): string | null {
    return this.store.localPath(account, sessionId) ?? this.remembered(account, sessionId);
  }

  /** A path from watch folders' own records, copied into ours so the next look is ours alone. */
  private remembered(account: string, sessionId: string): string | null {
    const path = this.localLookup?.(sessionId) ?? null;
    if (path) this.store.rememberLocal(account, sessionId, path);
    return path;
  }
}
