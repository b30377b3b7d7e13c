/**
 * Live transcription in main: the recording is written to disk as the renderer sends it, and
 * streamed to the service from that file, so nothing is lost when the service cannot be reached:
 * the app reconnects, resumes the same stream (the service answers how much audio it has) and
 * sends the rest from the file. Stop waits until the service has heard everything; the session is
 * then one whole recording with one transcript, in order, without repeated words. When the
 * service was away so long that it finished the stream without us (its idle and resume waits
 * passed), the stream cannot go on: the whole recording is handed to the uploads instead, and
 * transcribed there as any file is.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RealtimeResult } from '../../common/api/realtime';
import { LIVE_AUDIO_MAX_BYTES, type LiveState } from '../../common/ipc/live';
import { LiveRecording } from '../../node/wav-recording';
import { UserFacingError } from '../ipc/user-facing-error';
import { connectRealtime, RealtimeRefused, type RealtimeSocket } from './realtime-socket';

export interface LiveDeps {
  dataDir: string;
  /** ws(s)://…/api/v3/realtime of the account (a cloud account's own realtime host, or the service's). */
  realtimeUrl(): string;
  /** The account's realtime key; `forget`: the last one was refused. */
  realtimeKey(forget?: boolean): Promise<string | null>;
  changed(state: LiveState): void;
  /** The session is complete on the service: pull it, and play it from the recording on disk. */
  finished(sessionId: string, recordingPath: string): void;
  /** Transcribes the recording as a normal upload (the stream could not be finished live). */
  upload(recordingPath: string, language: string): Promise<void>;
  /** Deletes the part of a handed-over stream the service made a session of: the upload has all of it. */
  discard(sessionId: string): Promise<void>;
  /** Reconnect waits (ms), the last repeated; tests shorten or lengthen them. */
  backoffMs?: readonly number[];
}

/** A stream under way, handed from one controller to the next (LiveController.detach, adopt). */
export interface LiveCarry {
  state: LiveState;
  recording: LiveRecording;
  stopping: boolean;
}

const BYTES_PER_MS = 32;
const MAX_PHRASES = 500;
/** Reconnect waits: quick at first (a service restart takes seconds), never more than 5 s. */
const BACKOFF_MS = [500, 1000, 2000, 3000, 5000];
/** Audio sent per socket write while catching up. */
const CATCH_UP_BYTES = 64_000;
/** How long stop waits for the service's last finals on an open socket (a busy machine may be far behind). */
const STOP_TIMEOUT_MS = 30 * 60_000;
const KEEP_ALIVE_MS = 15_000;

