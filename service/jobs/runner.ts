/**
 * The job runner: claims due jobs up to the configured engine concurrency, prepares the media
 * (16 kHz WAV, duration, waveform, kept copy), runs the session's engine, and writes the outcome.
 * Transient failures are retried (session: failed -> queued with date_retried) up to
 * MAX_JOB_ATTEMPTS, then dead_letter; permanent ones (bad media, unsupported language) fail at once.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { transcriptToCaptions } from '../../common/transcript/captions';
import type { DocumentBody, DocumentMetadata } from '../../common/transcript/model';
import { unseal } from '../auth/secrets';
import type { ServiceContext } from '../context';
import { insertDocument } from '../documents/store';
import { engines, PermanentEngineError, type EngineResult } from '../engines';
import { DecoderPool } from '../engines/decoder-pool';
import { tellSpeakersApart } from '../engines/speakers';
import { buildLexicon, MAX_TERMS, type Lexicon } from '../engines/lexicon';
import { maskNote, maskOffensive } from '../engines/profanity';
import { assertTimesInMedia } from '../engines/time-guard';
import { decodeToWav, encodeKeptCopy, MediaError, probe } from '../media/decode';
import { sessionMediaDir } from '../media/paths';
import { computeWaveform } from '../media/waveform';
import { recoverInterruptedDownloads } from '../sessions/media-source';
import { sessionByPk, touchSession } from '../sessions/repo';
import { metaData, type SessionRow } from '../sessions/present';
import { enqueueLegacy, enqueueSigned } from '../webhooks/deliveries';
import { claimNext, findJob, MAX_JOB_ATTEMPTS, recoverInterrupted, retryDelayMs, type JobParams, type JobRow } from './queue';
import { transition } from './states';

/** Rough real-time factor used for estimated_completion before a job has run. */
const ESTIMATE_RTF = 0.6;

export class JobRunner {
  private timer: NodeJS.Timeout | null = null;
  private active = new Map<string, AbortController>();
  private running = new Set<Promise<void>>();
  private stopping = false;
  private decoders: DecoderPool;

  constructor(private ctx: ServiceContext) {
    this.decoders = DecoderPool.forService(ctx.config.engineConcurrency);
  }

  /** Settles what a previous run left half-done (downloads, running jobs), then starts claiming. */
  start(): void {
    const downloads = recoverInterruptedDownloads(this.ctx);
    if (downloads > 0) this.ctx.log.info('interrupted media_source downloads settled after restart', { count: downloads });
    const n = recoverInterrupted(this.ctx.db);
    if (n > 0) this.ctx.log.info('jobs recovered after restart', { count: n });
    this.timer = setInterval(() => this.tick(), 250);
    this.timer.unref();
    this.tick();
  }

  /** Stops claiming, stops running engines; their jobs stay processing and are recovered at the next start. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    for (const ac of this.active.values()) ac.abort();
    await Promise.allSettled([...this.running]);
  }

  /** Called by the cancel route: stops the engine of a running job. */
  abort(jobId: string): void {
    this.active.get(jobId)?.abort();
  }

  tick(): void {
    while (!this.stopping && this.active.size < this.ctx.config.engineConcurrency) {
      const job = claimNext(this.ctx.db);
      if (!job) return;
      const ac = new AbortController();
      this.active.set(job.job_id, ac);
      const p = this.run(job, ac.signal).finally(() => {
        this.active.delete(job.job_id);
        this.running.delete(p);
        if (!this.stopping) setImmediate(() => this.tick());
      });
      this.running.add(p);
    }
  }

  private progress(jobId: string, percent: number, estimate?: string): void {
    this.ctx.db
      .prepare("UPDATE jobs SET progress = MAX(progress, ?), estimated_completion = COALESCE(?, estimated_completion), updated_at = ? WHERE job_id = ? AND status = 'processing'")
      .run(Math.round(percent), estimate ?? null, new Date().toISOString(), jobId);
  }

