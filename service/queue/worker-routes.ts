/**
 * The routes a team server's workers call (WORKER_PREFIX), mounted only with `--queue`. Workers
 * hold no database: they fetch the media here and hand back progress and outcomes, which the API
 * node writes to its SQLite as the one writer. Every body is checked with protocol.ts's schemas.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ServiceContext } from '../context';
import { codedError, HttpError, plainError, validationError } from '../http/errors';
import { applyFailure, applyResult } from '../jobs/outcome';
import { glossaryTerms } from '../jobs/queue';
import { keptCopyOf } from '../media/decode';
import { sessionMediaDir } from '../media/paths';
import { chargeJob } from '../quotas/processing';
import { touchSession } from '../sessions/repo';
import { issueText } from '../../node/zod-issues';
import { alreadyApplied, claimForWorker, findLeased, holdsLease, recordProgress, sessionOfJob } from './leases';
import type { DocumentWorkQueue } from './document-work';
import { ChargeAnswer, ChargeRequest, ClaimAnswer, ClaimRequest, FailureRequest, Hello, OutcomeAnswer, Progress, ProgressAnswer, ResultRequest, WORKER_PREFIX, WorkClaimAnswer, WorkFailure, WorkLease, WorkResult } from './protocol';
import { queuesFor } from './routing';
import { authenticateWorker } from './worker-keys';

/** A result carries the transcript and the waveform: hours of media make tens of megabytes of JSON. */
const RESULT_BODY_LIMIT = 160 * 1024 * 1024;
/** The kept copy (MP3, or MP4 for a video) of the longest media a job takes. */
const KEPT_COPY_LIMIT = 2 * 1024 * 1024 * 1024;

function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body);
  if (!r.success) throw validationError(issueText(r.error));
  return r.data;
}

const refused = (why: string) => new HttpError(409, { error: 'lease_refused', error_description: why });

export async function workerRoutes(app: FastifyInstance, ctx: ServiceContext, documents: DocumentWorkQueue): Promise<void> {
  const db = ctx.db;
  app.addContentTypeParser('application/octet-stream', (_req, _payload, done) => done(null));
  const jobOf = (req: FastifyRequest) => (req.params as { jobId: string }).jobId;
  const leaseIn = (req: FastifyRequest) => String((req.query as Record<string, unknown>).lease ?? '');
  const requireLease = (jobId: string, lease: string) => {
    const job = findLeased(db, jobId);
    if (!job || !holdsLease(lease)(job)) throw refused('this lease no longer holds the job');
    return job;
  };

  app.post(`${WORKER_PREFIX}/hello`, async (req) => {
    const name = authenticateWorker(db, req);
    const hello = parse(Hello, req.body);
    db.prepare('UPDATE workers SET capabilities = ?, machine = ?, last_seen = ? WHERE name = ?').run(JSON.stringify(hello.capabilities), JSON.stringify(hello.machine), new Date().toISOString(), name);
    return { name, queues: queuesFor(hello.capabilities) };
  });

  app.post(`${WORKER_PREFIX}/jobs/:jobId/claim`, async (req) => {
    const name = authenticateWorker(db, req);
    const { attempt_tag } = parse(ClaimRequest, req.body);
    db.prepare('UPDATE workers SET last_seen = ? WHERE name = ?').run(new Date().toISOString(), name);
    const claim = claimForWorker(db, jobOf(req), attempt_tag, name);
    if (claim.status === 'gone') return ClaimAnswer.parse(claim);
    const session = sessionOfJob(db, claim.job);
    const kind = claim.job.kind;
    return ClaimAnswer.parse({
      status: 'claimed',
      lease: claim.job.lease,
      kind,
      language: claim.params.language,
      diarization: claim.params.diarization,
      mask_profanity: claim.params.maskProfanity === true,
      allow_profanity: claim.params.allowProfanity === true,
      glossary_terms: kind === 'upload' ? [] : glossaryTerms(db, claim.params),
      speech_engine: claim.params.speechEngine ?? null,
      punctuation: session.punctuation === 1,
      has_media: Boolean(session.media_path),
      media_type: session.media_type,
      keep_media: Boolean(session.keep_media && !session.kept_path),
      needs_waveform: !session.waveform_path,
      text: kind === 'align' || kind === 'upload' ? session.transcript_text : null,
      max_media_seconds: ctx.config.maxMediaSeconds,
    });
  });

  app.get(`${WORKER_PREFIX}/jobs/:jobId/media`, async (req, reply) => {
    authenticateWorker(db, req);
    const job = requireLease(jobOf(req), leaseIn(req));
    const session = sessionOfJob(db, job);
    if (!session.media_path) throw plainError(404, 'the session has no media');
    const size = (await stat(session.media_path)).size;
    return reply.header('content-type', 'application/octet-stream').header('content-length', size).send(createReadStream(session.media_path));
  });

  app.post(`${WORKER_PREFIX}/jobs/:jobId/charge`, async (req) => {
    authenticateWorker(db, req);
    const c = parse(ChargeRequest, req.body);
    const job = requireLease(jobOf(req), c.lease);
    const session = sessionOfJob(db, job);
    return ChargeAnswer.parse({ over: chargeJob(db, job.job_id, session.org_id, c.duration_sec, ctx.config.quota.processingSecondsPerMonth) });
  });

  app.post(`${WORKER_PREFIX}/jobs/:jobId/progress`, async (req) => {
    authenticateWorker(db, req);
    const p = parse(Progress, req.body);
    const keep = recordProgress(db, jobOf(req), p.lease, { percent: p.percent, estimate: p.estimated_completion, durationSec: p.duration_sec });
    return ProgressAnswer.parse({ keep });
  });

  app.put(`${WORKER_PREFIX}/jobs/:jobId/kept`, async (req) => {
    authenticateWorker(db, req);
    const job = requireLease(jobOf(req), leaseIn(req));
    const declared = Number(req.headers['content-length']);
    if (!Number.isSafeInteger(declared) || declared > KEPT_COPY_LIMIT) throw plainError(413, 'the kept copy needs a Content-Length of at most 2 GB');
    const session = sessionOfJob(db, job);
    const dir = sessionMediaDir(ctx.config.dataDir, session.session_id);
    const kept = join(dir, keptCopyOf((req.query as { video?: string }).video === '1').file);
    const part = `${kept}.${job.lease}.part`;
    try {
      await pipeline(req.raw, createWriteStream(part, { mode: 0o600 }));
      if ((await stat(part)).size !== declared) throw plainError(400, 'the kept copy ended early');
      requireLease(job.job_id, leaseIn(req));
      await rename(part, kept);
    } finally {
      await rm(part, { force: true });
    }
    touchSession(db, session.id, { kept_path: kept });
    return { stored: true };
  });

  app.post(`${WORKER_PREFIX}/jobs/:jobId/result`, { bodyLimit: RESULT_BODY_LIMIT }, async (req) => {
    const name = authenticateWorker(db, req);
    const r = parse(ResultRequest, req.body);
    const jobId = jobOf(req);
    if (alreadyApplied(db, jobId, r.lease)) return OutcomeAnswer.parse({ outcome: 'duplicate' });
    const job = requireLease(jobId, r.lease);
    const session = sessionOfJob(db, job);
    if (r.duration_sec !== null) touchSession(db, session.id, { duration: r.duration_sec });
    if (r.waveform && !session.waveform_path) {
      const wfPath = join(sessionMediaDir(ctx.config.dataDir, session.session_id), 'waveform.json');
      await writeFile(wfPath, JSON.stringify(r.waveform));
      touchSession(db, session.id, { waveform_path: wfPath });
    }
    if (!applyResult(ctx, jobId, { transcript: r.transcript, captions: r.captions, metadata: r.metadata }, holdsLease(r.lease))) throw refused('the job was cancelled or taken over while the result was on its way');
    db.prepare('UPDATE workers SET jobs_done = jobs_done + 1, last_seen = ? WHERE name = ?').run(new Date().toISOString(), name);
    return OutcomeAnswer.parse({ outcome: 'applied' });
  });

  app.post(`${WORKER_PREFIX}/jobs/:jobId/failure`, async (req) => {
    const name = authenticateWorker(db, req);
    const f = parse(FailureRequest, req.body);
    const jobId = jobOf(req);
    if (alreadyApplied(db, jobId, f.lease)) return OutcomeAnswer.parse({ outcome: 'duplicate' });
    const job = requireLease(jobId, f.lease);
    if (f.duration_sec !== null) touchSession(db, job.session_pk, { duration: f.duration_sec });
    if (!applyFailure(ctx, jobId, { message: f.message, permanent: f.permanent }, holdsLease(f.lease))) throw refused('the job was cancelled or taken over meanwhile');
    db.prepare('UPDATE workers SET jobs_failed = jobs_failed + 1, last_seen = ? WHERE name = ?').run(new Date().toISOString(), name);
    return OutcomeAnswer.parse({ outcome: 'applied' });
  });

  documentWorkRoutes(app, ctx, documents);
}

