/**
 * The durable upload queue: items move detected -> uploading -> transcribing -> fetching ->
 * delivered, or failed with a reason a person can act on (and a retry). Each step saves what it
 * learned (file id, job id, session id) before the next, so a restart resumes where it stopped
 * and nothing is uploaded or transcribed twice. A concurrency limit bounds the work in flight;
 * pausing a folder (or everything) stops its items where they are, to resume later.
 */
import { rm } from 'node:fs/promises';
import type { Document } from '../../common/api';
import type { WatchFolder, WatchItemState, WatchProgress } from '../../common/ipc';
import type { ApiClient } from '../api/client';
import { classifyFailure, isTransient } from '../api/failure';
import { claim } from './claim';
import { Fail, reason } from './item-failure';
import { createFromUrl, itemDocuments, jobStatus, submitTranscription } from './job-calls';
import { findSubmittedSession } from './lost-submit';
import { deliver, deliveryVersion, moveSource } from './deliver';
import { jobSpec, type JobSpec } from './job-spec';
import { sniffMedia } from './media';
import { openForUpload } from './no-follow';
import { RateMeter } from './rate-meter';
import { IMPORTS_FOLDER_ID } from './schema';
import { toWatchItem, type ItemRow, type WatchStore } from './store';
import type { Uploaded, Uploader } from './upload';

export interface QueueOptions {
  store: WatchStore;
  client: ApiClient;
  uploader: Uploader;
  concurrency: number;
  /** This machine's name in cross-machine claims (see claim.ts). */
  machine: string;
  /** How often a job's status is asked. */
  pollMs?: number;
  onProgress: (p: WatchProgress) => void;
  /** An import moved on (imports never reach onProgress). */
  onImportProgress?: (row: ItemRow, live: { rate: number | null; etaSeconds: number | null }) => void;
  /** An item learned its session id: the local file it was made from plays that session. */
  onSessionKnown?: (sessionId: string, localPath: string) => void;
}

const TRANSIENT_LIMIT = 8;
/** How often a copy looks whether the item it shares an upload with has its job yet. */
const REUSE_WAIT_MS = 2000;
/** At most one job status request this often (10 a second). */
const POLL_GAP_MS = 100;
type Lane = 'upload' | 'poll' | 'fetch';
const LANE_STATES: Record<Lane, WatchItemState[]> = { upload: ['detected', 'uploading'], poll: ['transcribing'], fetch: ['fetching'] };

