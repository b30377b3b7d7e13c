/**
 * The job runner: claims due jobs up to the configured engine concurrency, prepares the media
 * (16 kHz WAV, duration, waveform, kept copy), runs the session's engine, and writes the outcome.
 * Transient failures are retried (session: failed -> queued with date_retried) up to
 * MAX_JOB_ATTEMPTS, then dead_letter; permanent ones (bad media, unsupported language) fail at once.
 */
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ServiceContext } from '../context';
import { MAX_DOCUMENT_BYTES } from '../documents/limits';
import { engines, PermanentEngineError } from '../engines';
import { DecoderPool } from '../engines/decoder-pool';
import { afterRecognition } from '../engines/after-recognition';
import { buildLexicon, type Lexicon } from '../engines/lexicon';
import { installedModes } from '../engines/translate';
import { offloaded } from '../offload/http';
import { assertTimesInMedia } from '../engines/time-guard';
import { decodeToWav, encodeKeptCopy, keptCopyOf, MediaError, probe } from '../media/decode';
import { assertPlausibleDecode, maxDecodedSeconds } from '../media/decoded-size';
import { sessionMediaDir } from '../media/paths';
import { computeWaveform } from '../media/waveform';
import { chargeJob } from '../quotas/processing';
import { diarizationNote, type EngineResult } from '../engines/engine';
import { parseLiveTranscript } from '../realtime/transcript';
import { recoverInterruptedDownloads } from '../sessions/media-source';
import { sessionByPk, touchSession } from '../sessions/repo';
import type { SessionRow } from '../sessions/present';
import type { JobQueue } from './job-queue';
import { runDocumentWork, type DocumentWork, type DocumentWorkOutput } from './document-work';
import { isPermanent } from './failure-kind';
import { applyFailure, applyResult } from './outcome';
import { claimNext, findJob, glossaryTerms, recoverInterrupted, releaseStopped, type JobParams, type JobRow } from './queue';

/** Rough real-time factor used for estimated_completion before a job has run. */
const ESTIMATE_RTF = 0.6;

