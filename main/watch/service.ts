/**
 * Watch folders as one object: the store, a detector per folder and the queue. The desktop app
 * and the headless daemon both build one of these; ipc.ts exposes it to the renderer.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { WatchProfile, type WatchFolder, type WatchItem, type WatchItemState, type WatchProgress, type WatchState } from '../../common/ipc';
import type { ApiClient } from '../api/client';
import type { WatchAuth } from './auth';
import { FolderDetector, type FinishedFile } from './detector';
import { deliver, deliveryVersion, type DeliverableDoc } from './deliver';
import { WatchQueue } from './queue';
import { resultKey } from './result-key';
import { toWatchItem, WatchStore, type ItemRow, type NewImport } from './store';
import { Uploader } from './upload';

export interface WatchServiceOptions {
  /** Where watch.db and the tus URL store live. */
  dataDir: string;
  client: ApiClient;
  auth: WatchAuth;
  concurrency?: number;
  /** This machine's name in cross-machine claims; the host name by default. */
  machine?: string;
  stabilityMs?: number;
  tusThresholdBytes?: number;
  chunkBytes?: number;
  pollMs?: number;
  onProgress?: (p: WatchProgress) => void;
  /** A file was seen; `created` false means its content is already queued or done (not uploaded again). */
  onDetected?: (file: FinishedFile & { folderId: string; itemId: number; created: boolean }) => void;
  onError?: (where: string, err: Error) => void;
  /**
   * The app's own copies of a session's documents (its cache), so delivered files follow an edit
   * at once, offline too. Null when it has none; the service is asked then (the daemon always).
   */
  documentsOf?: (sessionId: string) => Promise<DeliverableDoc[] | null>;
  /** An import (main/imports) moved on: its row, with the upload's rate and time left. */
  onImportProgress?: (row: ItemRow, live: { rate: number | null; etaSeconds: number | null }) => void;
  /** An item (import or watched file) learned its session id: that local file plays the session. */
  onSessionKnown?(sessionId: string, localPath: string): void;
}

