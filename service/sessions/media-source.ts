/**
 * Legacy create with media_source: the session is made `uploaded`, the media is downloaded through
 * the SSRF guard while the client waits, and its job is queued. A service killed mid-download
 * leaves a session in `uploaded`; recoverInterruptedDownloads settles those at the next start.
 */
import { createWriteStream, existsSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { validationError } from '../http/errors';
import { enqueueJob } from '../jobs/queue';
import { transition } from '../jobs/states';
import { sanitizeFilename, sessionMediaDir } from '../media/paths';
import type { StorageRoom } from '../media/receive';
import { guardedFetch, mediaSourcePolicy, ResponseTooLargeError } from '../net/ssrf';
import { storageRoom } from '../quotas/storage';
import { isLiveRecording } from '../realtime/finish';
import { storeMedia } from './create';
import type { SessionRow } from './present';
import { sessionByPk, touchSession } from './repo';

/** Caps on a media_source download. */
export const MEDIA_SOURCE_MAX_BYTES = 2 * 1024 ** 3;
export const MEDIA_SOURCE_TIMEOUT_MS = 10 * 60_000;

const DOWNLOAD_FILE = 'download.tmp';

function forget(ctx: ServiceContext, session: SessionRow): void {
  // The client gets an error and no session id, so no half-made session stays visible.
  ctx.db.prepare('DELETE FROM sessions WHERE id = ?').run(session.id);
}

/**
 * Downloads media_source into the session and queues its job; on any refusal the session and
 * what was written are removed. The download is capped at the organization's storage room, and
 * refused past it as an upload would be (413); any other refusal is 422.
 */
export async function downloadMediaSource(ctx: ServiceContext, session: SessionRow, source: string, speechEngine?: string): Promise<SessionRow> {
  const dir = sessionMediaDir(ctx.config.dataDir, session.session_id);
  const sink = createWriteStream(join(dir, DOWNLOAD_FILE), { mode: 0o600 });
  // The file's errors are heard here: a write still under way when a refused download destroys the
  // file ends in one ("write after destroyed"), which, unheard, would end the service; any other
  // (the disk full) refuses the download.
  let sinkError: Error | null = null;
  sink.on('error', (e) => (sinkError ??= e));
  let quota: StorageRoom | null = null;
  try {
    quota = await storageRoom(ctx, session.org_id);
    const maxBytes = Math.min(MEDIA_SOURCE_MAX_BYTES, quota.room);
    const res = await guardedFetch(source, { timeoutMs: MEDIA_SOURCE_TIMEOUT_MS, maxBytes, policy: mediaSourcePolicy(ctx.tuning?.outbound), sink });
    if (sinkError) throw new Error(`the download could not be stored (${(sinkError as Error).message})`);
    if (res.status >= 300) throw new Error(`the media server answered ${res.status}`);
  } catch (e) {
    sink.destroy();
    await rm(dir, { recursive: true, force: true });
    forget(ctx, session);
    if (!quota) throw e; // no room at all: storageRoom's own 413
    if (e instanceof ResponseTooLargeError && e.limit < MEDIA_SOURCE_MAX_BYTES) throw quota.full();
    throw validationError(`media_source refused: ${(e as Error).message}`);
  }
  const tmp = join(dir, DOWNLOAD_FILE);
  const stored = await storeMedia(ctx, session, tmp, session.session_mode === 'upload').catch((e: unknown) => {
    forget(ctx, session);
    throw e;
  });
  const filename = sanitizeFilename(new URL(source).pathname.split('/').pop(), 'media');
  touchSession(ctx.db, session.id, { filename, media_type: stored.mediaType, media_path: stored.path, date_upload: new Date().toISOString() });
  // The answer says `uploaded` (the spec's word for this moment), even though the job is queued next.
  const answered = sessionByPk(ctx.db, session.id);
  queueDownloaded(ctx, answered, 'media_source downloaded', speechEngine);
  return answered;
}

/** `speechEngine`: the one the request named; a download recovered after a restart gets the service's choice. */
function queueDownloaded(ctx: ServiceContext, session: SessionRow, reason: string, speechEngine?: string): void {
  ctx.db
    .transaction(() =>
      enqueueJob(ctx.db, ctx.secret, {
        sessionPk: session.id,
        kind: (session.session_mode ?? 'decode') as 'decode' | 'align' | 'upload',
        params: { language: session.language, diarization: session.diarization === 1, ...(speechEngine ? { speechEngine } : {}) },
        reason,
      }),
    )
    .immediate();
}

export const INTERRUPTED_DOWNLOAD_ERROR = 'The media_source download was interrupted because the service stopped; create the session again.';

/**
 * At start-up, before any request (so synchronous): a session still `uploaded` was cut off by a
 * crash. If its media was stored it is queued (the download finished, only the queueing was lost);
 * otherwise it fails with a sentence saying so, and the partial download is removed. Returns how
 * many were settled.
 */
export function recoverInterruptedDownloads(ctx: ServiceContext): number {
  const stuck = ctx.db.prepare("SELECT * FROM sessions WHERE status = 'uploaded'").all() as SessionRow[];
  for (const s of stuck) {
    if (isLiveRecording(ctx, s)) continue; // a live stream's, waiting to be resumed (service/realtime)
    if (s.media_path && existsSync(s.media_path)) {
      queueDownloaded(ctx, s, 'the service restarted after the media_source download (recovery)');
      continue;
    }
    ctx.db.transaction(() => transition(ctx.db, 'session', s.id, 'failed', 'the service stopped during the media_source download (recovery)', { error: INTERRUPTED_DOWNLOAD_ERROR })).immediate();
    rmSync(join(ctx.config.dataDir, 'media', s.session_id, DOWNLOAD_FILE), { force: true });
  }
  return stuck.length;
}