export class WatchQueue {
  /** Work in flight, by item: uploads are limited by `concurrency`; polls and fetches are light and have their own small limits. */
  private readonly running = new Map<number, { ctrl: AbortController; lane: Lane; done: Promise<void> }>();
  /** Session ids already reported through onSessionKnown, by item. */
  private readonly known = new Map<number, string>();
  private readonly rates = new RateMeter();
  private readonly polls = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];
  private readonly limits: Record<Lane, number>;
  private nextPollAt = 0;

  constructor(private readonly opts: QueueOptions) {
    this.limits = { upload: opts.concurrency, poll: 8, fetch: 2 };
  }

  /** Looks for due work now. */
  kick(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), 0);
  }

  get active(): number {
    return this.running.size;
  }

  /** Stops starting work and aborts what runs; states stay as they are for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const r of this.running.values()) r.ctrl.abort(new Error('stopping'));
    while (this.running.size) await new Promise<void>((r) => this.idleWaiters.push(r));
  }

  /** Aborts the running items of one folder (or of every watch folder: imports are not paused with them); they resume when unpaused. */
  interrupt(folderId?: string): void {
    for (const [id, r] of this.running) {
      const of = this.opts.store.item(id)?.folder_id;
      if (folderId ? of === folderId : of !== IMPORTS_FOLDER_ID) r.ctrl.abort(new Error('paused'));
    }
  }

  /**
   * Puts a failed item back where it can go on: fetching when the service has its result, uploading
   * when it has the media (or a legacy session to PUT into), from the start otherwise. A copy whose
   * shared upload failed retries that upload too.
   */
  retry(id: number): ItemRow | null {
    const { store } = this.opts;
    const item = store.item(id);
    if (!item || (item.state !== 'failed' && item.state !== 'cancelled')) return item;
    const origin = item.origin_item_id !== null ? store.item(item.origin_item_id) : null;
    if (origin?.state === 'failed') this.retry(origin.id);
    const legacySession = item.method === 'legacy' && item.session_id;
    const state = item.job_id || (item.session_id && !legacySession) ? 'fetching' : item.file_id || legacySession ? 'uploading' : 'detected';
    const row = store.update(id, { state, error: null, attempts: 0, not_before: 0 });
    this.emit(row);
    this.kick();
    return row;
  }

  /**
   * Stops an item for good (imports only): its running step is aborted and waited for, so nothing
   * it was doing can write a later state over 'cancelled'; a job already made is cancelled on the
   * service (best effort: offline, the job runs on and its session stays).
   */
  async cancel(id: number): Promise<ItemRow | null> {
    const { store, client, uploader } = this.opts;
    const running = this.running.get(id);
    if (running) {
      running.ctrl.abort(new Error('cancelled'));
      await running.done;
    }
    const item = store.item(id);
    if (!item || item.state === 'delivered' || item.state === 'failed' || item.state === 'cancelled') return item;
    let row = store.update(id, { state: 'cancelled', error: null, not_before: 0, submitted_at: null });
    this.emit(row);
    if (row.job_id && item.state === 'transcribing') {
      const cancelled = await uploader
        .withFreshToken(() => client.call('batch.jobCancel', { params: { jobId: row.job_id! } }, { timeoutMs: 5000 }))
        .then(() => true, () => false);
      // A cancelled job leaves nothing to fetch: a retry submits the uploaded file again.
      if (cancelled) row = store.update(id, { job_id: null, session_id: null, progress: null });
    }
    // A file staged from the browser stays for Retry (the page cannot give it again); it goes when
    // the service has it, or when the person clears the finished imports.
    return row;
  }

  private tick(): void {
    this.timer = null;
    const { store } = this.opts;
    if (this.stopped) return;
    // Pausing watch folders leaves the imports the person started in the app running.
    const onlyImports = store.globallyPaused;
    const now = Date.now();
    let wake = store.nextDueAfter(now);
    for (const lane of Object.keys(LANE_STATES) as Lane[]) {
      const busy = [...this.running.values()].filter((r) => r.lane === lane).length;
      let free = this.limits[lane] - busy;
      if (lane === 'poll') {
        // Status polls are spread out (POLL_GAP_MS apart, oldest job first), so a thousand
        // waiting jobs never flood the service or its rate limit.
        const throttled = now < this.nextPollAt;
        if (throttled && free > 0) wake = Math.min(wake ?? Infinity, this.nextPollAt);
        free = throttled ? 0 : Math.min(free, 1);
      }
      const due = store.due(LANE_STATES[lane], now, free, [...this.running.keys()], onlyImports);
      if (lane === 'poll' && due.length) this.nextPollAt = now + POLL_GAP_MS;
      for (const item of due) this.start(item, lane);
    }
    // Wake up for the next item that waits for its time.
    if (wake !== null) this.timer = setTimeout(() => this.tick(), Math.max(5, Math.min(60_000, wake - now + 5)));
  }

  private start(item: ItemRow, lane: Lane): void {
    const ctrl = new AbortController();
    const done = this.step(item.id, ctrl.signal).finally(() => {
      this.running.delete(item.id);
      if (lane === 'upload') this.rates.forget(item.id);
      if (!this.running.size) for (const w of this.idleWaiters.splice(0)) w();
      this.kick();
    });
    this.running.set(item.id, { ctrl, lane, done });
  }

  /** One step of an item: an upload (and its transcribe call), one status poll, or the delivery. */
  private async step(id: number, signal: AbortSignal): Promise<void> {
    const { store } = this.opts;
    const item = store.item(id);
    if (!item || signal.aborted) return;
    const folder = store.folder(item.folder_id);
    if (!folder || folder.paused) return;
    try {
      if (item.state === 'detected' || item.state === 'uploading') await this.upload(item, folder, signal);
      else if (item.state === 'transcribing') await this.poll(item, signal);
      else if (item.state === 'fetching') await this.fetch(item, folder);
    } catch (err) {
      if (signal.aborted) return; // paused or stopping: resume from the same state later
      await this.setback(item, folder, err);
    }
  }

  private async setback(item: ItemRow, folder: WatchFolder, err: unknown): Promise<void> {
    const { store } = this.opts;
    const message = reason(err);
    // Waiting is not failing: a transient error keeps the item's state, to try again at not_before.
    const failure = classifyFailure(err);
    const transient = isTransient(failure);
    const offline = failure?.kind === 'offline' || failure?.kind === 'signed-out';
    const asked = failure?.retryAfterMs ?? null;
    if (transient && (offline || asked !== null || item.attempts < TRANSIENT_LIMIT)) {
      // Offline (or signed out) waits as long as it takes, a rate limit as long as it asks;
      // a failing service gets a few tries.
      const attempts = offline || asked !== null ? item.attempts : item.attempts + 1;
      const delay = asked ?? Math.min(30_000, 1000 * 2 ** Math.min(5, offline ? 2 : attempts));
      this.emit(store.update(item.id, { error: message, attempts, not_before: Date.now() + delay }));
      return;
    }
    // A failed transcription leaves nothing to fetch: a retry submits the uploaded file again.
    const patch = item.state === 'transcribing' ? { job_id: null, session_id: null } : {};
    // Moved first, so the failure is recorded with where the file now is.
    const moved = item.folder_id === IMPORTS_FOLDER_ID ? null : await moveSource(folder, item.path, 'failed').catch(() => null);
    this.emit(store.update(item.id, { ...patch, ...(moved ? { path: moved } : {}), state: 'failed', error: message, attempts: item.attempts + 1, submitted_at: null }));
  }

  private async upload(item: ItemRow, folder: WatchFolder, signal: AbortSignal): Promise<void> {
    const { store, uploader } = this.opts;
    if (item.origin_item_id !== null && !item.file_id && !item.session_id && !item.job_id) return this.reuse(item);
    if (item.state === 'detected') item = store.update(item.id, { state: 'uploading', error: null });
    this.emit(item);
    if (item.job_id) return void this.emit(store.update(item.id, { state: 'transcribing', error: null }));
    const spec = jobSpec(item, folder);
    if (spec.mediaSource) return this.fromUrl(item, spec, signal);
    // Still in 'uploading' with a legacy session means its PUT is not known to have landed.
    if (!item.file_id || item.method === 'legacy') {
      if (!item.media_type) {
        // Found as not media; a retry looks again (the file may have been replaced).
        const type = await sniffMedia(item.path);
        if (!type) throw new Fail('not media: the file holds no audio or video S2T can read');
        item = store.update(item.id, { media_type: type });
      }
      // Opened once and checked by its descriptor, which the upload reads: a swap for a link changes nothing.
      const imported = item.folder_id === IMPORTS_FOLDER_ID;
      const handle = await openForUpload(imported ? null : folder.path, item.path);
      let done: Uploaded;
      try {
        const holder = imported ? null : await claim(folder.path, item.hash, this.opts.machine);
        // Another machine syncing this folder has it: its outputs will arrive through the sync.
        if (holder !== null) return void this.emit(store.update(item.id, { state: 'delivered', error: `transcribed on ${holder}` }));
        if (spec.mode === 'align' && spec.text === null) throw new Fail('align needs a .txt or caption file with the same name beside the media');
        done = await uploader.upload(
          {
            path: item.path, handle, size: item.size, mediaType: item.media_type, hash: item.hash, tusUrl: item.tus_url,
            legacy: { language: spec.language, punctuation: spec.punctuation, diarization: spec.diarization, session_mode: spec.mode, keep_source: spec.keepMedia },
            legacySessionId: item.method === 'legacy' ? item.session_id : null,
            filename: spec.filename,
          },
          {
            signal,
            onBytes: (sent) => this.bytes(item, sent),
            onTusUrl: (url) => store.update(item.id, { tus_url: url, method: 'tus' }),
            onLegacySession: (sessionId) => (item = store.update(item.id, { method: 'legacy', session_id: sessionId })),
          },
        );
      } finally {
        await handle.close();
      }
      if (done.method === 'legacy') {
        const row = store.update(item.id, { method: 'legacy', session_id: done.sessionId, bytes_sent: item.size, state: 'transcribing', error: null, attempts: 0 });
        this.emit(row);
        await this.dropStaged(row);
        return;
      }
      item = store.update(item.id, { method: done.method, file_id: done.fileId, bytes_sent: item.size });
      this.emit(item);
      await this.dropStaged(item);
    }
    await this.transcribe(item, spec, signal);
  }

  /** media_source: the service downloads the media itself into a session made here (nothing is uploaded). */
  private async fromUrl(item: ItemRow, spec: JobSpec, signal: AbortSignal): Promise<void> {
    const sessionId = await createFromUrl(this.opts, spec, signal);
    this.emit(this.opts.store.update(item.id, { method: 'legacy', session_id: sessionId, state: 'transcribing', error: null, attempts: 0 }));
  }

  /** A file staged from the browser is deleted once the service has it. */
  private async dropStaged(item: ItemRow): Promise<void> {
    if (item.staged && item.path) await rm(item.path, { force: true }).catch(() => {});
  }

  /**
   * Submits the uploaded file. A mark is saved before the call and cleared with the job id, so
   * when the answer is lost (a crash, a cut connection) the next attempt first looks for the
   * session that call made instead of submitting the file a second time.
   */
  private async transcribe(item: ItemRow, spec: JobSpec, signal: AbortSignal): Promise<void> {
    const { store, client } = this.opts;
    if (item.submitted_at !== null) {
      const sessionId = await findSubmittedSession(client, store, item, signal);
      if (sessionId) {
        this.emit(store.update(item.id, { session_id: sessionId, job_id: null, submitted_at: null, state: 'transcribing', error: null, attempts: 0 }));
        return;
      }
    }
    store.update(item.id, { submitted_at: Date.now() });
    let job;
    try {
      job = await submitTranscription(this.opts, item, spec, signal);
    } catch (err) {
      // A plain refusal made no job: nothing to look for next time.
      const failure = classifyFailure(err);
      if (failure && failure.status >= 400 && failure.status < 500) store.update(item.id, { submitted_at: null });
      throw err;
    }
    this.emit(store.update(item.id, { job_id: job.jobId, session_id: job.sessionId, submitted_at: null, state: 'transcribing', error: null, attempts: 0 }));
  }

  /**
   * Media whose content an item of another folder uploads: wait until that one has a job, then
   * follow the same job and deliver here with this folder's profile. Nothing is uploaded again.
   */
  private reuse(item: ItemRow): void {
    const { store } = this.opts;
    const origin = store.item(item.origin_item_id!);
    if (!origin) {
      // Its origin went away with its folder (and nothing had reached the service): upload it ourselves.
      store.reattach(item.id);
      return;
    }
    const where = store.folder(origin.folder_id)?.path ?? 'another folder';
    if (origin.state === 'failed') throw new Fail(`the same media failed in ${where}: ${origin.error ?? 'no reason given'}`);
    if (origin.state === 'delivered' && !origin.session_id) return void this.emit(store.update(item.id, { state: 'delivered', error: origin.error }));
    const followable = (origin.job_id || origin.session_id) && ['transcribing', 'fetching', 'delivered'].includes(origin.state);
    if (!followable) {
      this.emit(store.update(item.id, { error: `waiting for the same media in ${where}`, not_before: Date.now() + REUSE_WAIT_MS }));
      return;
    }
    this.emit(
      store.update(item.id, {
        method: origin.method,
        file_id: origin.file_id,
        job_id: origin.job_id,
        session_id: origin.session_id,
        bytes_sent: item.size,
        state: origin.state === 'transcribing' ? 'transcribing' : 'fetching',
        error: null,
        attempts: 0,
        not_before: 0,
      }),
    );
  }

  /** Asks once how the job is doing; not yet done means ask again a little later (less often as it takes longer). */
  private async poll(item: ItemRow, signal: AbortSignal): Promise<void> {
    const { store } = this.opts;
    const status = await jobStatus(this.opts, item, signal);
    const done = status.done;
    if (status.sessionId) item = store.update(item.id, { session_id: status.sessionId });
    else if (status.progress !== undefined && status.progress !== item.progress) this.emit((item = store.update(item.id, { progress: status.progress })));
    if (done) {
      this.polls.delete(item.id);
      this.emit(store.update(item.id, { state: 'fetching', error: null, attempts: 0, not_before: 0 }));
      return;
    }
    const n = this.polls.get(item.id) ?? 0;
    this.polls.set(item.id, n + 1);
    const pollMs = this.opts.pollMs ?? 1000;
    store.update(item.id, { error: null, not_before: Date.now() + Math.min(10_000, pollMs * 1.5 ** n) });
  }

  /** The documents of a finished item, with their content. */
  documents(item: ItemRow): Promise<Document[]> {
    return itemDocuments(this.opts, item);
  }

  private async fetch(item: ItemRow, folder: WatchFolder): Promise<void> {
    const { store } = this.opts;
    // An import delivers no files: the session on the service is the result.
    if (item.folder_id === IMPORTS_FOLDER_ID) return void this.emit(store.update(item.id, { state: 'delivered', progress: 100, error: null }));
    const docs = await this.documents(item);
    const outputs = await deliver(folder, item.path, docs);
    const { ids, version } = deliveryVersion(folder, docs);
    const row = store.update(item.id, { state: 'delivered', outputs: JSON.stringify(outputs), error: null, document_ids: JSON.stringify(ids), delivered_version: version });
    this.emit(row);
    const moved = await moveSource(folder, item.path, 'done').catch(() => null);
    if (moved) store.update(item.id, { path: moved });
  }

  /** Progress of an upload: bytes saved now and then, shown a few times a second. */
  private bytes(item: ItemRow, sent: number): void {
    item.bytes_sent = sent;
    const { save, show } = this.rates.record(item.id, sent, item.size);
    if (save) this.opts.store.update(item.id, { bytes_sent: sent });
    if (show) this.emit(item);
  }

  private emit(item: ItemRow): void {
    const { rate, etaSeconds: eta } = item.state === 'uploading' ? this.rates.of(item.id, item.bytes_sent, item.size) : { rate: null, etaSeconds: null };
    if (item.session_id && this.known.get(item.id) !== item.session_id) {
      this.known.set(item.id, item.session_id);
      if (!item.staged && item.path) this.opts.onSessionKnown?.(item.session_id, item.path);
    }
    if (item.folder_id === IMPORTS_FOLDER_ID) return void this.opts.onImportProgress?.(item, { rate, etaSeconds: eta });
    const w = toWatchItem(item, { rate, etaSeconds: eta });
    this.opts.onProgress({ itemId: w.itemId, folderId: w.folderId, path: w.path, state: w.state, bytesSent: w.bytesSent, bytesTotal: w.bytesTotal, percent: w.percent, rate: w.rate, etaSeconds: w.etaSeconds, message: w.message });
  }
}