export class JobRunner implements JobQueue {
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
    const { requeued, failed } = recoverInterrupted(this.ctx.db);
    if (requeued > 0) this.ctx.log.info('jobs recovered after restart', { count: requeued });
    if (failed > 0) this.ctx.log.warn('jobs failed: the service died while they ran, too many times', { count: failed });
    this.timer = setInterval(() => this.tick(), 250);
    this.timer.unref();
    this.tick();
  }

  /** Stops claiming, stops running engines; their jobs go back on the queue for the next start, the stopped run not counted. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    const stopped = [...this.active.keys()];
    for (const ac of this.active.values()) ac.abort();
    await Promise.allSettled([...this.running]);
    releaseStopped(this.ctx.db, stopped);
  }

  wake(): void {
    this.tick();
  }

  /** Translation and summaries run here at once, as the request that asks for them. */
  documentWork(work: DocumentWork): Promise<DocumentWorkOutput> {
    return runDocumentWork(work, (body) => offloaded(this.ctx, 'summaryPick', { body }));
  }

  async translationModes(): Promise<{ modes: string[]; where: string }> {
    return { modes: await installedModes(), where: 'here' };
  }

  speechEngineRefusal(engine: string, language: string, mode: 'decode' | 'align' | 'upload'): string | null {
    return this.ctx.speech.refusal(engine, language, mode);
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
    let wavPath: string | undefined;
    try {
      const session = sessionByPk(this.ctx.db, job.session_pk);
      const params = JSON.parse(job.params) as JobParams;
      wavPath = job.kind === 'upload' ? undefined : join(sessionMediaDir(this.ctx.config.dataDir, session.session_id), 'audio.wav');
      const prepared: { wavPath?: string; durationMs: number } = wavPath ? await this.prepareMedia(job, session, wavPath, signal) : { durationMs: 0 };
      const text = job.kind === 'align' ? (session.transcript_text ?? '') : job.kind === 'upload' ? await this.uploadedText(session) : undefined;
      const lexicon = job.kind === 'upload' ? null : await this.lexiconFor(params, signal);
      const recognizer = job.kind === 'upload' ? undefined : this.ctx.speech.choose(params.language, params.speechEngine);
      let result = params.liveTranscriptPath ? await liveResult(params.liveTranscriptPath) : await engines[job.kind].run({
        recognizer,
        wavPath: prepared.wavPath,
        durationMs: prepared.durationMs,
        language: params.language,
        text,
        diarization: params.diarization,
        punctuation: session.punctuation === 1,
        signal,
        decoders: this.decoders,
        offload: this.ctx.offload,
        lexicon,
        onProgress: (p) => this.progress(job.job_id, 15 + p * 0.8),
      });
      result = await afterRecognition(result, { language: params.language, diarization: params.diarization, maskProfanity: params.maskProfanity === true, wavPath: prepared.wavPath, durationMs: prepared.durationMs, offload: this.ctx.offload });
      const mediaMs = job.kind === 'upload' ? await this.uploadMediaMs(session, signal) : prepared.durationMs || null;
      assertTimesInMedia(job.kind === 'upload' ? 'uploaded document' : 'transcript', result.transcript, result.captions, mediaMs);
      applyResult(this.ctx, job.job_id, result);
    } catch (e) {
      if (this.stopping) return;
      if (signal.aborted && findJob(this.ctx.db, job.job_id)?.status === 'cancelled') return;
      const err = e as Error;
      applyFailure(this.ctx, job.job_id, { message: err.message, permanent: isPermanent(err) });
    } finally {
      // The decoded audio is only the engine's input (a recording's ten times over): never kept, also not after a cancel.
      if (wavPath) await rm(wavPath, { force: true });
    }
  }

  /** The decoder's words for this job: offensive words out unless allowed, the glossary's terms in. */
  private lexiconFor(params: JobParams, signal: AbortSignal): Promise<Lexicon | null> {
    const terms = glossaryTerms(this.ctx.db, params);
    return buildLexicon(join(this.ctx.config.dataDir, 'lexicon'), { allowProfanity: params.allowProfanity === true, terms }, signal);
  }

  private async prepareMedia(job: JobRow, session: SessionRow, wavPath: string, signal: AbortSignal): Promise<{ wavPath: string; durationMs: number }> {
    if (!session.media_path) throw new PermanentEngineError('This session has no media; upload it first.');
    // Media longer than --max-media-hours fails here, before anything is converted.
    const info = await probe(session.media_path, signal, this.ctx.config.maxMediaSeconds);
    // Duration first: a video without sound still shows how long it is beside its error.
    touchSession(this.ctx.db, session.id, { duration: info.durationSec });
    if (!info.hasAudio) throw new MediaError('The media file has no audio track, so there is nothing to transcribe.');
    const fileBytes = (await stat(session.media_path)).size;
    assertPlausibleDecode(fileBytes, info.durationSec);
    // Charged once per job (a retry converts the same media again, not more of it).
    const over = chargeJob(this.ctx.db, job.job_id, session.org_id, info.durationSec, this.ctx.config.quota.processingSecondsPerMonth);
    if (over) throw new PermanentEngineError(over);
    const dir = dirname(wavPath);
    // A header can understate the length: the decode itself stops where the size allows.
    await decodeToWav(session.media_path, wavPath, signal, Math.min(this.ctx.config.maxMediaSeconds, maxDecodedSeconds(fileBytes)));
    const durationMs = Math.round(info.durationSec * 1000);
    const estimate = new Date(Date.now() + 2000 + durationMs * ESTIMATE_RTF).toISOString();
    this.progress(job.job_id, 10, estimate);
    if (!session.waveform_path) {
      const wfPath = join(dir, 'waveform.json');
      await writeFile(wfPath, JSON.stringify(await computeWaveform(wavPath)));
      touchSession(this.ctx.db, session.id, { waveform_path: wfPath });
    }
    await this.keepCopy(session, info.hasVideo, signal);
    this.progress(job.job_id, 15);
    return { wavPath, durationMs };
  }

  /** keep_source: the copy the editors play, made once per session. */
  private async keepCopy(session: SessionRow, hasVideo: boolean, signal: AbortSignal): Promise<void> {
    if (!session.keep_media || session.kept_path || !session.media_path) return;
    const keptPath = join(sessionMediaDir(this.ctx.config.dataDir, session.session_id), keptCopyOf(hasVideo).file);
    await encodeKeptCopy(session.media_path, keptPath, hasVideo, signal, this.ctx.config.maxMediaSeconds);
    touchSession(this.ctx.db, session.id, { kept_path: keptPath });
  }

  /**
   * Upload mode with a given text beside real media: the media's duration bounds the given times
   * (null: no media), and keep_source keeps it to play as any other session's.
   */
  private async uploadMediaMs(session: SessionRow, signal: AbortSignal): Promise<number | null> {
    if (!session.transcript_text || !session.media_path || !/^(audio|video)\//.test(session.media_type ?? '')) return null;
    const info = await probe(session.media_path, signal, this.ctx.config.maxMediaSeconds);
    touchSession(this.ctx.db, session.id, { duration: info.durationSec });
    await this.keepCopy(session, info.hasVideo, signal);
    return info.durationSec > 0 ? Math.round(info.durationSec * 1000) : null;
  }

  private async uploadedText(session: SessionRow): Promise<string> {
    if (session.transcript_text) return session.transcript_text;
    if (!session.media_path) throw new PermanentEngineError('Upload mode needs a document.');
    if ((await stat(session.media_path)).size > MAX_DOCUMENT_BYTES) throw new PermanentEngineError(`The uploaded document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB, more than a document can be.`);
    return readFile(session.media_path, 'utf8');
  }
}

/** A live stream's transcript, made while it was spoken (service/realtime/finish.ts). */
async function liveResult(path: string): Promise<EngineResult> {
  return { transcript: parseLiveTranscript(await readFile(path, 'utf8')), metadata: { engine: 'pocketsphinx-live', diarization: diarizationNote(false) } };
}