  private async run(job: JobRow, signal: AbortSignal): Promise<void> {
    try {
      const session = sessionByPk(this.ctx.db, job.session_pk);
      const params = JSON.parse(job.params) as JobParams;
      const prepared: { wavPath?: string; durationMs: number } = job.kind === 'upload' ? { durationMs: 0 } : await this.prepareMedia(job, session, signal);
      const text = job.kind === 'align' ? (session.transcript_text ?? '') : job.kind === 'upload' ? await this.uploadedText(session) : undefined;
      const lexicon = job.kind === 'upload' ? null : await this.lexiconFor(params, signal);
      let result = await engines[job.kind].run({
        wavPath: prepared.wavPath,
        durationMs: prepared.durationMs,
        language: params.language,
        text,
        diarization: params.diarization,
        punctuation: session.punctuation === 1,
        signal,
        decoders: this.decoders,
        lexicon,
        onProgress: (p) => this.progress(job.job_id, 15 + p * 0.8),
      });
      if (params.diarization && prepared.wavPath && result.transcript.speakers.length === 0) {
        const told = await tellSpeakersApart(prepared.wavPath, prepared.durationMs, result.transcript);
        result = { ...result, transcript: told.transcript, metadata: { ...result.metadata, diarization: told.diarization } };
      }
      if (params.maskProfanity) {
        const m = maskOffensive(params.language, result.transcript, result.captions);
        result = { ...result, transcript: m.transcript, captions: m.captions, metadata: { ...result.metadata, profanity: maskNote(m.masked) } };
      }
      const mediaMs = job.kind === 'upload' ? await this.uploadMediaMs(session, signal) : prepared.durationMs || null;
      assertTimesInMedia(job.kind === 'upload' ? 'uploaded document' : 'transcript', result.transcript, result.captions, mediaMs);
      this.complete(job, session, result);
    } catch (e) {
      if (this.stopping) return;
      if (signal.aborted && findJob(this.ctx.db, job.job_id)?.status === 'cancelled') return;
      this.fail(job, e as Error);
    }
  }

  /** The decoder's words for this job: offensive words out unless allowed, the glossary's terms in. */
  private lexiconFor(params: JobParams, signal: AbortSignal): Promise<Lexicon | null> {
    const terms =
      params.glossaryId === undefined
        ? []
        : (this.ctx.db.prepare('SELECT source FROM glossary_entries WHERE glossary_id = ? ORDER BY position LIMIT ?').all(params.glossaryId, MAX_TERMS) as { source: string }[]).map((r) => r.source);
    return buildLexicon(join(this.ctx.config.dataDir, 'lexicon'), { allowProfanity: params.allowProfanity === true, terms }, signal);
  }

  private async prepareMedia(job: JobRow, session: SessionRow, signal: AbortSignal): Promise<{ wavPath: string; durationMs: number }> {
    if (!session.media_path) throw new PermanentEngineError('This session has no media; upload it first.');
    // Media longer than --max-media-hours fails here, before anything is converted.
    const info = await probe(session.media_path, signal, this.ctx.config.maxMediaSeconds);
    // Duration first: a video without sound still shows how long it is beside its error.
    touchSession(this.ctx.db, session.id, { duration: info.durationSec });
    if (!info.hasAudio) throw new MediaError('The media file has no audio track, so there is nothing to transcribe.');
    const dir = sessionMediaDir(this.ctx.config.dataDir, session.session_id);
    const wavPath = join(dir, 'audio.wav');
    await decodeToWav(session.media_path, wavPath, signal, this.ctx.config.maxMediaSeconds);
    const durationMs = Math.round(info.durationSec * 1000);
    const estimate = new Date(Date.now() + 2000 + durationMs * ESTIMATE_RTF).toISOString();
    this.progress(job.job_id, 10, estimate);
    if (!session.waveform_path) {
      const wfPath = join(dir, 'waveform.json');
      await writeFile(wfPath, JSON.stringify(await computeWaveform(wavPath)));
      touchSession(this.ctx.db, session.id, { waveform_path: wfPath });
    }
    if (session.keep_media && !session.kept_path) {
      const keptPath = join(dir, 'kept.mp3');
      await encodeKeptCopy(session.media_path, keptPath, signal, this.ctx.config.maxMediaSeconds);
      touchSession(this.ctx.db, session.id, { kept_path: keptPath });
    }
    this.progress(job.job_id, 15);
    return { wavPath, durationMs };
  }

