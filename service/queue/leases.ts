/**
 * The API node's side of a job held by a worker, in SQLite. A claim moves the job to processing
 * (or, when its previous holder stopped answering and the queue handed the job on, takes it over)
 * and gives a new lease; the holder's progress renews its heartbeat. Results quote the lease,
 * so one from a superseded holder is refused and one sent twice is stored once.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db';
import type { Holds } from '../jobs/outcome';
import { findJob, type JobParams, type JobRow } from '../jobs/queue';
import { transition } from '../jobs/states';
import { sessionByPk } from '../sessions/repo';

export interface LeasedJob extends JobRow {
  queued_attempt: number | null;
  lease: string | null;
  worker: string | null;
  heartbeat_at: number | null;
}

export const findLeased = (db: Db, jobId: string) => findJob(db, jobId) as LeasedJob | undefined;

/** The job is processing under this lease. */
export const holdsLease = (lease: string): Holds => (cur) => cur.status === 'processing' && (cur as LeasedJob).lease === lease;

export type Claim = { status: 'claimed'; job: LeasedJob; params: JobParams } | { status: 'gone'; reason: string };

export function claimForWorker(db: Db, jobId: string, attemptTag: number, worker: string): Claim {
  return db.transaction((): Claim => {
    const row = findLeased(db, jobId);
    if (!row) return { status: 'gone', reason: 'the job no longer exists' };
    if (row.queued_attempt !== attemptTag) return { status: 'gone', reason: 'this queue entry is from an earlier attempt' };
    const lease = randomBytes(18).toString('base64url');
    const now = Date.now();
    if (row.status === 'pending') {
      const at = new Date(now).toISOString();
      const reason = `worker ${worker} claims the job`;
      transition(db, 'job', jobId, 'processing', reason, { attempts: row.attempts + 1, started_at: at, progress: 5, lease, worker, heartbeat_at: now });
      transition(db, 'session', row.session_pk, 'processing', reason, { date_session_start: at, attempts: row.attempts + 1 });
    } else if (row.status === 'processing') {
      // The queue hands a job on only when its holder's lock expired: the holder is gone.
      db.prepare('UPDATE jobs SET lease = ?, worker = ?, heartbeat_at = ?, updated_at = ? WHERE job_id = ?').run(lease, worker, now, new Date(now).toISOString(), jobId);
      db.prepare('INSERT INTO transitions (entity, entity_id, from_status, to_status, reason, at) VALUES (?, ?, ?, ?, ?, ?)').run(
        'job', jobId, 'processing', 'processing', `worker ${worker} takes the job over from ${row.worker ?? 'a worker'} (its lock expired)`, new Date(now).toISOString(),
      );
    } else {
      return { status: 'gone', reason: `the job is ${row.status}` };
    }
    return { status: 'claimed', job: findLeased(db, jobId)!, params: JSON.parse(row.params) as JobParams };
  }).immediate();
}

/** Progress of the holder; false when the lease is no longer the job's (cancelled, taken over). */
export function recordProgress(db: Db, jobId: string, lease: string, p: { percent: number; estimate?: string; durationSec?: number }): boolean {
  const changed = db
    .prepare(
      `UPDATE jobs SET progress = MAX(progress, ?), estimated_completion = COALESCE(?, estimated_completion), heartbeat_at = ?, updated_at = ?
       WHERE job_id = ? AND status = 'processing' AND lease = ?`,
    )
    .run(Math.round(p.percent), p.estimate ?? null, Date.now(), new Date().toISOString(), jobId, lease).changes;
  if (changed === 1 && p.durationSec !== undefined) {
    db.prepare('UPDATE sessions SET duration = ? WHERE id = (SELECT session_pk FROM jobs WHERE job_id = ?)').run(p.durationSec, jobId);
  }
  return changed === 1;
}

/** Whether a lease's outcome was stored already (a resend after a lost answer). */
export function alreadyApplied(db: Db, jobId: string, lease: string): boolean {
  const row = findLeased(db, jobId);
  return Boolean(row && row.lease === lease && (row.status === 'completed' || row.status === 'failed' || (row.status === 'pending' && row.error !== null)));
}

export function sessionOfJob(db: Db, job: JobRow) {
  return sessionByPk(db, job.session_pk);
}
