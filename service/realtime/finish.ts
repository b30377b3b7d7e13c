/**
 * A live stream becomes a session like any other: its recording is the session's media and its
 * finals the transcript, handed to the job runner, which prepares the media as for an upload
 * (duration, waveform, kept copy), stores the documents and fires the webhooks.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UserPrincipal } from '../auth/principal';
import type { ServiceContext } from '../context';
import { enqueueJob } from '../jobs/queue';
import { transition } from '../jobs/states';
import { sessionMediaDir } from '../media/paths';
import { createSessionRow } from '../sessions/create';
import type { SessionRow } from '../sessions/present';
import { findSession, touchSession } from '../sessions/repo';
import type { FinalPhrase } from './recognizer';
import { sealRecording } from './recording';
import { transcriptFromFinals } from './transcript';

export const RECORDING_FILE = 'live.wav';
export const TRANSCRIPT_FILE = 'live-transcript.json';

export function startLiveSession(ctx: ServiceContext, p: UserPrincipal, language: string): { session: SessionRow; recordingPath: string } {
  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const session = createSessionRow(ctx, p, { language, status: 'uploaded', mode: 'decode', keepMedia: true, diarization: false, filename: `Live ${stamp}.wav`, mediaType: 'audio/wav' });
  return { session, recordingPath: join(sessionMediaDir(ctx.config.dataDir, session.session_id), RECORDING_FILE) };
}

/** Queues the finished stream's session; with no audio at all it fails with a reason instead. */
export function finishLiveSession(ctx: ServiceContext, sessionId: string, recordingPath: string, audioBytes: number, phrases: FinalPhrase[] | null): void {
  const session = findSession(ctx.db, sessionId);
  if (!session || session.status !== 'uploaded') return;
  if (audioBytes === 0) {
    transition(ctx.db, 'session', session.id, 'failed', 'the live stream carried no audio', { error: 'The live stream ended before any audio arrived.' });
    return;
  }
  let liveTranscriptPath: string | undefined;
  if (phrases) {
    liveTranscriptPath = join(sessionMediaDir(ctx.config.dataDir, sessionId), TRANSCRIPT_FILE);
    writeFileSync(liveTranscriptPath, JSON.stringify(transcriptFromFinals(phrases)), { mode: 0o600 });
  }
  ctx.db.transaction(() => {
    touchSession(ctx.db, session.id, { media_path: recordingPath, media_type: 'audio/wav', date_upload: new Date().toISOString() });
    // Without finals (the service stopped mid-stream) the recording is decoded as an upload is.
    enqueueJob(ctx.db, ctx.secret, { sessionPk: session.id, kind: 'decode', params: { language: session.language, diarization: false, ...(liveTranscriptPath ? { liveTranscriptPath } : {}) }, reason: 'live stream ended' });
  }).immediate();
}

/** Streams the service was stopped in the middle of: their recordings are transcribed as uploads. */
export function recoverInterruptedStreams(ctx: ServiceContext): number {
  const rows = ctx.db.prepare("SELECT session_id FROM sessions WHERE status = 'uploaded' AND media_path IS NULL AND filename LIKE 'Live %'").all() as { session_id: string }[];
  let n = 0;
  for (const r of rows) {
    const path = join(sessionMediaDir(ctx.config.dataDir, r.session_id), RECORDING_FILE);
    finishLiveSession(ctx, r.session_id, path, sealRecording(path), null);
    n++;
  }
  return n;
}