export class WatchService {
  readonly store: WatchStore;
  private readonly queue: WatchQueue;
  private readonly detectors = new Map<string, FolderDetector>();
  private started = false;
  /** Refreshes run one after another, so two never write the same file at once. */
  private refreshing: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: WatchServiceOptions) {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    this.store = new WatchStore(join(opts.dataDir, 'watch.db'));
    const uploader = new Uploader({ client: opts.client, auth: opts.auth, tusStorageFile: join(opts.dataDir, 'tus-uploads.json'), tusThresholdBytes: opts.tusThresholdBytes, chunkBytes: opts.chunkBytes });
    this.queue = new WatchQueue({ store: this.store, client: opts.client, uploader, concurrency: opts.concurrency ?? 3, machine: opts.machine ?? hostname(), pollMs: opts.pollMs, onProgress: (p) => opts.onProgress?.(p), onImportProgress: opts.onImportProgress, onSessionKnown: (id, path) => opts.onSessionKnown?.(id, path) });
  }

  /** Watches every configured folder (picking up files added while we were away) and resumes the queue. */
  async start(): Promise<void> {
    this.started = true;
    for (const f of this.store.folders()) await this.watchFolder(f);
    this.queue.kick();
  }

  async close(): Promise<void> {
    this.started = false;
    await Promise.all([...this.detectors.values()].map((d) => d.close()));
    this.detectors.clear();
    await this.queue.stop();
    await this.refreshing.catch(() => {});
    this.store.close();
  }

  state(): WatchState {
    return { paused: this.store.globallyPaused, folders: this.store.folders() };
  }

  async addFolder(path: string, profile: WatchProfile = WatchProfile.parse({})): Promise<WatchFolder> {
    const abs = resolve(path);
    if (!statSync(abs, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`not a folder: ${abs}`);
    const existing = this.store.folderByPath(abs);
    const folder = existing ? this.store.updateFolder(existing.id, { profile })! : this.store.addFolder(abs, profile);
    if (this.started) await this.watchFolder(folder);
    return folder;
  }

  async updateFolder(id: string, profile: WatchProfile): Promise<WatchFolder> {
    const folder = this.store.updateFolder(id, { profile });
    if (!folder) throw new Error('no such watched folder');
    if (this.started) await this.watchFolder(folder);
    return folder;
  }

  async removeFolder(id: string): Promise<void> {
    this.queue.interrupt(id);
    await this.detectors.get(id)?.close();
    this.detectors.delete(id);
    this.store.removeFolder(id);
  }

  /** Pauses or resumes one folder, or everything. Running uploads stop where they are and resume later. */
  pause(paused: boolean, folderId?: string): WatchState {
    if (folderId) {
      if (!this.store.updateFolder(folderId, { paused })) throw new Error('no such watched folder');
    } else {
      this.store.globallyPaused = paused;
    }
    if (paused) this.queue.interrupt(folderId);
    else this.queue.kick();
    return this.state();
  }

  items(filter: { folderId?: string; state?: WatchItemState; offset?: number; limit?: number } = {}): { items: WatchItem[]; total: number } {
    const { items, total } = this.store.items({ ...filter, offset: filter.offset ?? 0, limit: filter.limit ?? 100 });
    return { items: items.map((r) => toWatchItem(r)), total };
  }

  retry(itemId: number): WatchItem {
    const row = this.queue.retry(itemId);
    if (!row) throw new Error('no such item');
    return toWatchItem(row);
  }

  /** A file skipped as a duplicate (or any finished one) is uploaded and transcribed once more, on its own. */
  transcribeAgain(itemId: number): WatchItem {
    const item = this.store.item(itemId);
    const folder = item ? this.store.folder(item.folder_id) : null;
    if (!item || !folder || item.options) throw new Error('no such item');
    if (!item.media_type) throw new Error('this file is not media');
    const row = this.store.transcribeAgain(itemId, resultKey(item.hash, folder.profile))!;
    this.queue.kick();
    return toWatchItem(row);
  }

  /** The local file a session was made from, when it is still there (for playback of sessions made before). */
  localPathOf(sessionId: string): string | null {
    return this.store.localPathsOf(sessionId).find((p) => existsSync(p)) ?? null;
  }

  // --- imports from the app (main/imports serves them) ---------------------------------------

  /** Queues imports main/imports has checked; they start at once (or when the service is back). */
  addImports(imports: NewImport[]): ItemRow[] {
    const rows = imports.map((i) => this.store.addImport(i));
    this.queue.kick();
    return rows;
  }

  /** Records an import refused before it could start, so the uploads view shows it with its reason. */
  refuseImport(imp: NewImport, reason: string): ItemRow {
    const row = this.store.addImport(imp);
    return this.store.update(row.id, { state: 'failed', error: reason });
  }

  importRows(offset: number, limit: number): { items: ItemRow[]; total: number } {
    return this.store.imports(offset, limit);
  }

  importRow(itemId: number): ItemRow | null {
    const row = this.store.item(itemId);
    return row?.options ? row : null;
  }

  cancelImport(itemId: number): Promise<ItemRow | null> {
    return this.queue.cancel(itemId);
  }

  retryImport(itemId: number): ItemRow | null {
    return this.queue.retry(itemId);
  }

  async clearFinishedImports(): Promise<number> {
    const rows = this.store.clearFinishedImports();
    await Promise.all(rows.filter((r) => r.staged && r.path).map((r) => rm(r.path, { force: true }).catch(() => {})));
    return rows.length;
  }

  /**
   * Rewrites the delivered files of these sessions after their documents changed (an edit in the
   * app, or a pull of someone else's edit), for folders whose profile asks for it. Files are
   * rewritten only when the content they are made from changed. Returns the files written.
   */
  refreshSessions(sessionIds: string[]): Promise<string[]> {
    const run = this.refreshing.catch(() => {}).then(() => this.refreshNow(sessionIds));
    this.refreshing = run;
    return run;
  }

  refreshSession(sessionId: string): Promise<string[]> {
    return this.refreshSessions([sessionId]);
  }

  private async refreshNow(sessionIds: string[]): Promise<string[]> {
    const written: string[] = [];
    for (const item of this.store.deliveredBySessions(sessionIds)) {
      const folder = this.store.folder(item.folder_id);
      if (!folder?.profile.refreshOnEdit) continue;
      try {
        const docs = await this.deliveredDocuments(item);
        if (!docs.length) continue;
        const { ids, version } = deliveryVersion(folder, docs);
        if (version === item.delivered_version) continue;
        // The source may have moved to done/ since: write where the first delivery wrote.
        const first = (JSON.parse(item.outputs) as string[])[0];
        const outputs = await deliver(folder, item.path, docs, first ? first.slice(0, -extname(first).length) : undefined);
        this.store.update(item.id, { outputs: JSON.stringify(outputs), document_ids: JSON.stringify(ids), delivered_version: version });
        written.push(...outputs);
      } catch (err) {
        this.opts.onError?.(`refreshing ${item.path}`, err as Error);
      }
    }
    return written;
  }

  /** The documents an item's files were made from: the app's copies when it has them all, else the service's. */
  private async deliveredDocuments(item: ItemRow): Promise<DeliverableDoc[]> {
    const wanted = JSON.parse(item.document_ids) as string[];
    const mine = (docs: DeliverableDoc[]) => docs.filter((d) => d.document && (!wanted.length || wanted.includes(d.id)));
    const local = item.session_id ? mine((await this.opts.documentsOf?.(item.session_id).catch(() => null)) ?? []) : [];
    // Only a full set: a half-pulled session would change which document a format is made from.
    if (local.length && (!wanted.length || local.length === wanted.length)) return local;
    return mine(await this.queue.documents(item));
  }

  private async watchFolder(folder: WatchFolder): Promise<void> {
    await this.detectors.get(folder.id)?.close();
    const detector = new FolderDetector(folder, {
      stabilityMs: this.opts.stabilityMs ?? 2000,
      knownHash: (p, size, mtime) => this.store.knownHash(p, size, mtime),
      onFile: (file) => {
        const current = this.store.folder(folder.id);
        if (!current) return;
        const { item, created } = this.store.admit(folder.id, file, resultKey(file.hash, current.profile));
        this.opts.onDetected?.({ ...file, folderId: folder.id, itemId: item.id, created });
        // A copy admitted as already transcribed is finished at birth: the queue never touches it, so say so here.
        if (created && item.state !== 'detected') this.opts.onProgress?.(toProgress(toWatchItem(item)));
        if (created) this.queue.kick();
      },
      onSkipped: (path, size, reason) => {
        if (!this.store.folder(folder.id)) return;
        const { item, created } = this.store.skip(folder.id, path, size, reason);
        if (created) this.opts.onProgress?.(toProgress(toWatchItem(item)));
      },
      onError: (where, err) => this.opts.onError?.(where, err),
    });
    this.detectors.set(folder.id, detector);
    await detector.start();
    // Closed while the first scan ran: do not leave a watcher behind.
    if (!this.started) await detector.close();
  }
}

function toProgress(w: WatchItem): WatchProgress {
  return { itemId: w.itemId, folderId: w.folderId, path: w.path, state: w.state, bytesSent: w.bytesSent, bytesTotal: w.bytesTotal, percent: w.percent, rate: w.rate, etaSeconds: w.etaSeconds, message: w.message };
}
