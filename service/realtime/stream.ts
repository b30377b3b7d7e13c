/**
 * One realtime stream over a WebSocket, after its credential was accepted: start → listening,
 * audio → partials and finals, stop → the remaining finals and stopped. The recording is written
 * as it arrives and becomes a session when the stream ends, however it ends (stop, a dropped
 * socket, the idle timeout, the longest stream).
 */
import type { WebSocket } from 'ws';
import { REALTIME_CLOSE, RealtimeClientMessage, type RealtimeServerMessage } from '../../common/api/realtime';
import type { UserPrincipal } from '../auth/principal';
import type { ServiceContext } from '../context';
import type { DecoderStock, StreamDecoder } from './decoder';
import { appendFinal, liveFiles, readFinals, resumableSession, startLiveSession, type LiveFiles } from './finish';
import type { LiveSessions } from './lingering';
import type { RealtimeLimits } from './limits';
import { LiveRecognizer } from './recognizer';
import { LiveRecording, PcmFramer } from './recording';

export const SPEAKER = 'Speaker 1';

type State = 'new' | 'starting' | 'listening' | 'stopping' | 'ended';

export interface StreamOptions {
  language: string;
  /** Our app's extension: go on with this stream's session (after a drop), from the audio it already has. */
  resume?: string;
  stock: DecoderStock;
  limits: RealtimeLimits;
  sessions: LiveSessions;
}

