/**
 * The processing quota: each organization has at most --org-processing-hours of media converted
 * and recognised per calendar month (UTC). A job's media is charged when the job has measured it,
 * before any conversion; a job that would pass the limit fails with the reason, and new work is
 * refused (429) once the month's limit is used up.
 */
import type { Db } from '../db';
import { codedError } from '../http/errors';

const month = (at = new Date()) => at.toISOString().slice(0, 7);
const hours = (s: number) => (s >= 3600 ? `${+(s / 3600).toFixed(2)} h` : s >= 60 ? `${+(s / 60).toFixed(1)} min` : `${Math.round(s)} s`);

export function processingUsed(db: Db, orgId: number): number {
  const row = db.prepare('SELECT seconds FROM processing_usage WHERE org_id = ? AND month = ?').get(orgId, month()) as { seconds: number } | undefined;
  return row?.seconds ?? 0;
}

/** Refuses new work (429) when the organization's month is used up. */
export function assertProcessingLeft(db: Db, orgId: number, limitSeconds: number): void {
  const used = processingUsed(db, orgId);
  if (used >= limitSeconds) {
    throw codedError(429, 'processing_quota_exceeded', `Your organization has had ${hours(used)} of media processed this month, its limit (--org-processing-hours is ${hours(limitSeconds)}). New work can start again on the 1st (UTC), or ask the administrator to raise the limit.`, {
      used_seconds: used,
      limit_seconds: limitSeconds,
    });
  }
}

/** Charges `seconds` of media to this month, or answers why not (the limit would be passed) without charging. */
export function chargeProcessing(db: Db, orgId: number, seconds: number, limitSeconds: number): string | null {
  return db.transaction(() => {
    const used = processingUsed(db, orgId);
    if (used + seconds > limitSeconds) {
      return `This recording is ${hours(seconds)} long, and your organization has had ${hours(used)} of media processed this month; it would pass the limit of ${hours(limitSeconds)} (--org-processing-hours). It can be processed after the 1st (UTC), or ask the administrator to raise the limit.`;
    }
    db.prepare('INSERT INTO processing_usage (org_id, month, seconds) VALUES (?, ?, ?) ON CONFLICT (org_id, month) DO UPDATE SET seconds = seconds + excluded.seconds').run(orgId, month(), seconds);
    return null;
  }).immediate();
}

/**
 * Charges a job's media once, whoever runs it (the in-process runner, or a team server's worker
 * through the API node): a retry, a takeover or a restart finds the job charged and passes.
 * Answers why not when the charge would pass the limit (nothing charged).
 */
export function chargeJob(db: Db, jobId: string, orgId: number, seconds: number, limitSeconds: number): string | null {
  return db.transaction(() => {
    const charged = db.prepare('SELECT charged_seconds FROM jobs WHERE job_id = ?').pluck().get(jobId) as number | null | undefined;
    if (charged !== null && charged !== undefined) return null;
    const over = chargeProcessing(db, orgId, seconds, limitSeconds);
    if (!over) db.prepare('UPDATE jobs SET charged_seconds = ? WHERE job_id = ?').run(seconds, jobId);
    return over;
  }).immediate();
}
