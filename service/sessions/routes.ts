/** Session routes of the table (sessions.list lives in ./list). */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LegacyResult } from '../../common/api';
import type { TranscriptContent } from '../../common/transcript/model';
import { mediaType } from '../../node/content-type';
import type { ServiceContext } from '../context';
import { resolveShare, shareMediaSubject, shareStillLive } from '../documents/share';
import { listDocuments, parseBody } from '../documents/store';
import { documentError, plainError, validationError } from '../http/errors';
import { handle, SENT } from '../http/handle';
import { transition } from '../jobs/states';
import type { JobQueue } from '../jobs/job-queue';
import { sanitizeFilename, sessionMediaDir } from '../media/paths';
import { keptMediaType } from '../media/decode';
import { serveFileWithRanges } from '../media/range';
import { directUploadTooLarge, MAX_DIRECT_UPLOAD_BYTES, receiveToFile } from '../media/receive';
import { assertProcessingLeft } from '../quotas/processing';
import { storageRoom } from '../quotas/storage';
import { invalidFileFormat } from '../media/sniff';
import { verifySigned } from '../net/signed-url';
import { BlockedAddressError, checkUrl, webhookPolicy } from '../net/ssrf';
import { attachMedia, createSessionRow, storeMedia } from './create';
import { downloadMediaSource } from './media-source';
import { toSession, type SessionRow } from './present';
import { findSession, requireSession, sessionByPk, touchSession } from './repo';

function assertNotBusy(ctx: ServiceContext, session: SessionRow): void {
  const open = ctx.db.prepare("SELECT job_id FROM jobs WHERE session_pk = ? AND status IN ('pending', 'processing')").get(session.id);
  if (open) throw documentError(409, 'conflict', 'the session is being processed; wait until its job ends');
}

function legacyResult(ctx: ServiceContext, session: SessionRow): LegacyResult {
  const doc = listDocuments(ctx.db, session.id).rows.filter((d) => d.type === 'document').at(-1);
  const content = doc ? (parseBody(doc).content as TranscriptContent) : null;
  const results =
    content?.kind === 'transcript'
      ? content.segments.flatMap((s) =>
          s.words.map((w) => ({ word: w.text, time_start: w.start_ms / 1000, time_end: w.end_ms / 1000, confidence: w.confidence, speaker: s.speaker_id })),
        )
      : [];
  return {
    duration: session.duration,
    filename: session.filename,
    status: session.status,
    results,
    speakers: content?.kind === 'transcript' ? content.speakers.map((s) => ({ id: s.id, name: s.name })) : [],
    channel: 0,
  };
}

function mediaTypeHeader(req: FastifyRequest): string {
  return mediaType(req.headers['content-type']);
}