export function runStream(ctx: ServiceContext, ws: WebSocket, p: UserPrincipal, o: StreamOptions, endOnce: () => void): void {
  const { stock, limits } = o;
  let ended = false;
  const onEnd = () => {
    if (!ended) endOnce();
    ended = true;
  };
  let state: State = 'new';
  let decoder: StreamDecoder | null = null;
  let recognizer: LiveRecognizer | null = null;
  let recording: LiveRecording | null = null;
  let sessionId = '';
  let files: LiveFiles | null = null;
  const framer = new PcmFramer();
  let idle: NodeJS.Timeout | null = null;
  let drain: NodeJS.Timeout | null = null;

  const send = (m: RealtimeServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const refuse = (error: string, code: number) => {
    send({ error });
    ws.close(code, error.slice(0, 120));
  };
  const armIdle = () => {
    if (idle) clearTimeout(idle);
    idle = null;
    // While the service holds the client's audio back (drain), the wait is the service's, not the
    // client's: a busy machine may take minutes to catch up, with the audio waiting unread.
    if (drain) return;
    idle = setTimeout(() => void end(`No audio arrived for ${Math.round(limits.idleMs / 1000)} s, so the stream was ended; its recording is kept.`, REALTIME_CLOSE.policy), limits.idleMs);
  };

  /** Ends the stream once: the last finals (sent if the socket is open), the session, the decoder back to the stock. */
  const end = async (reason: string | null, code: number = REALTIME_CLOSE.normal, how: 'finish' | 'linger' = 'finish') => {
    if (state === 'ended' || state === 'stopping') return;
    const wasListening = state === 'listening';
    state = 'stopping';
    if (idle) clearTimeout(idle);
    if (drain) clearInterval(drain);
    try {
      if (recognizer) await recognizer.flush();
    } catch (e) {
      ctx.log.warn('live stream flush failed', { error: (e as Error).message });
    }
    state = 'ended';
    if (recording) {
      recording.finish();
      // A socket lost without stop may come back (the app resumes); anything else ends the session.
      o.sessions.release(sessionId, how);
    }
    if (decoder) void stock.give(decoder);
    onEnd();
    if (reason) send({ error: reason });
    else if (wasListening) send({ state: 'stopped' });
    if (ws.readyState === ws.OPEN) ws.close(code, reason ? reason.slice(0, 120) : 'stopped');
  };

  const start = async () => {
    state = 'starting';
    try {
      decoder = await stock.take();
    } catch (e) {
      state = 'ended';
      onEnd();
      refuse((e as Error).message, REALTIME_CLOSE.serverFault);
      return;
    }
    if (ws.readyState !== ws.OPEN) {
      state = 'ended';
      void stock.give(decoder);
      onEnd();
      return;
    }
    let resumeFrom = 0;
    if (o.resume) {
      const s = resumableSession(ctx, o.resume, p.orgId);
      if (!s || !(await o.sessions.claim(s.session_id))) {
        state = 'ended';
        void stock.give(decoder);
        onEnd();
        refuse(s ? 'That stream is open on another connection.' : 'That stream cannot be resumed: it is finished, or not yours.', REALTIME_CLOSE.policy);
        return;
      }
      sessionId = s.session_id;
      if (ws.readyState !== ws.OPEN) {
        // The client gave up while the session was being let go: it stays open for the next try.
        o.sessions.release(sessionId, 'linger');
        state = 'ended';
        void stock.give(decoder);
        onEnd();
        return;
      }
      files = liveFiles(ctx, sessionId);
      recording = new LiveRecording(files.recording, true);
      // The recogniser goes on from the end of the last final: audio after it is heard again.
      resumeFrom = Math.round(((readFinals(files).at(-1)?.words.at(-1)?.endMs ?? 0) * 16_000) / 1000);
    } else {
      sessionId = startLiveSession(ctx, p, o.language).session_id;
      void o.sessions.claim(sessionId);
      files = liveFiles(ctx, sessionId);
      recording = new LiveRecording(files.recording);
    }
    const phraseFiles = files;
    recognizer = new LiveRecognizer(decoder, {
      partial: (text) => state !== 'ended' && send({ partial: text }),
      final: (phrase) => {
        appendFinal(phraseFiles, phrase);
        send({ result: phrase.words.map((w) => [w.text, w.startMs, w.endMs, w.confidence]), speaker: SPEAKER, text: phrase.words.map((w) => w.text).join(' ') });
      },
      error: (e) => ctx.log.warn('live decoding failed', { session_id: sessionId, error: e.message }),
    }, Math.min(resumeFrom, recording.bytes / 2));
    if (recording.bytes / 2 > resumeFrom) recognizer.push(recording.samplesFrom(resumeFrom));
    state = 'listening';
    // audio_ms (our extension): how much audio the session has, so a resuming client sends the rest.
    send({ state: 'listening', session_id: sessionId, ...(o.resume ? { audio_ms: Math.floor(recording.bytes / 32) } : {}) });
    armIdle();
  };

  const audio = (data: Buffer) => {
    if (!recognizer || !recording) return;
    let pcm: Int16Array;
    try {
      pcm = framer.push(data);
    } catch (e) {
      void end(`The audio could not be read: ${(e as Error).message}.`, REALTIME_CLOSE.badData);
      return;
    }
    armIdle();
    recording.append(pcm);
    recognizer.push(pcm);
    if (recognizer.receivedMs > limits.maxStreamMs) {
      void end(`The stream reached the longest allowed (${Math.round(limits.maxStreamMs / 60_000)} minutes); its recording is kept. Start a new stream to go on.`, REALTIME_CLOSE.policy);
      return;
    }
    const maxBacklog = (limits.maxBacklogMs * 16_000) / 1000;
    if (recognizer.backlogSamples > maxBacklog && !drain) {
      ws.pause();
      const r = recognizer;
      drain = setInterval(() => {
        if (r.backlogSamples > maxBacklog / 2 && state === 'listening') return;
        if (drain) clearInterval(drain);
        drain = null;
        ws.resume();
        if (state === 'listening') armIdle();
      }, 50);
      armIdle();
    }
  };

  ws.on('message', (data, isBinary) => {
    if (state === 'ended' || state === 'stopping') return;
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (isBinary) {
      if (state === 'listening') audio(buf);
      else if (state === 'new') refuse('Send {"action":"start"} before any audio.', REALTIME_CLOSE.policy);
      return;
    }
    let msg: RealtimeClientMessage;
    try {
      msg = RealtimeClientMessage.parse(JSON.parse(buf.toString('utf8')));
    } catch {
      send({ error: 'Text messages must be {"action":"start"} or {"action":"stop"}.' });
      return;
    }
    if (msg.action === 'start') {
      if (state === 'new') void start();
      else send({ error: 'The stream has already started.' });
    } else if (state === 'new') refuse('Send {"action":"start"} before {"action":"stop"}.', REALTIME_CLOSE.policy);
    else if (state === 'starting') void waitThenStop();
    else void end(null);
  });

  const waitThenStop = async () => {
    while (state === 'starting') await new Promise((r) => setTimeout(r, 20));
    void end(null);
  };

  // A client's ping says it is still there (our app pings while paused): the idle timeout waits.
  ws.on('ping', () => state === 'listening' && armIdle());
  ws.on('close', () => void end(null, REALTIME_CLOSE.normal, 'linger'));
  ws.on('error', () => void end(null, REALTIME_CLOSE.normal, 'linger'));
}
