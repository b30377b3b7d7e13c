/** Making sessions and giving them media: shared by the legacy routes, media_source and batch transcribe. */
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { UserPrincipal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { enqueueJob } from '../jobs/queue';
import { recordCreated } from '../jobs/states';
import { sessionMediaDir } from '../media/paths';
import { invalidFileFormat, sniffFile } from '../media/sniff';
import type { SessionRow } from './present';
import { newSessionId, sessionByPk, touchSession } from './repo';

export type SessionMode = 'decode' | 'align' | 'upload';

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
export function attachMedia(ctx: ServiceContext, session: SessionRow, m: { path: string; filename: string; mediaType: string; transcriptText?: string | null; kind?: SessionMode }): void {
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
    const kind = (m.kind ?? fresh.session_mode ?? 'decode') as SessionMode;
    enqueueJob(ctx.db, ctx.secret, { sessionPk: session.id, kind, params: { language: fresh.language, diarization: fresh.diarization === 1 }, reason: 'media uploaded' });
  }).immediate();
}

/** Saves an uploaded file into the session's media folder after sniffing it; returns the stored path and type. */
export async function storeMedia(ctx: ServiceContext, session: SessionRow, tmp: string, allowDocument: boolean): Promise<{ path: string; mediaType: string }> {
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
