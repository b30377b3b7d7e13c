/** Session routes of the table (sessions.list lives in ./list). */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LegacyResult } from '../../common/api';
import type { TranscriptContent } from '../../common/transcript/model';
import type { UserPrincipal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { resolveShare } from '../documents/share';
import { listDocuments, parseBody } from '../documents/store';
import { documentError, plainError, validationError } from '../http/errors';
import { handle, SENT } from '../http/handle';
import { enqueueJob } from '../jobs/queue';
import { recordCreated, transition } from '../jobs/states';
import type { JobRunner } from '../jobs/runner';
import { sanitizeFilename, sessionMediaDir } from '../media/paths';
import { serveFileWithRanges } from '../media/range';
import { receiveToFile } from '../media/receive';
import { invalidFileFormat, sniffFile } from '../media/sniff';
import { verifySigned } from '../net/signed-url';
import { BlockedAddressError, checkUrl, guardedFetch, MEDIA_SOURCE_POLICY, webhookPolicy } from '../net/ssrf';
import { toSession, type SessionRow } from './present';
import { findSession, newSessionId, requireSession, sessionByPk, touchSession } from './repo';

/** Caps on a media_source download. */
export const MEDIA_SOURCE_MAX_BYTES = 2 * 1024 ** 3;
export const MEDIA_SOURCE_TIMEOUT_MS = 10 * 60_000;

const user = (p: { kind: string }) => p as UserPrincipal;

export function createSessionRow(
  ctx: ServiceContext,
  p: UserPrincipal,
  s: { language: string; status: 'queued' | 'uploaded'; mode: string; keepMedia: boolean; diarization: boolean; punctuation?: boolean; filename?: string; mediaType?: string },
): SessionRow {
  const now = new Date().toISOString();
  const sessionId = newSessionId();
  const info = ctx.db
    .prepare(
      `INSERT INTO sessions (session_id, org_id, user_id, filename, language, status, session_mode, keep_media, diarization, punctuation, media_type, created_at, last_modified)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(sessionId, p.orgId, p.userId, s.filename ?? '', s.language, s.status, s.mode, s.keepMedia ? 1 : 0, s.diarization ? 1 : 0, s.punctuation ? 1 : 0, s.mediaType ?? '', now, now);
  recordCreated(ctx.db, 'session', Number(info.lastInsertRowid), s.status, s.status === 'uploaded' ? 'created from media_source' : 'created');
  return sessionByPk(ctx.db, Number(info.lastInsertRowid));
}

/** Stores new media for a session (replacing old), fills media_type and queues the session's job. */
export function attachMedia(ctx: ServiceContext, session: SessionRow, m: { path: string; filename: string; mediaType: string; transcriptText?: string | null; kind?: 'decode' | 'align' | 'upload' }): void {
  ctx.db.transaction(() => {
    touchSession(ctx.db, session.id, {
      filename: m.filename,
      media_type: m.mediaType,
      media_path: m.path,
      kept_path: null,
      waveform_path: null,
      date_upload: new Date().toISOString(),
      ...(m.transcriptText !== undefined ? { transcript_text: m.transcriptText } : {}),
      ...(m.kind ? { session_mode: m.kind } : {}),
    });
    const fresh = sessionByPk(ctx.db, session.id);
    const kind = (m.kind ?? fresh.session_mode ?? 'decode') as 'decode' | 'align' | 'upload';
    enqueueJob(ctx.db, ctx.secret, { sessionPk: session.id, kind, params: { language: fresh.language, diarization: fresh.diarization === 1 }, reason: 'media uploaded' });
  }).immediate();
}

function assertNotBusy(ctx: ServiceContext, session: SessionRow): void {
  const open = ctx.db.prepare("SELECT job_id FROM jobs WHERE session_pk = ? AND status IN ('pending', 'processing')").get(session.id);
  if (open) throw documentError(409, 'conflict', 'the session is being processed; wait until its job ends');
}

/** Saves an uploaded file into the session's media folder after sniffing it; returns the stored path and type. */
async function storeMedia(ctx: ServiceContext, session: SessionRow, tmp: string, allowDocument: boolean): Promise<{ path: string; mediaType: string }> {
  const dir = sessionMediaDir(ctx.config.dataDir, session.session_id);
  const sniffed = await sniffFile(tmp);
  if (!sniffed) {
    if (allowDocument) {
      const path = join(dir, 'source.txt');
      await rename(tmp, path);
      return { path, mediaType: 'text/plain' };
    }
    await rm(tmp, { force: true });
    throw invalidFileFormat();
  }
  const path = join(dir, `source.${sniffed.ext}`);
  await rename(tmp, path);
  return { path, mediaType: sniffed.mime };
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
  return String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

export function registerSessionRoutes(app: FastifyInstance, ctx: ServiceContext, runner: () => JobRunner | null): void {
  handle(app, ctx, 'sessions.create', async ({ body, principal }) => {
    const p = user(principal);
    if (body.webhook_url) {
      try {
        await checkUrl(body.webhook_url, webhookPolicy(ctx.config.allowPrivateWebhooks, true));
      } catch (e) {
        if (e instanceof BlockedAddressError) throw validationError(`webhook_url refused: ${e.message}`);
        throw e;
      }
    }
    const mode = body.session_mode ?? 'decode';
    let session = createSessionRow(ctx, p, {
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
    if (body.media_source) {
      const dir = sessionMediaDir(ctx.config.dataDir, session.session_id);
      const tmp = join(dir, 'download.tmp');
      try {
        const res = await guardedFetch(body.media_source, {
          timeoutMs: MEDIA_SOURCE_TIMEOUT_MS,
          maxBytes: MEDIA_SOURCE_MAX_BYTES,
          policy: MEDIA_SOURCE_POLICY,
          sink: createWriteStream(tmp, { mode: 0o600 }),
        });
        if (res.status >= 300) throw new Error(`the media server answered ${res.status}`);
      } catch (e) {
        await rm(tmp, { force: true });
        ctx.db.prepare('DELETE FROM sessions WHERE id = ?').run(session.id);
        throw validationError(`media_source refused: ${(e as Error).message}`);
      }
      const stored = await storeMedia(ctx, session, tmp, mode === 'upload').catch((e) => {
        ctx.db.prepare('DELETE FROM sessions WHERE id = ?').run(session.id);
        throw e;
      });
      const name = sanitizeFilename(new URL(body.media_source).pathname.split('/').pop(), 'media');
      touchSession(ctx.db, session.id, { filename: name, media_type: stored.mediaType, media_path: stored.path, date_upload: new Date().toISOString() });
      session = sessionByPk(ctx.db, session.id);
      const answer = toSession(ctx, session);
      ctx.db.transaction(() =>
        enqueueJob(ctx.db, ctx.secret, { sessionPk: session.id, kind: mode, params: { language: session.language, diarization: session.diarization === 1 }, reason: 'media_source downloaded' }),
      ).immediate();
      return { count: 1, total_results: 1, result: { duration: answer.duration, error: answer.error, filename: answer.filename, media_type: answer.media_type, media_url: answer.media_url, session_id: answer.session_id, status: 'uploaded' } };
    }
    const s = toSession(ctx, sessionByPk(ctx.db, session.id));
    return { count: 1, total_results: 1, result: { duration: s.duration, error: s.error, filename: s.filename, media_type: s.media_type, media_url: s.media_url, session_id: s.session_id, status: s.status ?? 'queued' } };
  });

  handle(app, ctx, 'sessions.get', async ({ params, principal }) => {
    const s = requireSession(ctx.db, params.sessionId, user(principal).orgId);
    return { count: 1, total_results: 1, result: toSession(ctx, s) };
  });

  handle(app, ctx, 'sessions.shared', async ({ params, query }) => {
    resolveShare(ctx.db, query.token, params.sessionId);
    const s = findSession(ctx.db, params.sessionId)!;
    return { count: 1, total_results: 1, result: toSession(ctx, s) };
  });

  handle(app, ctx, 'sessions.upload', async ({ params, principal, req }) => {
    const session = requireSession(ctx.db, params.sessionId, user(principal).orgId);
    const type = mediaTypeHeader(req);
    const documentMode = session.session_mode === 'upload';
    if (!/^(audio|video)\/[\w.+-]+$/.test(type) && !(documentMode && /^(text\/[\w.+-]+|application\/json)$/.test(type))) {
      throw invalidFileFormat(`Content-Type must be audio/* or video/* (got "${type || 'none'}")`);
    }
    assertNotBusy(ctx, session);
    const filename = sanitizeFilename(req.headers['x-filename'] as string | undefined, 'media');
    const tmp = join(sessionMediaDir(ctx.config.dataDir, session.session_id), `upload-${Date.now()}.tmp`);
    await receiveToFile(req.raw, tmp);
    const stored = await storeMedia(ctx, session, tmp, documentMode);
    attachMedia(ctx, session, { ...stored, filename });
    return { count: 1, total_results: 1, result: toSession(ctx, sessionByPk(ctx.db, session.id)) };
  });

  handle(app, ctx, 'sessions.align', async ({ params, principal, req }) => {
    const session = requireSession(ctx.db, params.sessionId, user(principal).orgId);
    if (!req.isMultipart()) throw plainError(415, 'Content-Type must be multipart/form-data with parts media and transcript');
    assertNotBusy(ctx, session);
    const dir = sessionMediaDir(ctx.config.dataDir, session.session_id);
    let tmp: string | null = null;
    let filename = 'media';
    let transcript: string | null = null;
    try {
      for await (const part of req.parts({ limits: { fileSize: 4 * 1024 ** 3, fieldSize: 5_000_000 } })) {
        if (part.type === 'file' && part.fieldname === 'media') {
          tmp = join(dir, `align-${Date.now()}.tmp`);
          filename = sanitizeFilename(part.filename, 'media');
          await receiveToFile(part.file, tmp);
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
    const session = requireSession(ctx.db, params.sessionId, user(principal).orgId);
    return legacyResult(ctx, session);
  });

  handle(app, ctx, 'sessions.delete', async ({ params, principal }) => {
    const session = requireSession(ctx.db, params.sessionId, user(principal).orgId);
    const open = ctx.db.prepare("SELECT job_id, status FROM jobs WHERE session_pk = ? AND status IN ('pending', 'processing')").all(session.id) as { job_id: string; status: string }[];
    ctx.db.transaction(() => {
      for (const j of open) {
        transition(ctx.db, 'job', j.job_id, 'cancelled', 'session erased by the legacy DELETE');
        transition(ctx.db, 'session', session.id, 'failed', 'the job was cancelled', { error: 'The session was erased.' });
      }
      ctx.db.prepare('DELETE FROM documents WHERE session_pk = ?').run(session.id);
      touchSession(ctx.db, session.id, { filename: '', transcript_text: null, media_path: null, kept_path: null, waveform_path: null });
    }).immediate();
    for (const j of open) runner()?.abort(j.job_id);
    await rm(join(ctx.config.dataDir, 'media', session.session_id), { recursive: true, force: true });
    return { count: 1, total_results: 1, result: toSession(ctx, sessionByPk(ctx.db, session.id)) };
  });

  handle(app, ctx, 'sessions.media', async ({ params, query, req, reply }) => {
    if (!verifySigned(ctx.secret, 'media', params.sessionId, query.exp, query.sig)) throw plainError(403, 'the media link is invalid or expired');
    const s = findSession(ctx.db, params.sessionId);
    if (!s?.kept_path) throw documentError(404, 'not_found', 'this session keeps no media');
    await serveFileWithRanges(req, reply, s.kept_path, 'audio/mpeg');
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
