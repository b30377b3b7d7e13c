/** The /api/v3/batch family: multipart upload, transcribe, jobs, result, cancel (tus is in ./tus). */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { documentAnswer, listDocuments } from '../documents/store';
import { documentError, plainError, validationError } from '../http/errors';
import { handle, JsonText } from '../http/handle';
import { enqueueJob, findJob, toJob, type JobRow } from '../jobs/queue';
import type { JobQueue } from '../jobs/job-queue';
import { IllegalTransition, transition } from '../jobs/states';
import { sanitizeFilename, uploadsDir } from '../media/paths';
import { MAX_DIRECT_UPLOAD_BYTES, receiveToFile } from '../media/receive';
import { assertProcessingLeft } from '../quotas/processing';
import { storageRoom } from '../quotas/storage';
import { invalidFileFormat, sniffFile } from '../media/sniff';
import { BlockedAddressError, checkUrl, webhookPolicy } from '../net/ssrf';
import { sessionByPk, touchSession } from '../sessions/repo';
import { createSessionRow } from '../sessions/create';
import { requireOwnGlossary, requireOwnCustomModel } from './references';

interface UploadRow {
  file_id: string;
  org_id: number;
  path: string;
  filename: string;
  size_bytes: number;
  media_type: string;
  complete: number;
}

/** Text documents accepted by batch upload for session_mode upload. */
const DOCUMENT_NAME = /\.(txt|json|srt|vtt|sbv|ttml|xml)$/i;

function requireJob(ctx: ServiceContext, jobId: string, orgId: number): JobRow {
  const job = findJob(ctx.db, jobId);
  if (!job || sessionByPk(ctx.db, job.session_pk).org_id !== orgId) throw documentError(404, 'not_found', 'job does not exist');
  return job;
}