/** Translation and summaries (document-work.ts): claimed, kept and answered under a lease, as jobs are. */
function documentWorkRoutes(app: FastifyInstance, ctx: ServiceContext, documents: DocumentWorkQueue): void {
  const db = ctx.db;
  const idOf = (req: FastifyRequest) => (req.params as { workId: string }).workId;
  const counted = (name: string, column: 'jobs_done' | 'jobs_failed') => db.prepare(`UPDATE workers SET ${column} = ${column} + 1, last_seen = ? WHERE name = ?`).run(new Date().toISOString(), name);

  app.post(`${WORKER_PREFIX}/work/:workId/claim`, async (req) => {
    const name = authenticateWorker(db, req);
    db.prepare('UPDATE workers SET last_seen = ? WHERE name = ?').run(new Date().toISOString(), name);
    return WorkClaimAnswer.parse(documents.claim(idOf(req)));
  });

  app.post(`${WORKER_PREFIX}/work/:workId/progress`, async (req) => {
    authenticateWorker(db, req);
    return ProgressAnswer.parse({ keep: documents.holds(idOf(req), parse(WorkLease, req.body).lease) });
  });

  app.post(`${WORKER_PREFIX}/work/:workId/result`, { bodyLimit: RESULT_BODY_LIMIT }, async (req) => {
    const name = authenticateWorker(db, req);
    const r = parse(WorkResult, req.body);
    const outcome = documents.finish(idOf(req), r.lease, { output: r.output });
    if (!outcome) throw refused('nobody waits for this work under this lease any more');
    if (outcome === 'applied') counted(name, 'jobs_done');
    return OutcomeAnswer.parse({ outcome });
  });

  app.post(`${WORKER_PREFIX}/work/:workId/failure`, async (req) => {
    const name = authenticateWorker(db, req);
    const f = parse(WorkFailure, req.body);
    const outcome = documents.finish(idOf(req), f.lease, { error: codedError(f.status, f.code, f.message) });
    if (!outcome) throw refused('nobody waits for this work under this lease any more');
    if (outcome === 'applied') counted(name, 'jobs_failed');
    return OutcomeAnswer.parse({ outcome });
  });
}
