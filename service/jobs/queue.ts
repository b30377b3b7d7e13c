/**
 * The durable work queue: jobs are rows in SQLite. A job is created pending together with its
 * session's move to queued; a worker claims the oldest due one in a transaction; its outcome,
 * documents and webhook deliveries are written in one transaction, so a job completes exactly once.
 */
import { randomBytes } from 'node:crypto';
import type { Job, JobStatus, WebhookEvent } from '../../common/api';
import { seal } from '../auth/secrets';
import type { Db } from '../db';
import { MAX_TERMS } from '../engines/lexicon';
import { documentError } from '../http/errors';
import { sessionByPk } from '../sessions/repo';
import { canMove, recordCreated, transition } from './states';

export interface JobParams {
  language: string;
  diarization: boolean;
  filename?: string;
  /** Checked against the organization at transcribe; its terms join the decoder's words (engines/lexicon). */
  glossaryId?: number;
  /** Offensive words may be recognised (default: left out of the decoder's words). */
  allowProfanity?: boolean;
  /** Offensive words are masked in the documents, for any engine and listed language. */
  maskProfanity?: boolean;
  customModelId?: number;
  /** The speech engine the caller chose (engines/registry.ts); absent: the best installed one. */
  speechEngine?: string;
  /** decode: the transcript a live stream already made (service/realtime), stored instead of decoding again. */
  liveTranscriptPath?: string;
}

export interface JobRow {
  job_id: string;
  session_pk: number;
  kind: 'decode' | 'align' | 'upload';
  status: JobStatus;
  progress: number;
  attempts: number;
  /** Runs the service did not survive (see recoverInterrupted). */
  interruptions: number;
  run_after: number;
  file_id: string | null;
  params: string;
  webhook_url: string | null;
  webhook_secret: string | null;
  webhook_events: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  estimated_completion: string | null;
}

/** Attempts a job gets for transient failures before the session goes to dead_letter. */
export const MAX_JOB_ATTEMPTS = 3;
/** Wait before retry n (ms). */
export const retryDelayMs = (attempt: number) => 2000 * 4 ** (attempt - 1);

export function newJobId(): string {
  return `job_${randomBytes(12).toString('base64url')}`;
}

export interface NewJob {
  sessionPk: number;
  kind: JobRow['kind'];
  params: JobParams;
  fileId?: string | null;
  webhook?: { url: string; secret?: string | null; events?: WebhookEvent[] };
  reason: string;
}