export function registerBatchRoutes(app: FastifyInstance, ctx: ServiceContext, jobs: JobQueue): void {
  handle(app, ctx, 'batch.upload', async ({ principal, req }) => {
    const p = principal;
    if (!req.isMultipart()) throw plainError(415, 'Content-Type must be multipart/form-data with a part named file');
    const fileId = `file_${randomBytes(12).toString('base64url')}`;
    const path = join(uploadsDir(ctx.config.dataDir), fileId);
    let filename: string | null = null;
    let size = 0;
    const quota = await storageRoom(ctx, p.orgId);
    for await (const part of req.parts({ limits: { fileSize: MAX_DIRECT_UPLOAD_BYTES, files: 1 } })) {
      if (part.type === 'file' && part.fieldname === 'file' && filename === null) {
        filename = sanitizeFilename(part.filename, 'upload');
        size = await receiveToFile(part.file, path, quota);
      } else if (part.type === 'file') part.file.resume();
    }
    if (filename === null) throw validationError('file: a multipart part named "file" is required');
    const sniffed = await sniffFile(path);
    if (!sniffed && !DOCUMENT_NAME.test(filename)) {
      await rm(path, { force: true });
      throw invalidFileFormat();
    }
    const mediaType = sniffed?.mime ?? 'text/plain';
    ctx.db
      .prepare("INSERT INTO uploads (file_id, org_id, user_id, path, filename, size_bytes, media_type, complete, via, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 'multipart', ?)")
      .run(fileId, p.orgId, p.userId, path, filename, size, mediaType, new Date().toISOString());
    return { file_id: fileId, filename, size_bytes: size, media_type: mediaType };
  });

  handle(app, ctx, 'batch.transcribe', async ({ body, principal }) => {
    const p = principal;
    const upload = ctx.db.prepare('SELECT * FROM uploads WHERE file_id = ?').get(body.file_id) as UploadRow | undefined;
    if (!upload || upload.org_id !== p.orgId) throw documentError(404, 'not_found', 'file_id does not exist');
    assertProcessingLeft(ctx.db, p.orgId, ctx.config.quota.processingSecondsPerMonth);
    if (!upload.complete) throw documentError(409, 'conflict', 'the upload of this file is not complete');
    const mode = body.session_mode ?? 'decode';
    if (mode === 'align' && !body.transcript_text?.trim()) throw validationError('transcript_text: align needs the text to align');
    const engineRefused = body.speech_engine ? jobs.speechEngineRefusal(body.speech_engine, body.language, mode) : null;
    if (engineRefused) throw validationError(engineRefused);
    const sniffed = await sniffFile(upload.path);
    if (mode !== 'upload' && !sniffed) throw invalidFileFormat();
    const glossaryId = body.glossary_id === undefined ? undefined : requireOwnGlossary(ctx, body.glossary_id, p.orgId);
    const customModelId = body.custom_model_id === undefined ? undefined : requireOwnCustomModel(ctx, body.custom_model_id, p.orgId);
    if (body.webhook_url) {
      try {
        await checkUrl(body.webhook_url, webhookPolicy(ctx.config.allowPrivateWebhooks, false, ctx.tuning?.outbound));
      } catch (e) {
        if (e instanceof BlockedAddressError) throw validationError(`webhook_url refused: ${e.message}`);
        throw e;
      }
    }
    const jobId = ctx.db
      .transaction(() => {
        const session = createSessionRow(ctx, p, { language: body.language, status: 'queued', mode, keepMedia: body.keep_source, diarization: body.enable_diarization, punctuation: body.punctuation });
        touchSession(ctx.db, session.id, {
          filename: body.filename ? sanitizeFilename(body.filename) : upload.filename,
          media_type: sniffed?.mime ?? upload.media_type,
          media_path: upload.path,
          date_upload: new Date().toISOString(),
          transcript_text: body.transcript_text ?? null,
        });
        return enqueueJob(ctx.db, ctx.secret, {
          sessionPk: session.id,
          kind: mode,
          fileId: upload.file_id,
          params: { language: body.language, diarization: body.enable_diarization, glossaryId, customModelId, allowProfanity: body.allow_profanity, maskProfanity: body.mask_profanity, ...(body.speech_engine ? { speechEngine: body.speech_engine } : {}) },
          webhook: body.webhook_url ? { url: body.webhook_url, secret: body.webhook_secret, events: body.webhook_events } : undefined,
          reason: 'batch transcribe',
        });
      })
      .immediate();
    jobs.wake();
    return toJob(ctx.db, findJob(ctx.db, jobId)!);
  });

  handle(app, ctx, 'batch.job', async ({ params, principal }) => toJob(ctx.db, requireJob(ctx, params.jobId, principal.orgId)));

  handle(app, ctx, 'batch.jobResult', async ({ params, principal }) => {
    const job = requireJob(ctx, params.jobId, principal.orgId);
    const session = sessionByPk(ctx.db, job.session_pk);
    const docs = job.status === 'completed' ? listDocuments(ctx.db, session.id).rows.filter((d) => d.job_id === job.job_id) : [];
    // The bodies go in as stored: never parsed and serialized again on the event loop.
    const head = JSON.stringify({ job_id: job.job_id, session_id: session.session_id, status: job.status });
    return new JsonText(`${head.slice(0, -1)},"documents":[${docs.map((d) => documentAnswer(d).text).join(',')}]}`);
  });

  handle(app, ctx, 'batch.jobCancel', async ({ params, principal }) => {
    const job = requireJob(ctx, params.jobId, principal.orgId);
    try {
      ctx.db
        .transaction(() => {
          transition(ctx.db, 'job', job.job_id, 'cancelled', 'cancelled by the client', { estimated_completion: null });
          transition(ctx.db, 'session', job.session_pk, 'failed', 'the job was cancelled', { error: 'The job was cancelled.' });
        })
        .immediate();
    } catch (e) {
      if (e instanceof IllegalTransition) throw documentError(409, 'conflict', `a ${e.from} job cannot be cancelled`);
      throw e;
    }
    jobs.abort(job.job_id);
    return toJob(ctx.db, findJob(ctx.db, job.job_id)!);
  });
}
