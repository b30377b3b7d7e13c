/**
 * main's side of the realtime protocol (common/api/realtime.ts): one WebSocket to the service with
 * the realtime key in x-svc-s2t-key, start → listening, audio out, partials and finals in, stop →
 * stopped. Every message from the service is checked before it is used.
 */
import WebSocket from 'ws';
import { REALTIME_KEY_HEADER, RealtimeServerMessage, type RealtimeResult } from '../../common/api/realtime';

export class RealtimeRefused extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export interface RealtimeHandlers {
  partial(text: string): void;
  result(r: RealtimeResult): void;
  /** The socket ended without our stop (a drop, the service stopping, an error from it). */
  lost(reason: string): void;
}

export interface RealtimeSocket {
  sessionId: string;
  /** On a resumed stream: the audio the service already has (ms); 0 on a new one. */
  audioMs: number;
  send(pcm: Uint8Array): void;
  /** Tells the service the client is still there while no audio flows (paused). */
  ping(): void;
  /** Bytes handed to the socket and not yet written out. */
  buffered(): number;
  stop(timeoutMs: number): Promise<void>;
  close(): void;
}

const CONNECT_TIMEOUT_MS = 10_000;
/** A resumed stream may wait while the service finishes the audio the dropped socket brought. */
const LISTENING_TIMEOUT_MS = 90_000;

export function connectRealtime(url: string, key: string, h: RealtimeHandlers): Promise<RealtimeSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { [REALTIME_KEY_HEADER]: key }, handshakeTimeout: CONNECT_TIMEOUT_MS, perMessageDeflate: false });
    let listening = false;
    let stoppedSeen = false;
    let stopping: { resolve: () => void; reject: (e: Error) => void } | null = null;
    const fail = (e: Error) => {
      if (listening) return;
      listening = true; // settle once
      ws.terminate();
      reject(e);
    };
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString().slice(0, 2000)));
      res.on('end', () => {
        let message = `the service refused the live stream (HTTP ${res.statusCode})`;
        try {
          const parsed = JSON.parse(body) as { error?: unknown };
          if (typeof parsed.error === 'string') message = parsed.error;
        } catch {
          // not JSON: the status says enough
        }
        fail(new RealtimeRefused(res.statusCode ?? 0, message));
      });
    });
    ws.on('error', (e) => fail(e));
    ws.on('open', () => ws.send(JSON.stringify({ action: 'start' })));
    const timer = setTimeout(() => fail(new Error('the service did not start listening in time')), LISTENING_TIMEOUT_MS);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let msg: RealtimeServerMessage;
      try {
        msg = RealtimeServerMessage.parse(JSON.parse(Buffer.from(data as Buffer).toString('utf8')));
      } catch {
        return; // a message we cannot read is dropped, not trusted
      }
      if ('state' in msg && msg.state === 'listening' && !listening) {
        listening = true;
        clearTimeout(timer);
        resolve({
          sessionId: msg.session_id,
          audioMs: msg.audio_ms ?? 0,
          send: (pcm) => ws.readyState === WebSocket.OPEN && ws.send(pcm),
          ping: () => ws.readyState === WebSocket.OPEN && ws.ping(),
          buffered: () => ws.bufferedAmount,
          stop: (timeoutMs) =>
            new Promise<void>((res, rej) => {
              const t = setTimeout(() => rej(new Error('the service did not finish the stream in time')), timeoutMs);
              stopping = {
                resolve: () => {
                  clearTimeout(t);
                  res();
                },
                reject: (e) => {
                  clearTimeout(t);
                  rej(e);
                },
              };
              ws.send(JSON.stringify({ action: 'stop' }));
            }),
          close: () => ws.close(),
        });
      } else if ('state' in msg && msg.state === 'stopped') {
        stoppedSeen = true;
        stopping?.resolve();
        ws.close();
      } else if ('partial' in msg) h.partial(msg.partial);
      else if ('result' in msg) h.result(msg);
      else if ('error' in msg && !listening) fail(new RealtimeRefused(0, msg.error));
      else if ('error' in msg) h.lost(msg.error);
    });
    ws.on('close', (_code, reason) => {
      clearTimeout(timer);
      if (!listening) return fail(new Error(`the connection closed before listening (${reason.toString() || 'no reason given'})`));
      const why = reason.toString() || 'the connection to the service was lost';
      // Lost while waiting for stopped: the stop fails and the client reconnects, resumes and stops again.
      if (stopping && !stoppedSeen) stopping.reject(new Error(why));
      if (!stoppedSeen) h.lost(why);
    });
  });
}
