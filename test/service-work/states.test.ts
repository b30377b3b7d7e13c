/**
 * The status machines with a real SQLite database and the real job runner: every listed edge is
 * allowed and recorded, every other one refused; restart recovery; and transient failures retried
 * (date_retried) up to the bound, then dead_letter.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../../service/context';
import { openDb, type Db } from '../../service/db';
import { claimNext, enqueueJob, MAX_JOB_ATTEMPTS, recoverInterrupted } from '../../service/jobs/queue';
import { JobRunner } from '../../service/jobs/runner';
import { canMove, IllegalTransition, JOB_TRANSITIONS, SESSION_TRANSITIONS, transition } from '../../service/jobs/states';
import { migrations } from '../../service/migrations';
import { attachMedia, createSessionRow } from '../../service/sessions/routes';
import type { UserPrincipal } from '../../service/auth/principal';
import { cleanup, tempDir } from '../helpers/service';
import { until } from './helpers';

let dir: string;
let db: Db;
let ctx: ServiceContext;
let principal: UserPrincipal;

beforeEach(() => {
  dir = tempDir('s2t-states-');
  db = openDb(join(dir, 'service.db'), migrations);
  const now = new Date().toISOString();
  const org = Number(db.prepare('INSERT INTO organizations (name, created_at) VALUES (?, ?)').run('org', now).lastInsertRowid);
  const user = Number(db.prepare('INSERT INTO users (org_id, email, created_at) VALUES (?, ?, ?)').run(org, 'u@example.com', now).lastInsertRowid);
  principal = { kind: 'user', userId: user, orgId: org, roles: ['CUSTOMER'], via: 'jwt', rateKey: 'x' };
  const quiet = { info() {}, warn() {}, error() {} };
  ctx = { db, config: { host: '127.0.0.1', port: 0, dataDir: dir, allowPrivateWebhooks: false, rateLimit: { max: 1, windowMs: 1 }, engineConcurrency: 1, bodyLimitBytes: 1 }, log: quiet, secret: new Uint8Array(32).fill(7), baseUrl: () => 'http://127.0.0.1:1' };
});

afterEach(() => {
  db.close();
  cleanup(dir);
});

const history = (entity: 'session' | 'job', id: number | string) =>
  (db.prepare('SELECT from_status, to_status FROM transitions WHERE entity = ? AND entity_id = ? ORDER BY id').all(entity, String(id)) as { from_status: string | null; to_status: string }[]).map(
    (r) => `${r.from_status ?? '∅'}>${r.to_status}`,
  );

function newSession(): number {
  return createSessionRow(ctx, principal, { language: 'en', status: 'queued', mode: 'decode', keepMedia: false, diarization: false }).id;
}

describe('transition tables', () => {
  const sessionStates = ['uploaded', 'queued', 'processing', 'completed', 'failed', 'dead_letter'];
  const jobStates = ['pending', 'processing', 'completed', 'failed', 'cancelled'];

  it('every listed session edge is taken and recorded; every unlisted one is refused', () => {
    for (const from of sessionStates) {
      for (const to of sessionStates) {
        const id = newSession();
        db.prepare('UPDATE sessions SET status = ? WHERE id = ?').run(from, id);
        const allowed = Boolean((SESSION_TRANSITIONS as Record<string, Record<string, string>>)[from]?.[to]);
        expect(canMove('session', from, to)).toBe(allowed);
        if (allowed) {
          expect(transition(db, 'session', id, to, 'test')).toBe(from);
          expect(history('session', id).at(-1)).toBe(`${from}>${to}`);
        } else {
          expect(() => transition(db, 'session', id, to, 'test')).toThrow(IllegalTransition);
          expect((db.prepare('SELECT status FROM sessions WHERE id = ?').get(id) as { status: string }).status).toBe(from);
        }
      }
    }
  });

  it('every listed job edge is taken and recorded; every unlisted one is refused', () => {
    const sid = newSession();
    for (const from of jobStates) {
      for (const to of jobStates) {
        const jobId = `job_${from}_${to}`;
        db.prepare("INSERT INTO jobs (job_id, session_pk, kind, status, created_at, updated_at) VALUES (?, ?, 'decode', ?, '', '')").run(jobId, sid, from);
        const allowed = Boolean((JOB_TRANSITIONS as Record<string, Record<string, string>>)[from]?.[to]);
        if (allowed) {
          transition(db, 'job', jobId, to, 'test');
          expect(history('job', jobId)).toEqual([`${from}>${to}`]);
        } else {
          expect(() => transition(db, 'job', jobId, to, 'test')).toThrow(/illegal job transition/);
          expect(history('job', jobId)).toEqual([]);
        }
      }
    }
    // Terminal states have no way out.
    expect(Object.keys(JOB_TRANSITIONS.completed)).toEqual([]);
    expect(Object.keys(JOB_TRANSITIONS.cancelled)).toEqual([]);
  });
});

describe('queue', () => {
  it('claims, and after a restart puts interrupted work back on the queue', () => {
    const sid = newSession();
    db.prepare("UPDATE sessions SET media_path = '/nonexistent.wav' WHERE id = ?").run(sid);
    const jobId = db.transaction(() => enqueueJob(db, ctx.secret, { sessionPk: sid, kind: 'decode', params: { language: 'en', diarization: false }, reason: 'test' }))();
    // A second job for a busy session is refused.
    expect(() => enqueueJob(db, ctx.secret, { sessionPk: sid, kind: 'decode', params: { language: 'en', diarization: false }, reason: 'test' })).toThrow('conflict');
    const claimed = claimNext(db)!;
    expect(claimed.job_id).toBe(jobId);
    expect(claimed.status).toBe('processing');
    expect(claimNext(db)).toBeNull();
    expect(recoverInterrupted(db)).toBe(1);
    expect(history('job', jobId)).toEqual(['∅>pending', 'pending>processing', 'processing>pending']);
    expect(history('session', sid)).toEqual(['∅>queued', 'queued>processing', 'processing>queued']);
    expect(recoverInterrupted(db)).toBe(0);
  });

  it('a transient failure is retried with date_retried, then the session goes to dead_letter', async () => {
    const wav = join(dir, 'tone.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ar', '16000', wav]);
    const session = createSessionRow(ctx, principal, { language: 'en', status: 'queued', mode: 'decode', keepMedia: false, diarization: false });
    // A real fault the engine cannot fix by itself but a person could: the session's media folder is a file.
    writeFileSync(join(dir, 'media'), 'not a directory');
    attachMedia(ctx, session, { path: wav, filename: 'tone.wav', mediaType: 'audio/wav' });
    const runner = new JobRunner(ctx);
    runner.start();
    try {
      const end = await until('dead_letter', async () => {
        const s = db.prepare('SELECT status, date_retried, error FROM sessions WHERE id = ?').get(session.id) as { status: string; date_retried: string | null; error: string };
        return s.status === 'dead_letter' ? s : null;
      }, 30_000, 100);
      expect(end.date_retried).toBeTruthy();
      expect(end.error).toMatch(/^Processing failed: .*\.$|^[A-Z].*\.$/);
      const job = db.prepare('SELECT status, attempts FROM jobs WHERE session_pk = ?').get(session.id) as { status: string; attempts: number };
      expect(job).toEqual({ status: 'failed', attempts: MAX_JOB_ATTEMPTS });
      expect(history('session', session.id)).toEqual([
        '∅>queued',
        'queued>processing', 'processing>failed', 'failed>queued',
        'queued>processing', 'processing>failed', 'failed>queued',
        'queued>processing', 'processing>failed', 'failed>dead_letter',
      ]);
    } finally {
      await runner.stop();
    }
  }, 40_000);
});
