/**
 * Watch folders inside the app (Electron and browser mode alike, through main/backend.ts): one
 * WatchService on the core's own client and sign-in. It runs while someone is signed in and stops
 * at sign-out, keeping its queue for the next sign-in (uploads never go out without an account).
 * Progress goes to the renderer as `watch.progress`; documents the core reports changed (an edit,
 * a pull) refresh the files delivered from them.
 */
import { join } from 'node:path';
import type { ApiClient } from '../api/client';
import type { CoreHandlers } from '../core';
import type { Emit } from '../ipc/registry';
import { UserFacingError } from '../ipc/user-facing-error';
import { SignedInAuth } from './auth';
import { toImportItem } from '../imports/item';
import { importHandlers } from '../imports/ipc';
import { languageProblem, ModelsList } from '../imports/models';
import type { DeliverableDoc } from './deliver';
import { watchHandlers } from './ipc';
import { WatchService } from './service';

export interface AppWatchOptions {
  /** The account's data dir; the queue (watch.db) and tus URLs live in its watch/ subfolder. */
  dataDir: string;
  /**
   * Where the web bridge stages files streamed from the browser (main/ipc/stage-route.ts): the
   * app's data dir, which is not the account's for an account other than this computer's.
   */
  stagingDataDir?: string;
  client: ApiClient;
  accessToken: () => Promise<string | null>;
  emit: Emit;
  /** The app's cached documents of a session, so refreshed files show a local edit at once. */
  documentsOf?: (sessionId: string) => Promise<DeliverableDoc[] | null>;
  /** An item was delivered, or an import done (its session is new on the service). */
  onDelivered?: () => void;
  /** An item (import or watched file) learned its session id: that local file plays the session. */
  onSessionKnown?: (sessionId: string, localPath: string) => void;
  /** Tuning for tests; the WatchService defaults otherwise. */
  stabilityMs?: number;
  pollMs?: number;
}

/** Edits come in bursts (typing, a pull of many pages): refresh once they settle. */
const REFRESH_DELAY_MS = 300;

export class AppWatch {
  private service: WatchService | null = null;
  /** Starts and stops run one after another, in the order sign-in changes arrive. */
  private switching: Promise<void> = Promise.resolve();
  private readonly changed = new Set<string>();
  private refreshTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** watch.* calls wait for a start or stop under way, then use whatever runs. */
  readonly handlers;
  /** New transcriptions from the app (main/imports) run on the same WatchService. */
  readonly importHandlers;

  constructor(private readonly opts: AppWatchOptions) {
    const models = new ModelsList(opts.client, join(opts.dataDir, 'imports', 'models.json'));
    this.handlers = watchHandlers(
      () => this.running(),
      async (language) => languageProblem(language, (await models.list().catch(() => null))?.models ?? null),
    );
    this.importHandlers = importHandlers({ watch: () => this.running(), models, dataDir: opts.stagingDataDir ?? opts.dataDir });
  }

  /** The local file a session was made from, when one is known and still there. */
  localPathOf(sessionId: string): string | null {
    return this.service?.localPathOf(sessionId) ?? null;
  }

  /** watch.* and imports.* calls wait for a start or stop under way, then use whatever runs. */
  private async running(): Promise<WatchService> {
    await this.switching;
    return this.current();
  }

  /** Starts the watcher at sign-in, stops it at sign-out. */
  setSignedIn(signedIn: boolean): Promise<void> {
    this.switching = this.switching.then(() => (signedIn && !this.closed ? this.start() : this.stop())).catch((err: Error) => {
      process.stderr.write(`watch folders: ${err.message}\n`);
    });
    return this.switching;
  }

  /** Sessions whose documents changed; their delivered files are refreshed shortly. */
  documentsChanged(sessionIds: string[]): void {
    if (!this.service) return;
    for (const id of sessionIds) this.changed.add(id);
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      const ids = [...this.changed];
      this.changed.clear();
      void this.service?.refreshSessions(ids);
    }, REFRESH_DELAY_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    await this.setSignedIn(false);
  }

  private current(): WatchService {
    if (!this.service) throw new UserFacingError('NOT_SIGNED_IN', 'Sign in to transcribe files or use watch folders.');
    return this.service;
  }

  private async start(): Promise<void> {
    if (this.service) return;
    const { opts } = this;
    const service = new WatchService({
      dataDir: join(opts.dataDir, 'watch'),
      client: opts.client,
      auth: new SignedInAuth(opts.accessToken),
      stabilityMs: opts.stabilityMs,
      pollMs: opts.pollMs,
      documentsOf: opts.documentsOf,
      onProgress: (p) => {
        opts.emit('watch.progress', p);
        if (p.state === 'delivered') opts.onDelivered?.();
      },
      onImportProgress: (row, live) => {
        opts.emit('imports.progress', toImportItem(row, live));
        if (row.state === 'delivered') opts.onDelivered?.();
      },
      onSessionKnown: (sessionId, path) => opts.onSessionKnown?.(sessionId, path),
      onError: (where, err) => process.stderr.write(`watch folders: ${where}: ${err.message}\n`),
    });
    this.service = service;
    await service.start();
  }

  private async stop(): Promise<void> {
    const service = this.service;
    this.service = null;
    await service?.close();
  }
}

/** A session's documents as the app's cache has them, read through the core's own handlers. */
export function documentsFromCache(core: Pick<CoreHandlers, 'sessions.get' | 'documents.get'>): (sessionId: string) => Promise<DeliverableDoc[] | null> {
  return async (sessionId) => {
    const session = await core['sessions.get']({ sessionId });
    if (!session) return null;
    const records = await Promise.all(session.documents.map((d) => core['documents.get']({ documentId: d.id })));
    return records.filter((d) => d !== null).map((d) => ({ id: d.id, type: d.type, filename: d.filename, language: d.language, timecode_offset: d.timecode_offset, document: d.body ?? undefined }));
  };
}