export function registerSessionRoutes(app: FastifyInstance, ctx: ServiceContext, jobs: JobQueue): void {
  handle(app, ctx, 'sessions.create', async ({ body, principal }) => {
    const p = principal;
    if (body.webhook_url) {
      try {
        await checkUrl(body.webhook_url, webhookPolicy(ctx.config.allowPrivateWebhooks, true, ctx.tuning?.outbound));
      } catch (e) {
        if (e instanceof BlockedAddressError) throw validationError(`webhook_url refused: ${e.message}`);
        throw e;
      }
    }
    const mode = body.session_mode ?? 'decode';
    const engineRefused = body.speech_engine ? jobs.speechEngineRefusal(body.speech_engine, body.language, mode) : null;
    if (engineRefused) throw validationError(engineRefused);
    const session = createSessionRow(ctx, p, {
      language: body.language,
      status: body.media_source ? 'uploaded' : 'queued',
      mode,
      keepMedia: body.keep_source,
      diarization: body.diarization ?? false,
      punctuation: body.punctuation,
    });
    touchSession(ctx.db, session.id, {
      webhook_url: body.webhook_url ?? null,
      webhook_method: body.webhook_method ?? (body.webhook_url ? 'POST' : null),
      webhook_headers: body.webhook_headers ? JSON.stringify(body.webhook_headers) : null,
      meta_data: body.meta_data ? JSON.stringify(body.meta_data) : null,
    });
    const row = body.media_source ? await downloadMediaSource(ctx, sessionByPk(ctx.db, session.id), body.media_source, body.speech_engine) : sessionByPk(ctx.db, session.id);
    const s = toSession(ctx, row);
    // With media_source the answer is `uploaded` even though the job was queued right after (the spec's status for this answer).
    const status = body.media_source ? 'uploaded' : (s.status ?? 'queued');
    return { count: 1, total_results: 1, result: { duration: s.duration, error: s.error, filename: s.filename, media_type: s.media_type, media_url: s.media_url, session_id: s.session_id, status } };
  });

  handle(app, ctx, 'sessions.get', async ({ params, principal }) => {
    const s = requireSession(ctx.db, params.sessionId, principal.orgId);
    return { count: 1, total_results: 1, result: toSession(ctx, s) };
  });

  handle(app, ctx, 'sessions.shared', async ({ params, query, req }) => {
    resolveShare(ctx.db, req.ip, query.token, params.sessionId);
    const s = findSession(ctx.db, params.sessionId)!;
    return { count: 1, total_results: 1, result: toSession(ctx, s) };
  });

  handle(app, ctx, 'sessions.upload', async ({ params, principal, req }) => {
    const session = requireSession(ctx.db, params.sessionId, principal.orgId);
    const type = mediaTypeHeader(req);
    const documentMode = session.session_mode === 'upload';
    if (!/^(audio|video)\/[\w.+-]+$/.test(type) && !(documentMode && /^(text\/[\w.+-]+|application\/json)$/.test(type))) {
      throw invalidFileFormat(`Content-Type must be audio/* or video/* (got "${type || 'none'}")`);
    }
    // A declared length over the cap is refused before a byte is stored (a streamed body is capped as it arrives).
    if (Number(req.headers['content-length']) > MAX_DIRECT_UPLOAD_BYTES) throw directUploadTooLarge();
    assertNotBusy(ctx, session);
    if (!documentMode) assertProcessingLeft(ctx.db, principal.orgId, ctx.config.quota.processingSecondsPerMonth);
    const quota = await storageRoom(ctx, principal.orgId);
    if (Number(req.headers['content-length']) > quota.room) throw quota.full();
    const filename = sanitizeFilename(req.headers['x-filename'] as string | undefined, 'media');
    const tmp = join(sessionMediaDir(ctx.config.dataDir, session.session_id), `upload-${Date.now()}.tmp`);
    await receiveToFile(req.raw, tmp, quota);
    const stored = await storeMedia(ctx, session, tmp, documentMode);
    attachMedia(ctx, session, { ...stored, filename });
    return { count: 1, total_results: 1, result: toSession(ctx, sessionByPk(ctx.db, session.id)) };
  });

  handle(app, ctx, 'sessions.align', async ({ params, principal, req }) => {
    const session = requireSession(ctx.db, params.sessionId, principal.orgId);
    if (!req.isMultipart()) throw plainError(415, 'Content-Type must be multipart/form-data with parts media and transcript');
    assertNotBusy(ctx, session);
    assertProcessingLeft(ctx.db, principal.orgId, ctx.config.quota.processingSecondsPerMonth);
    const quota = await storageRoom(ctx, principal.orgId);
    const dir = sessionMediaDir(ctx.config.dataDir, session.session_id);
    let tmp: string | null = null;
    let filename = 'media';
    let transcript: string | null = null;
    try {
      for await (const part of req.parts({ limits: { fileSize: MAX_DIRECT_UPLOAD_BYTES, fieldSize: 5_000_000 } })) {
        if (part.type === 'file' && part.fieldname === 'media') {
          tmp = join(dir, `align-${Date.now()}.tmp`);
          filename = sanitizeFilename(part.filename, 'media');
          await receiveToFile(part.file, tmp, quota);
        } else if (part.type === 'file' && part.fieldname === 'transcript') {
          const chunks: Buffer[] = [];
          for await (const c of part.file) chunks.push(c as Buffer);
          transcript = Buffer.concat(chunks).toString('utf8');
        } else if (part.type === 'field' && part.fieldname === 'transcript') {
          transcript = String(part.value);
        } else if (part.type === 'file') {
          part.file.resume();
        }
      }
    } catch (e) {
      if (tmp) await rm(tmp, { force: true });
      throw e;
    }
    if (!tmp || transcript === null || !transcript.trim()) {
      if (tmp) await rm(tmp, { force: true });
      throw validationError('align needs two parts: media (a file) and transcript (text)');
    }
    const stored = await storeMedia(ctx, session, tmp, false);
    attachMedia(ctx, session, { ...stored, filename, transcriptText: transcript, kind: 'align' });
    return { count: 1, total_results: 1, result: toSession(ctx, sessionByPk(ctx.db, session.id)) };
  });

  handle(app, ctx, 'sessions.result', async ({ params, principal }) => {
    const session = requireSession(ctx.db, params.sessionId, principal.orgId);
    return legacyResult(ctx, session);
  });

  handle(app, ctx, 'sessions.delete', async ({ params, principal }) => {
    const session = requireSession(ctx.db, params.sessionId, principal.orgId);
    const open = ctx.db.prepare("SELECT job_id, status FROM jobs WHERE session_pk = ? AND status IN ('pending', 'processing')").all(session.id) as { job_id: string; status: string }[];
    ctx.db.transaction(() => {
      for (const j of open) {
        transition(ctx.db, 'job', j.job_id, 'cancelled', 'session erased by the legacy DELETE');
        transition(ctx.db, 'session', session.id, 'failed', 'the job was cancelled', { error: 'The session was erased.' });
      }
      ctx.db.prepare('DELETE FROM documents WHERE session_pk = ?').run(session.id);
      touchSession(ctx.db, session.id, { filename: '', transcript_text: null, media_path: null, kept_path: null, waveform_path: null });
    }).immediate();
    for (const j of open) jobs.abort(j.job_id);
    await rm(join(ctx.config.dataDir, 'media', session.session_id), { recursive: true, force: true });
    return { count: 1, total_results: 1, result: toSession(ctx, sessionByPk(ctx.db, session.id)) };
  });

  // Our addition (docs/service.md): the spec names no way to change a session's name. The same name twice answers the same, so a retry is safe.
  handle(app, ctx, 'sessions.rename', async ({ params, principal, body }) => {
    const session = requireSession(ctx.db, params.sessionId, principal.orgId);
    if (session.filename !== body.filename) touchSession(ctx.db, session.id, { filename: body.filename });
    return { count: 1, total_results: 1, result: toSession(ctx, sessionByPk(ctx.db, session.id)) };
  });

  handle(app, ctx, 'sessions.media', async ({ params, query, req, reply }) => {
    // A viewer's link names the magic link it came through: signed with it, and only while it is live.
    const subject = query.share ? shareMediaSubject(params.sessionId, query.share) : params.sessionId;
    if (!verifySigned(ctx.secret, 'media', subject, query.exp, query.sig)) throw plainError(403, 'the media link is invalid or expired');
    if (query.share && !shareStillLive(ctx.db, query.share, params.sessionId)) throw plainError(403, 'the magic link this recording was shared through was revoked or has expired');
    const s = findSession(ctx.db, params.sessionId);
    if (!s?.kept_path) throw documentError(404, 'not_found', 'this session keeps no media');
    await serveFileWithRanges(req, reply, s.kept_path, keptMediaType(s.kept_path));
    return SENT;
  });

  handle(app, ctx, 'sessions.waveform', async ({ params, query, reply }) => {
    if (!verifySigned(ctx.secret, 'waveform', params.sessionId, query.exp, query.sig)) throw plainError(403, 'the waveform link is invalid or expired');
    const s = findSession(ctx.db, params.sessionId);
    if (!s?.waveform_path) throw documentError(404, 'not_found', 'the waveform is not ready');
    await reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'private, max-age=3600').send(createReadStream(s.waveform_path));
    return SENT;
  });
}