const clock = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}`;

const idle = (language = 'en'): LiveState => ({ status: 'idle', connection: 'connecting', recordedMs: 0, heardMs: 0, phrases: [], partial: '', sessionId: null, language, message: null });

export class LiveController {
  private state: LiveState = idle();
  private recording: LiveRecording | null = null;
  private socket: RealtimeSocket | null = null;
  private sentBytes = 0;
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;
  private connecting = false;
  private stopping = false;
  /** Counts sockets: a socket's events count only while it is the current one (a late close of an old one must not end a new one). */
  private generation = 0;

  constructor(private readonly deps: LiveDeps) {}

  current(): LiveState {
    return this.state;
  }

  private set(patch: Partial<LiveState>): LiveState {
    this.state = { ...this.state, ...patch };
    this.deps.changed(this.state);
    return this.state;
  }

  start(language: string): LiveState {
    if (this.state.status === 'recording' || this.state.status === 'paused' || this.state.status === 'finishing') {
      throw new UserFacingError('LIVE_BUSY', 'A live transcription is already running; stop it first.');
    }
    const dir = join(this.deps.dataDir, 'live');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.recording = new LiveRecording(join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.wav`));
    this.sentBytes = 0;
    this.attempt = 0;
    this.stopping = false;
    this.state = { ...idle(language), status: 'recording' };
    this.set({});
    void this.connect();
    return this.state;
  }

  audio(pcm: Buffer): number {
    if (!this.recording || this.state.status !== 'recording') return this.state.recordedMs;
    if (pcm.length > LIVE_AUDIO_MAX_BYTES || pcm.length % 2 !== 0) throw new UserFacingError('LIVE_AUDIO', 'A piece of live audio was not 16-bit samples of at most a second.');
    this.recording.append(new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2));
    this.pump();
    // Not every piece is worth an event: the meter is drawn in the renderer; the clock moves by tenths.
    const recordedMs = Math.floor(this.recording.bytes / BYTES_PER_MS);
    if (recordedMs - this.state.recordedMs >= 250) this.set({ recordedMs, heardMs: Math.floor(this.sentBytes / BYTES_PER_MS) });
    return recordedMs;
  }

  pause(paused: boolean): LiveState {
    if (paused && this.state.status === 'recording') {
      // No audio flows while paused: pings keep the service's idle timeout from ending the stream.
      this.keepAlive = setInterval(() => this.socket?.ping(), KEEP_ALIVE_MS);
      return this.set({ status: 'paused' });
    }
    if (!paused && this.state.status === 'paused') {
      this.endKeepAlive();
      return this.set({ status: 'recording' });
    }
    return this.state;
  }

  private keepAlive: NodeJS.Timeout | null = null;
  private endKeepAlive(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = null;
  }

  stop(): LiveState {
    if (this.state.status !== 'recording' && this.state.status !== 'paused') return this.state;
    this.stopping = true;
    this.endKeepAlive();
    this.set({ status: 'finishing', recordedMs: Math.floor((this.recording?.bytes ?? 0) / BYTES_PER_MS), partial: '' });
    void this.finishWhenHeard();
    return this.state;
  }

  reset(): LiveState {
    if (this.state.status === 'finished' || this.state.status === 'failed' || this.state.status === 'uploaded' || this.state.status === 'idle') this.state = idle(this.state.language);
    return this.set({});
  }

  /**
   * Lets go of a stream under way for another controller to carry on (the same account reopened
   * at its service's new address): nothing is finished or sent; null when no stream is under way.
   */
  detach(): LiveCarry | null {
    const rec = this.recording;
    const { status } = this.state;
    if (!rec || (status !== 'recording' && status !== 'paused' && status !== 'finishing')) return null;
    const carry: LiveCarry = { state: this.state, recording: rec, stopping: this.stopping };
    this.recording = null;
    this.close();
    this.state = idle(this.state.language);
    return carry;
  }

  /** Carries on a stream another controller let go of: reconnects (resuming the same session) and sends what the service has not heard. */
  adopt(carry: LiveCarry): void {
    this.recording = carry.recording;
    this.stopping = carry.stopping;
    this.sentBytes = 0;
    this.attempt = 0;
    if (carry.state.status === 'paused') this.keepAlive = setInterval(() => this.socket?.ping(), KEEP_ALIVE_MS);
    this.state = carry.state;
    this.set({ connection: 'reconnecting', partial: '' });
    void this.connect();
  }

  close(): void {
    this.endKeepAlive();
    if (this.retry) clearTimeout(this.retry);
    this.generation++;
    this.socket?.close();
    this.socket = null;
    this.recording?.finish();
  }

  /** Sends what the service has not heard yet, from the file. */
  private pump(): void {
    const s = this.socket;
    const rec = this.recording;
    if (!s || !rec) return;
    while (this.sentBytes < rec.bytes && s.buffered() < 4 * CATCH_UP_BYTES) {
      const samples = rec.samplesFrom(this.sentBytes / 2);
      const piece = samples.subarray(0, CATCH_UP_BYTES / 2);
      s.send(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength));
      this.sentBytes += piece.byteLength;
    }
    if (this.sentBytes < rec.bytes) setTimeout(() => this.pump(), 50).unref();
  }

  private async connect(): Promise<void> {
    if (this.connecting || this.socket || !this.recording) return;
    this.connecting = true;
    try {
      const key = await this.deps.realtimeKey(this.attempt > 0 && this.lastRefused);
      if (!key) throw new RealtimeRefused(401, 'Sign in to transcribe live.');
      const resume = this.state.sessionId ? `&resume=${encodeURIComponent(this.state.sessionId)}` : '';
      const mine = ++this.generation;
      let lostEarly: string | null = null; // lost before this socket was taken up below
      const socket = await connectRealtime(`${this.deps.realtimeUrl()}?language=${encodeURIComponent(this.state.language)}${resume}`, key, {
        partial: (text) => mine === this.generation && this.set({ partial: text }),
        result: (r) => mine === this.generation && this.result(r),
        lost: (reason) => {
          if (mine !== this.generation) return;
          if (this.socket) this.lost(reason);
          else lostEarly = reason;
        },
      });
      if (mine !== this.generation || !this.recording) {
        socket.close(); // the controller was closed meanwhile
        return;
      }
      this.lastRefused = false;
      this.socket = socket;
      this.attempt = 0;
      // A resumed stream: the service says what it has; the rest comes from the file.
      this.sentBytes = this.state.sessionId ? Math.min(socket.audioMs * BYTES_PER_MS, this.recording.bytes) : 0;
      this.set({ sessionId: socket.sessionId, connection: 'connected', message: null });
      if (lostEarly !== null) return this.lost(lostEarly);
      this.pump();
      if (this.stopping) void this.finishWhenHeard();
    } catch (e) {
      this.lastRefused = e instanceof RealtimeRefused && e.status === 401;
      const resumeRefused = e instanceof RealtimeRefused && this.state.sessionId !== null && /cannot be resumed/.test(e.message);
      // A refusal no retry can change (an unsupported language, no decoder on the service) ends it with the reason.
      if (e instanceof RealtimeRefused && (e.status === 400 || (e.status === 503 && /not available/.test(e.message))) && this.state.sessionId === null) return this.fail(`Live transcription is not available: ${e.message}`);
      if (resumeRefused) return void this.handOver();
      const why = e instanceof RealtimeRefused ? e.message : 'The service cannot be reached';
      this.set({ connection: 'reconnecting', message: `${why.replace(/\.$/, '')}. Recording goes on; the words will catch up when it is back.` });
      this.scheduleReconnect();
    } finally {
      this.connecting = false;
    }
  }
  private lastRefused = false;

  private scheduleReconnect(): void {
    if (this.retry || this.state.status === 'finished' || this.state.status === 'failed' || this.state.status === 'uploaded') return;
    const backoff = this.deps.backoffMs ?? BACKOFF_MS;
    const wait = backoff[Math.min(this.attempt++, backoff.length - 1)];
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, wait);
  }

  private lost(reason: string): void {
    if (!this.socket) return;
    this.socket.close();
    this.socket = null;
    if (this.state.status === 'finished' || this.state.status === 'failed' || this.state.status === 'uploaded') return;
    // The socket's own words when it has some; "lost" said once, not "lost (… lost)".
    const why = /connection to the service was lost/i.test(reason) ? '' : ` (${reason.replace(/\.$/, '')})`;
    this.set({ connection: 'reconnecting', partial: '', message: `The connection to the service was lost${why}. Recording goes on; the words will catch up when it is back.` });
    this.scheduleReconnect();
  }

  private result(r: RealtimeResult): void {
    if (r.result.length === 0) return;
    const phrase = { text: r.text, startMs: r.result[0][1], endMs: r.result.at(-1)![2] };
    this.set({ phrases: [...this.state.phrases, phrase].slice(-MAX_PHRASES), partial: '' });
  }

  /** Once connected and everything is sent: stop, wait for the last finals, hand the session over. */
  private async finishWhenHeard(): Promise<void> {
    const s = this.socket;
    const rec = this.recording;
    if (!s || !rec || this.state.status !== 'finishing') return; // connect() calls again once connected
    while (this.socket === s && this.sentBytes < rec.bytes) await new Promise((r) => setTimeout(r, 50));
    if (this.socket !== s) return;
    try {
      await s.stop(STOP_TIMEOUT_MS);
    } catch (e) {
      // Lost meanwhile: the reconnect resumes and comes back here. Still open after the wait: give up with the reason.
      if (this.socket === s) this.fail(`The service did not finish the transcript (${(e as Error).message}). The recording is kept on this computer.`);
      return;
    }
    if (this.socket !== s) return;
    this.socket = null;
    rec.finish();
    const sessionId = this.state.sessionId!;
    this.set({ status: 'finished', connection: 'connected', heardMs: Math.floor(rec.bytes / BYTES_PER_MS), partial: '', message: null });
    this.deps.finished(sessionId, rec.path);
  }

  /**
   * The service finished the stream while it could not be reached (its idle and resume waits
   * passed): what it has is a session of its own, and the rest would be lost. The whole recording
   * goes to the uploads instead and that part is deleted, so one session has all of it; recording
   * stops here.
   */
  private async handOver(): Promise<void> {
    const rec = this.recording;
    if (!rec) return;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.endKeepAlive();
    rec.finish();
    const recordedMs = Math.floor(rec.bytes / BYTES_PER_MS);
    const message = `The service ended the live stream while it could not be reached, so the words stopped at ${clock(this.state.heardMs)}. The whole recording (${clock(recordedMs)}) is being transcribed as an upload: see Uploads.`;
    this.set({ status: 'uploaded', recordedMs, partial: '', message });
    try {
      await this.deps.upload(rec.path, this.state.language);
    } catch (e) {
      this.fail(`The service ended the live stream while it could not be reached, and the recording could not be added to the uploads (${(e as Error).message}). It is kept on this computer: ${rec.path}`);
      return;
    }
    const partId = this.state.sessionId;
    if (!partId) return;
    await this.deps.discard(partId).catch((e: Error) => {
      this.set({ message: `${message} The session of the words heard live (to ${clock(this.state.heardMs)}) could not be deleted (${e.message}); delete it once the upload is done.` });
    });
  }

  private fail(message: string): void {
    if (this.retry) clearTimeout(this.retry);
    this.recording?.finish();
    this.set({ status: 'failed', message });
  }
}
