/**
 * A job's outcome, written in one transaction: its documents, the status of job and session, and
 * the webhook deliveries. The in-process runner and the distributed queue's result route both end
 * here, so a job completes the same way wherever its engine ran. `holds` says whether the caller
 * still holds the job (the runner: it is processing; a worker: its lease is the current one);
 * an outcome from a caller that no longer holds it is not applied.
 */
import { transcriptToCaptions } from '../../common/transcript/captions';
import type { DocumentBody, DocumentMetadata } from '../../common/transcript/model';
import { unseal } from '../auth/secrets';
import type { ServiceContext } from '../context';
import { insertDocument } from '../documents/store';
import type { EngineResult } from '../engines';
import { sessionByPk } from '../sessions/repo';
import { metaData, type SessionRow } from '../sessions/present';
import { enqueueLegacy, enqueueSigned } from '../webhooks/deliveries';
import { findJob, MAX_JOB_ATTEMPTS, retryDelayMs, type JobRow } from './queue';
import { transition } from './states';

export type Holds = (current: JobRow) => boolean;
export const isProcessing: Holds = (cur) => cur.status === 'processing';

/** Stores the engine's documents and completes job and session; false when the caller no longer holds the job. */
export function applyResult(ctx: ServiceContext, jobId: string, result: EngineResult, holds: Holds = isProcessing): boolean {
  const db = ctx.db;
  return db.transaction(() => {
    const job = findJob(db, jobId);
    if (!job || !holds(job)) return false; // cancelled or superseded meanwhile
    const session = sessionByPk(db, job.session_pk);
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
      enqueueLegacy(db, ctx.secret, {
        url: fresh.webhook_url,
        method: fresh.webhook_method ?? 'POST',
        headerLines: JSON.parse(fresh.webhook_headers ?? '[]') as string[],
        sessionId: fresh.session_id,
        metaData: metaData(fresh),
      });
    }
    signedWebhook(ctx, job, fresh, 'completed', null);
    return true;
  }).immediate();
}

/**
 * Fails the job (permanent, or retries exhausted: the session goes to dead_letter) or puts it back
 * with a delay for a transient failure; false when the caller no longer holds the job.
 */
export function applyFailure(ctx: ServiceContext, jobId: string, failure: { message: string; permanent: boolean }, holds: Holds = isProcessing): boolean {
  const db = ctx.db;
  const { permanent } = failure;
  const message = permanent ? failure.message : humanError(failure.message);
  return db.transaction(() => {
    const cur = findJob(db, jobId);
    if (!cur || !holds(cur)) return false;
    ctx.log.warn('job failed', { job_id: jobId, attempt: cur.attempts, permanent, error: message });
    const session = sessionByPk(db, cur.session_pk);
    if (permanent || cur.attempts >= MAX_JOB_ATTEMPTS) {
      transition(db, 'job', jobId, 'failed', permanent ? 'the engine failed permanently' : 'retries are exhausted', { error: message });
      transition(db, 'session', session.id, 'failed', 'the engine failed', { error: message });
      if (!permanent) transition(db, 'session', session.id, 'dead_letter', 'retries exhausted');
      signedWebhook(ctx, cur, session, 'failed', message);
    } else {
      transition(db, 'job', jobId, 'pending', 'transient failure with retries left', { error: message, progress: 0, run_after: Date.now() + retryDelayMs(cur.attempts) });
      transition(db, 'session', session.id, 'failed', 'the engine failed', { error: message });
      transition(db, 'session', session.id, 'queued', 'automatic retry of a transient failure', { date_retried: new Date().toISOString() });
    }
    return true;
  }).immediate();
}

function signedWebhook(ctx: ServiceContext, job: JobRow, session: SessionRow, event: 'completed' | 'failed', error: string | null): void {
  if (!job.webhook_url) return;
  const events = JSON.parse(job.webhook_events ?? '[]') as string[];
  if (!events.includes(event)) return;
  enqueueSigned(ctx.db, ctx.secret, {
    url: job.webhook_url,
    webhookSecret: job.webhook_secret ? unseal(ctx.secret, job.webhook_secret) : null,
    payload: { event, job_id: job.job_id, session_id: session.session_id, status: event, error },
  });
}

function humanError(m: string): string {
  const t = m.trim();
  if (/^[A-Z].*[.!]$/.test(t)) return t;
  return `Processing failed: ${t || 'unknown error'}.`;
}
