/**
 * A live stream becomes a session like any other: its recording is the session's media and its
 * finals the transcript, handed to the job runner, which prepares the media as for an upload
 * (duration, waveform, kept copy), stores the documents and fires the webhooks. Finals are
 * appended to a file as they are made, so a stream resumed after a drop (or a restart of the
 * service) goes on with them.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
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

const RECORDING_FILE = 'live.wav';
const FINALS_FILE = 'live-finals.jsonl';
const TRANSCRIPT_FILE = 'live-transcript.json';
/** Sessions made by streams are named so (and found so after a restart). */
const NAME_PREFIX = 'Live ';

const StoredPhrase = z.object({ words: z.array(z.object({ text: z.string().max(200), startMs: z.number(), endMs: z.number(), confidence: z.number().min(0).max(1) })).max(5000) });

export interface LiveFiles {
  recording: string;
  finals: string;
}

export function liveFiles(ctx: ServiceContext, sessionId: string): LiveFiles {
  const dir = sessionMediaDir(ctx.config.dataDir, sessionId);
  return { recording: join(dir, RECORDING_FILE), finals: join(dir, FINALS_FILE) };
}

export function startLiveSession(ctx: ServiceContext, p: UserPrincipal, language: string): SessionRow {
  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
  return createSessionRow(ctx, p, { language, status: 'uploaded', mode: 'decode', keepMedia: true, diarization: false, filename: `${NAME_PREFIX}${stamp}.wav`, mediaType: 'audio/wav' });
}

/** A session a live stream is (or was, until the service stopped) recording into: not an interrupted download. */
export function isLiveRecording(ctx: ServiceContext, s: Pick<SessionRow, 'session_id' | 'filename' | 'media_path'>): boolean {
  return !s.media_path && s.filename.startsWith(NAME_PREFIX) && existsSync(join(ctx.config.dataDir, 'media', s.session_id, RECORDING_FILE));
}

/** A stream's session that may be resumed: the caller's organization's, made by a stream, not finished. */
export function resumableSession(ctx: ServiceContext, sessionId: string, orgId: number): SessionRow | undefined {
  const s = findSession(ctx.db, sessionId);
  if (!s || s.org_id !== orgId || s.status !== 'uploaded' || s.media_path || !s.filename.startsWith(NAME_PREFIX)) return undefined;
  return existsSync(liveFiles(ctx, sessionId).recording) ? s : undefined;
}

export function appendFinal(files: LiveFiles, phrase: FinalPhrase): void {
  appendFileSync(files.finals, JSON.stringify(phrase) + '\n', { mode: 0o600 });
}

export function readFinals(files: LiveFiles): FinalPhrase[] {
  if (!existsSync(files.finals)) return [];
  const out: FinalPhrase[] = [];
  for (const line of readFileSync(files.finals, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(StoredPhrase.parse(JSON.parse(line)));
    } catch {
      // A line cut short by a stop mid-write: the phrases before it stand.
    }
  }
  return out;
}

/**
 * Queues the stream's session for its documents. `finalsComplete`: every received sample went
 * through the recogniser (a stop, a drop, a limit); otherwise (the service stopped mid-stream and
 * no one resumed it) the recording is decoded again as an upload is. With no audio it fails.
 */
export function finishLiveSession(ctx: ServiceContext, sessionId: string, finalsComplete: boolean): void {
  const session = findSession(ctx.db, sessionId);
  if (!session || session.status !== 'uploaded' || session.media_path) return;
  const files = liveFiles(ctx, sessionId);
  const audioBytes = sealRecording(files.recording);
  if (audioBytes === 0) {
    transition(ctx.db, 'session', session.id, 'failed', 'the live stream carried no audio', { error: 'The live stream ended before any audio arrived.' });
    return;
  }
  let liveTranscriptPath: string | undefined;
  if (finalsComplete) {
    liveTranscriptPath = join(sessionMediaDir(ctx.config.dataDir, sessionId), TRANSCRIPT_FILE);
    writeFileSync(liveTranscriptPath, JSON.stringify(transcriptFromFinals(readFinals(files))), { mode: 0o600 });
  }
  ctx.db.transaction(() => {
    touchSession(ctx.db, session.id, { media_path: files.recording, media_type: 'audio/wav', date_upload: new Date().toISOString() });
    enqueueJob(ctx.db, ctx.secret, { sessionPk: session.id, kind: 'decode', params: { language: session.language, diarization: false, ...(liveTranscriptPath ? { liveTranscriptPath } : {}) }, reason: 'live stream ended' });
  }).immediate();
}

/** Streams the service was stopped in the middle of (their clients may still resume them). */
export function interruptedStreams(ctx: ServiceContext): string[] {
  const rows = ctx.db.prepare(`SELECT session_id FROM sessions WHERE status = 'uploaded' AND media_path IS NULL AND filename LIKE '${NAME_PREFIX}%'`).all() as { session_id: string }[];
  return rows.map((r) => r.session_id);
}
