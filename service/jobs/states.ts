/**
 * The two status machines, written down once. Every change of a session's or a job's status goes
 * through `transition`, which refuses a move that is not listed here and records each one in the
 * transitions table (entity, id, from, to, reason, time), so the history of any job can be read back.
 */
import type { JobStatus, SessionStatus } from '../../common/api';
import type { Db } from '../db';

type Edges<S extends string> = Record<S, Partial<Record<S, string>>>;

/** Session status: from -> to -> when it happens (also the README table). */
export const SESSION_TRANSITIONS: Edges<SessionStatus> = {
  uploaded: {
    queued: 'downloaded media_source is put on the work queue',
    failed: 'the service stopped during the media_source download (recovery at the next start)',
  },
  queued: { processing: 'a worker claims the job', failed: 'the job was cancelled before it ran' },
  processing: {
    completed: 'the engine finished and its documents are stored',
    failed: 'the engine failed, or the job was cancelled',
    queued: 'the service restarted while the job ran (recovery)',
  },
  failed: {
    queued: 'automatic retry of a transient failure (date_retried set), or new media uploaded',
    dead_letter: 'retries exhausted',
  },
  completed: { queued: 'new media uploaded to the session' },
  dead_letter: { queued: 'new media uploaded to the session' },
};

/** Job status: from -> to -> when it happens. */
export const JOB_TRANSITIONS: Edges<JobStatus> = {
  pending: { processing: 'a worker claims the job', cancelled: 'cancelled by the client' },
  processing: {
    completed: 'the engine finished and its documents are stored',
    failed: 'the engine failed permanently, or retries are exhausted',
    pending: 'transient failure with retries left, or the service restarted while it ran',
    cancelled: 'cancelled by the client (the engine process is stopped)',
  },
  completed: {},
  failed: {},
  cancelled: {},
};

export class IllegalTransition extends Error {
  constructor(
    readonly entity: 'session' | 'job',
    readonly from: string,
    readonly to: string,
  ) {
    super(`illegal ${entity} transition ${from} -> ${to}`);
  }
}

export function canMove(entity: 'session' | 'job', from: string, to: string): boolean {
  const table = (entity === 'session' ? SESSION_TRANSITIONS : JOB_TRANSITIONS) as Record<string, Record<string, string>>;
  return Boolean(table[from]?.[to]);
}

const now = () => new Date().toISOString();

/**
 * Moves a session (by row id) or a job (by job_id) from its current status to `to`, only if the
 * edge exists; `extra` sets more columns in the same UPDATE. Must run inside the caller's
 * transaction when other writes belong with it. Returns the previous status.
 */
export function transition(
  db: Db,
  entity: 'session' | 'job',
  id: number | string,
  to: string,
  reason: string,
  extra: Record<string, unknown> = {},
): string {
  const table = entity === 'session' ? 'sessions' : 'jobs';
  const key = entity === 'session' ? 'id' : 'job_id';
  const row = db.prepare(`SELECT status FROM ${table} WHERE ${key} = ?`).get(id) as { status: string } | undefined;
  if (!row) throw new Error(`${entity} ${id} does not exist`);
  if (!canMove(entity, row.status, to)) throw new IllegalTransition(entity, row.status, to);
  const stamp = now();
  const cols = { status: to, ...(entity === 'session' ? { last_modified: stamp } : { updated_at: stamp }), ...extra };
  const names = Object.keys(cols);
  const changed = db
    .prepare(`UPDATE ${table} SET ${names.map((n) => `${n} = ?`).join(', ')} WHERE ${key} = ? AND status = ?`)
    .run(...names.map((n) => (cols as Record<string, unknown>)[n]), id, row.status).changes;
  if (changed !== 1) throw new IllegalTransition(entity, row.status, to);
  db.prepare('INSERT INTO transitions (entity, entity_id, from_status, to_status, reason, at) VALUES (?, ?, ?, ?, ?, ?)').run(
    entity,
    String(id),
    row.status,
    to,
    reason,
    stamp,
  );
  return row.status;
}

/** Records the first status of a new row (there is no "from"). */
export function recordCreated(db: Db, entity: 'session' | 'job', id: number | string, status: string, reason: string): void {
  db.prepare('INSERT INTO transitions (entity, entity_id, from_status, to_status, reason, at) VALUES (?, ?, NULL, ?, ?, ?)').run(entity, String(id), status, reason, now());
}