  /** Upload mode with a given text beside real media: the media's duration bounds the given times (null: no media). */
  private async uploadMediaMs(session: SessionRow, signal: AbortSignal): Promise<number | null> {
    if (!session.transcript_text || !session.media_path || !/^(audio|video)\//.test(session.media_type ?? '')) return null;
    const info = await probe(session.media_path, signal);
    touchSession(this.ctx.db, session.id, { duration: info.durationSec });
    return info.durationSec > 0 ? Math.round(info.durationSec * 1000) : null;
  }

  private async uploadedText(session: SessionRow): Promise<string> {
    if (session.transcript_text) return session.transcript_text;
    if (!session.media_path) throw new PermanentEngineError('Upload mode needs a document.');
    if ((await stat(session.media_path)).size > 50 * 1024 * 1024) throw new PermanentEngineError('The uploaded document is larger than 50 MB.');
    return readFile(session.media_path, 'utf8');
  }

  private complete(job: JobRow, session: SessionRow, result: EngineResult): void {
    const db = this.ctx.db;
    db.transaction(() => {
      if (findJob(db, job.job_id)?.status !== 'processing') return; // cancelled meanwhile
      const stem = session.filename.replace(/\.[^.]+$/, '') || 'transcript';
      const metadata: DocumentMetadata = { ...result.metadata, job_id: job.job_id };
      const transcript: DocumentBody = { document_type: 'transcript', metadata, content: result.transcript };
      const captions: DocumentBody = { document_type: 'caption', metadata, content: result.captions ?? transcriptToCaptions(result.transcript) };
      insertDocument(db, { sessionPk: session.id, filename: stem, type: 'document', language: session.language, body: transcript, jobId: job.job_id });
      insertDocument(db, { sessionPk: session.id, filename: `${stem} (captions)`, type: 'caption', language: session.language, body: captions, jobId: job.job_id });
      const now = new Date().toISOString();
      transition(db, 'job', job.job_id, 'completed', 'the engine finished and its documents are stored', { progress: 100, error: null });
      transition(db, 'session', session.id, 'completed', 'the engine finished and its documents are stored', { date_finished: now, error: null });
      const fresh = sessionByPk(db, session.id);
      if (fresh.webhook_url) {
        enqueueLegacy(db, this.ctx.secret, {
          url: fresh.webhook_url,
          method: fresh.webhook_method ?? 'POST',
          headerLines: JSON.parse(fresh.webhook_headers ?? '[]') as string[],
          sessionId: fresh.session_id,
          metaData: metaData(fresh),
        });
      }
      this.signedWebhook(job, fresh, 'completed', null);
    }).immediate();
  }

  private signedWebhook(job: JobRow, session: SessionRow, event: 'completed' | 'failed', error: string | null): void {
    if (!job.webhook_url) return;
    const events = JSON.parse(job.webhook_events ?? '[]') as string[];
    if (!events.includes(event)) return;
    enqueueSigned(this.ctx.db, this.ctx.secret, {
      url: job.webhook_url,
      webhookSecret: job.webhook_secret ? unseal(this.ctx.secret, job.webhook_secret) : null,
      payload: { event, job_id: job.job_id, session_id: session.session_id, status: event, error },
    });
  }

  private fail(job: JobRow, e: Error): void {
    const db = this.ctx.db;
    const permanent = e instanceof PermanentEngineError || e instanceof MediaError;
    const message = permanent ? e.message : humanError(e);
    this.ctx.log.warn('job failed', { job_id: job.job_id, attempt: job.attempts, permanent, error: message });
    db.transaction(() => {
      const cur = findJob(db, job.job_id);
      if (cur?.status !== 'processing') return;
      const session = sessionByPk(db, job.session_pk);
      if (permanent || cur.attempts >= MAX_JOB_ATTEMPTS) {
        transition(db, 'job', job.job_id, 'failed', permanent ? 'the engine failed permanently' : 'retries are exhausted', { error: message });
        transition(db, 'session', session.id, 'failed', 'the engine failed', { error: message });
        if (!permanent) transition(db, 'session', session.id, 'dead_letter', 'retries exhausted');
        this.signedWebhook(job, session, 'failed', message);
      } else {
        transition(db, 'job', job.job_id, 'pending', 'transient failure with retries left', { error: message, progress: 0, run_after: Date.now() + retryDelayMs(cur.attempts) });
        transition(db, 'session', session.id, 'failed', 'the engine failed', { error: message });
        transition(db, 'session', session.id, 'queued', 'automatic retry of a transient failure', { date_retried: new Date().toISOString() });
      }
    }).immediate();
  }
}

function humanError(e: Error): string {
  const m = e.message.trim();
  if (/^[A-Z].*[.!]$/.test(m)) return m;
  return `Processing failed: ${m || 'unknown error'}.`;
}
