/**
 * Finds finished media in one watched folder: chokidar (with its write-finish check) reports a
 * file, then a size-and-mtime stability window confirms nobody is still writing it, then the
 * content is sniffed (media only) and hashed (its identity for exactly-once). Links are never
 * followed (no-follow.ts): chokidar does not descend through them, and a file that is a link, or
 * whose real place is outside the folder, is skipped with a reason.
 */
import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { WatchFolder } from '../../common/ipc';
import { ignoreRule } from './ignore';
import { expectedBesideMedia, hashFile, sniffMedia } from './media';
import { LINK_REASON, ownFileOf } from './no-follow';

export interface FinishedFile {
  path: string;
  size: number;
  mtimeMs: number;
  mediaType: string;
  hash: string;
}

export interface DetectorOptions {
  /** How long size and mtime must stay unchanged before a file counts as finished. */
  stabilityMs: number;
  /** chokidar's polling step while it waits for writes to finish. */
  pollMs?: number;
  /** Files sniffed and hashed at the same time. */
  hashConcurrency?: number;
  /** A known path with unchanged size and mtime: its hash without reading it again. */
  knownHash?: (path: string, size: number, mtimeMs: number) => string | null;
  onFile: (file: FinishedFile) => void;
  /** A finished file that will not be transcribed, with why (a text file named .mp3: not media). */
  onSkipped?: (path: string, size: number, reason: string) => void;
  onError?: (path: string, err: Error) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class FolderDetector {
  private watcher: FSWatcher | null = null;
  private readonly settling = new Set<string>();
  private readonly pending = new Map<string, Stats>();
  private readonly running = new Set<string>();
  private readonly rule;
  private closed = false;

  constructor(
    readonly folder: WatchFolder,
    private readonly opts: DetectorOptions,
  ) {
    this.rule = ignoreRule(folder);
  }

  /** Starts watching; resolves once the initial scan (files added while we were away) is queued. */
  async start(): Promise<void> {
    const w = watch(resolve(this.folder.path), {
      ignored: (p, stats) => this.rule(p, stats ? (stats.isDirectory() ? 'dir' : 'file') : undefined),
      ignoreInitial: false,
      depth: this.folder.profile.subfolders ? 64 : 0,
      awaitWriteFinish: { stabilityThreshold: this.opts.stabilityMs, pollInterval: this.opts.pollMs ?? 100 },
      alwaysStat: true,
      followSymlinks: false,
    });
    this.watcher = w;
    const seen = (p: string, s?: Stats) => this.consider(p, s);
    w.on('add', seen).on('change', seen).on('error', (e) => this.opts.onError?.(this.folder.path, e as Error));
    await new Promise<void>((res) => w.once('ready', () => res()));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.watcher?.close();
    this.watcher = null;
  }

  private consider(path: string, stats?: Stats): void {
    if (this.rule(path, 'file') || this.settling.has(path)) return;
    this.settling.add(path);
    void this.settle(path, stats)
      .then((stable) => {
        this.settling.delete(path);
        if (!stable || this.closed) return;
        this.pending.set(path, stable);
        this.pump();
      })
      .catch((err: Error) => {
        this.settling.delete(path);
        this.opts.onError?.(path, err);
      });
  }

  /**
   * chokidar saw no write for stabilityMs; confirm size and mtime hold still a moment longer,
   * which catches writers that pause longer than its polling step (slow copies, network shares).
   * Only timers wait here, so a thousand files settle side by side.
   */
  private async settle(path: string, seen?: Stats): Promise<Stats | null> {
    if (!(await ownFileOf(this.folder.path, path))) {
      // A link, or a file whose real place is outside the folder, is named once; one gone meanwhile is just gone.
      const st = await lstat(path).catch(() => null);
      if (st && (st.isSymbolicLink() || st.isFile()) && !this.closed) this.opts.onSkipped?.(path, st.isFile() ? st.size : 0, LINK_REASON);
      return null;
    }
    let before = seen && !seen.isSymbolicLink() ? seen : await lstat(path);
    for (;;) {
      await sleep(Math.min(500, this.opts.stabilityMs));
      if (this.closed) return null;
      // lstat: a file swapped for a link while it settles is not a file any more.
      const now = await lstat(path).catch(() => null);
      if (!now || !now.isFile()) return null;
      if (now.size === before.size && now.mtimeMs === before.mtimeMs && now.size > 0) return now;
      before = now;
      await sleep(this.opts.stabilityMs);
    }
  }

  /** Sniffs and hashes settled files, a few at a time (they read the disk). */
  private pump(): void {
    const limit = this.opts.hashConcurrency ?? 4;
    for (const [path, stats] of this.pending) {
      if (this.running.size >= limit) return;
      if (this.running.has(path)) continue;
      this.pending.delete(path);
      this.running.add(path);
      void this.examine(path, stats)
        .catch((err: Error) => this.opts.onError?.(path, err))
        .finally(() => {
          this.running.delete(path);
          this.pump();
        });
    }
  }

  private async examine(path: string, before: Stats): Promise<void> {
    if (this.closed) return;
    const known = this.opts.knownHash?.(path, before.size, before.mtimeMs);
    const mediaType = await sniffMedia(path);
    if (!mediaType) {
      // Texts and documents (align texts, captions, our own outputs) are expected beside media: not worth a word.
      if (!this.closed && !expectedBesideMedia(path)) this.opts.onSkipped?.(path, before.size, 'not media: the file holds no audio or video S2T can read');
      return;
    }
    const hash = known ?? (await hashFile(path));
    const after = await lstat(path).catch(() => null);
    if (!after || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      // It changed while we read it: it was not finished after all; look again.
      if (after) this.consider(path, after);
      return;
    }
    if (!this.closed) this.opts.onFile({ path, size: before.size, mtimeMs: before.mtimeMs, mediaType, hash });
  }
}
