/**
 * The status machines with a real SQLite database and the real job runner: every listed edge is
 * allowed and recorded, every other one refused; restart recovery; and transient failures retried
 * (date_retried) up to the bound, then dead_letter.
 */
import { OffloadPool } from '../../../service/offload/pool';
import { openSpeechEngines } from '../../../service/speech-models/open';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../../../service/context';
import { openDb, type Db } from '../../../service/db';
import { claimNext, enqueueJob, findJob, MAX_JOB_ATTEMPTS, MAX_JOB_INTERRUPTIONS, recoverInterrupted, releaseStopped } from '../../../service/jobs/queue';
import { JobRunner } from '../../../service/jobs/runner';
import { canMove, IllegalTransition, JOB_TRANSITIONS, SESSION_TRANSITIONS, transition } from '../../../service/jobs/states';
import { migrations } from '../../../service/migrations';
import { attachMedia, createSessionRow } from '../../../service/sessions/create';
import type { UserPrincipal } from '../../../service/auth/principal';
import { cleanup, tempDir } from '../../helpers/service';
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
  ctx = { db, config: { host: '127.0.0.1', port: 0, dataDir: dir, allowPrivateWebhooks: false, rateLimit: { max: 1, windowMs: 1 }, engineConcurrency: 1, bodyLimitBytes: 1, maxMediaSeconds: 3600, ssoRedirectUris: [], quota: { storageBytes: 1e12, processingSecondsPerMonth: 1e9 } }, log: quiet, secret: new Uint8Array(32).fill(7), offload: new OffloadPool(), baseUrl: () => 'http://127.0.0.1:1', ...openSpeechEngines(dir, [], 1024 ** 3, quiet) };
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

/**
 * The edges as the README documents them ("Session transitions", "Job transitions"), written out
 * here by hand: the code's tables must allow exactly these, and the database must refuse the rest.
 */
const DOCUMENTED_SESSION_EDGES = [
  'uploaded>queued', // the media_source download is queued
  'uploaded>failed', // the service stopped during the download (settled at the next start)
  'queued>processing',
  'queued>failed', // cancelled before it ran
  'processing>completed',
  'processing>failed',
  'processing>queued', // restart recovery
  'failed>queued', // automatic retry (date_retried), or new media
  'failed>dead_letter',
  'completed>queued', // new media
  'dead_letter>queued', // new media
];
const DOCUMENTED_JOB_EDGES = [
  'pending>processing',
  'pending>cancelled',
  'processing>completed',
  'processing>failed',
  'processing>pending', // retry or recovery
  'processing>cancelled',
];
const SESSION_STATES = ['uploaded', 'queued', 'processing', 'completed', 'failed', 'dead_letter'];
const JOB_STATES = ['pending', 'processing', 'completed', 'failed', 'cancelled'];

const edgesOf = (table: Record<string, Record<string, string>>) => Object.entries(table).flatMap(([from, tos]) => Object.keys(tos).map((to) => `${from}>${to}`));

describe('transition tables', () => {
  it('the code lists exactly the documented edges, over exactly the documented states', () => {
    expect(edgesOf(SESSION_TRANSITIONS as Record<string, Record<string, string>>).sort()).toEqual([...DOCUMENTED_SESSION_EDGES].sort());
    expect(edgesOf(JOB_TRANSITIONS as Record<string, Record<string, string>>).sort()).toEqual([...DOCUMENTED_JOB_EDGES].sort());
    expect(Object.keys(SESSION_TRANSITIONS).sort()).toEqual([...SESSION_STATES].sort());
    expect(Object.keys(JOB_TRANSITIONS).sort()).toEqual([...JOB_STATES].sort());
  });

  it('every documented session edge is taken and recorded; every other move is refused and changes nothing', () => {
    for (const from of SESSION_STATES) {
      for (const to of SESSION_STATES) {
        const id = newSession();
        db.prepare('UPDATE sessions SET status = ? WHERE id = ?').run(from, id);
        const documented = DOCUMENTED_SESSION_EDGES.includes(`${from}>${to}`);
        expect(canMove('session', from, to), `${from}>${to}`).toBe(documented);
        if (documented) {
          expect(transition(db, 'session', id, to, 'test')).toBe(from);
          expect(history('session', id).at(-1)).toBe(`${from}>${to}`);
        } else {
          expect(() => transition(db, 'session', id, to, 'test'), `${from}>${to}`).toThrow(IllegalTransition);
          expect((db.prepare('SELECT status FROM sessions WHERE id = ?').get(id) as { status: string }).status).toBe(from);
          expect(history('session', id)).toEqual(['∅>queued']); // only the creation row
        }
      }
    }
  });

  it('every documented job edge is taken and recorded; every other move is refused; completed, failed and cancelled are final', () => {
    const sid = newSession();
    for (const from of JOB_STATES) {
      for (const to of JOB_STATES) {
        const jobId = `job_${from}_${to}`;
        db.prepare("INSERT INTO jobs (job_id, session_pk, kind, status, created_at, updated_at) VALUES (?, ?, 'decode', ?, '', '')").run(jobId, sid, from);
        if (DOCUMENTED_JOB_EDGES.includes(`${from}>${to}`)) {
          transition(db, 'job', jobId, to, 'test');
          expect(history('job', jobId)).toEqual([`${from}>${to}`]);
        } else {
          expect(() => transition(db, 'job', jobId, to, 'test'), `${from}>${to}`).toThrow(/illegal job transition/);
          expect(history('job', jobId)).toEqual([]);
        }
      }
    }
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
    expect(recoverInterrupted(db)).toEqual({ requeued: 1, failed: 0 });
    expect(history('job', jobId)).toEqual(['∅>pending', 'pending>processing', 'processing>pending']);
    expect(history('session', sid)).toEqual(['∅>queued', 'queued>processing', 'processing>queued']);
    expect(recoverInterrupted(db)).toEqual({ requeued: 0, failed: 0 });
  });

  it('counts each run the service died in; the third fails the job with the reason, a clean stop counts none', () => {
    const sid = newSession();
    const jobId = db.transaction(() => enqueueJob(db, ctx.secret, { sessionPk: sid, kind: 'decode', params: { language: 'en', diarization: false }, reason: 'test' }))();
    claimNext(db);
    releaseStopped(db, [jobId]);
    expect(findJob(db, jobId)).toMatchObject({ status: 'pending', attempts: 0, interruptions: 0 });
    for (let run = 1; run < MAX_JOB_INTERRUPTIONS; run++) {
      claimNext(db);
      expect(recoverInterrupted(db)).toEqual({ requeued: 1, failed: 0 });
      expect(findJob(db, jobId)).toMatchObject({ status: 'pending', attempts: run, interruptions: run });
    }
    claimNext(db);
    expect(recoverInterrupted(db)).toEqual({ requeued: 0, failed: 1 });
    const job = findJob(db, jobId)!;
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/stopped 3 times while this job ran/);
    expect(db.prepare('SELECT status, error FROM sessions WHERE id = ?').get(sid)).toEqual({ status: 'failed', error: job.error });
    expect(claimNext(db)).toBeNull();
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