/** Puts a session's work on the queue (in the caller's transaction). Refused while it is processing. */
export function enqueueJob(db: Db, secret: Uint8Array, j: NewJob): string {
  const session = sessionByPk(db, j.sessionPk);
  const open = db.prepare("SELECT job_id FROM jobs WHERE session_pk = ? AND status IN ('pending', 'processing')").get(j.sessionPk);
  if (open || (session.status !== 'queued' && !canMove('session', session.status, 'queued'))) {
    throw documentError(409, 'conflict', `the session is ${session.status}; wait until its current job ends`);
  }
  const id = newJobId();
  const now = new Date().toISOString();
  db.prepare(
    `INSERT INTO jobs (job_id, session_pk, kind, status, progress, attempts, run_after, file_id, params, webhook_url, webhook_secret, webhook_events, created_at, updated_at)
     VALUES (?, ?, ?, 'pending', 0, 0, 0, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    j.sessionPk,
    j.kind,
    j.fileId ?? null,
    JSON.stringify(j.params),
    j.webhook?.url ?? null,
    j.webhook?.secret ? seal(secret, j.webhook.secret) : null,
    j.webhook ? JSON.stringify(j.webhook.events ?? ['completed', 'failed']) : null,
    now,
    now,
  );
  recordCreated(db, 'job', id, 'pending', j.reason);
  if (session.status !== 'queued') transition(db, 'session', j.sessionPk, 'queued', j.reason, { error: null, attempts: 0 });
  else db.prepare('UPDATE sessions SET error = NULL, attempts = 0 WHERE id = ?').run(j.sessionPk);
  return id;
}

/** The glossary's terms a job's decoder hears (engines/lexicon.ts), wherever the job runs. */
export function glossaryTerms(db: Db, params: JobParams): string[] {
  if (params.glossaryId === undefined) return [];
  return db.prepare('SELECT source FROM glossary_entries WHERE glossary_id = ? ORDER BY position LIMIT ?').pluck().all(params.glossaryId, MAX_TERMS) as string[];
}

export function findJob(db: Db, jobId: string): JobRow | undefined {
  return db.prepare('SELECT * FROM jobs WHERE job_id = ?').get(jobId) as JobRow | undefined;
}

/** Claims the oldest due pending job, moving job and session to processing; null when none. */
export function claimNext(db: Db): JobRow | null {
  return db.transaction(() => {
    const row = db.prepare("SELECT * FROM jobs WHERE status = 'pending' AND run_after <= ? ORDER BY created_at, rowid LIMIT 1").get(Date.now()) as JobRow | undefined;
    if (!row) return null;
    const now = new Date().toISOString();
    transition(db, 'job', row.job_id, 'processing', 'a worker claims the job', { attempts: row.attempts + 1, started_at: now, progress: 5 });
    transition(db, 'session', row.session_pk, 'processing', 'a worker claims the job', { date_session_start: now, attempts: row.attempts + 1 });
    return findJob(db, row.job_id)!;
  }).immediate();
}

/** Runs of one job the service may die in (crash, or killed for not answering) before the job fails. */
export const MAX_JOB_INTERRUPTIONS = 3;

/**
 * At start-up: nothing may stay in processing from a previous run. A job found there was running
 * when the service died (a clean stop puts its jobs back first: releaseStopped), so the run counts
 * as an attempt and as an interruption; after MAX_JOB_INTERRUPTIONS the job fails for good rather
 * than take the service down again. Returns the jobs put back and the jobs failed.
 */
export function recoverInterrupted(db: Db): { requeued: number; failed: number } {
  return db.transaction(() => {
    const rows = db.prepare("SELECT job_id, session_pk, interruptions FROM jobs WHERE status = 'processing'").all() as Pick<JobRow, 'job_id' | 'session_pk' | 'interruptions'>[];
    let failed = 0;
    for (const r of rows) {
      const interruptions = r.interruptions + 1;
      const sessionProcessing = sessionByPk(db, r.session_pk).status === 'processing';
      if (interruptions >= MAX_JOB_INTERRUPTIONS) {
        const error = `The service stopped ${interruptions} times while this job ran (it stopped answering or crashed), so the job was ended to keep the service running. Check the media and the transcript text, then start it again.`;
        transition(db, 'job', r.job_id, 'failed', 'the service died while the job ran, too many times', { interruptions, error });
        if (sessionProcessing) transition(db, 'session', r.session_pk, 'failed', 'the engine failed', { error });
        failed++;
        continue;
      }
      transition(db, 'job', r.job_id, 'pending', 'the service restarted while the job ran (recovery)', { interruptions, progress: 0, run_after: 0 });
      if (sessionProcessing) transition(db, 'session', r.session_pk, 'queued', 'the service restarted while the job ran (recovery)');
    }
    return { requeued: rows.length - failed, failed };
  }).immediate();
}

/** A clean stop: the jobs it stopped go back on the queue, and the stopped run does not count as an attempt. */
export function releaseStopped(db: Db, jobIds: string[]): void {
  db.transaction(() => {
    for (const id of jobIds) {
      const r = findJob(db, id);
      if (r?.status !== 'processing') continue;
      transition(db, 'job', id, 'pending', 'the service stopped while the job ran; it runs again at the next start', { attempts: Math.max(0, r.attempts - 1), progress: 0, run_after: 0 });
      if (sessionByPk(db, r.session_pk).status === 'processing') transition(db, 'session', r.session_pk, 'queued', 'the service restarted while the job ran (recovery)');
    }
  }).immediate();
}

export function toJob(db: Db, row: JobRow): Job {
  const session = sessionByPk(db, row.session_pk);
  const params = JSON.parse(row.params) as JobParams;
  return {
    job_id: row.job_id,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    progress: row.progress,
    estimated_completion: row.status === 'pending' || row.status === 'processing' ? row.estimated_completion : null,
    metadata: {
      session_id: session.session_id,
      ...(row.file_id ? { file_id: row.file_id } : {}),
      language: params.language,
      mode: row.kind,
      attempts: row.attempts,
      ...(params.glossaryId !== undefined ? { glossary_id: params.glossaryId } : {}),
      ...(params.customModelId !== undefined ? { custom_model_id: params.customModelId } : {}),
      allow_profanity: params.allowProfanity === true,
      mask_profanity: params.maskProfanity === true,
    },
    error: row.error,
  };
}
