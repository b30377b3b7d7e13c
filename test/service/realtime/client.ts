/**
 * A realtime client as the vendor's examples are: a WebSocket with the token in x-svc-s2t-key,
 * start, WAV audio in frames (paced or as fast as it goes), stop. Every message is kept with the
 * time it arrived and, for audio, how much audio had been sent by then.
 */
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { RealtimeServerMessage } from '../../../common/api/realtime';
import { serviceLogin, type Account } from '../../helpers/service';

export interface Received {
  at: number;
  msg: RealtimeServerMessage;
}

export async function realtimeKey(url: string, account: Account, type: 'realtime' | 'batch' = 'realtime'): Promise<string> {
  const access = await serviceLogin(url, account);
  const res = await fetch(`${url}/api/v3/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `live ${type}`, type, years_valid: 1 }),
  });
  if (!res.ok) throw new Error(`token: ${res.status}`);
  return ((await res.json()) as { token_value: string }).token_value;
}

/** The handshake's refusal: status and JSON body (or the open socket when it was accepted). */
export function refusal(url: string, headers: Record<string, string>, path = '/api/v3/realtime?language=en'): Promise<{ status: number; body: string } | 'open'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws') + path, { headers });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('error', (e) => (e.message.startsWith('Unexpected server response') ? undefined : reject(e)));
  });
}

export class RealtimeClient {
  readonly received: Received[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) throw new Error('the service sent a binary frame');
      const text = Buffer.from(data as Buffer).toString('utf8');
      this.raw.push(text);
      this.received.push({ at: Date.now(), msg: RealtimeServerMessage.parse(JSON.parse(text)) });
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }
  readonly raw: string[] = [];

  static connect(url: string, key: string | null, path = '/api/v3/realtime?language=en'): Promise<RealtimeClient> {
    const ws = new WebSocket(url.replace(/^http/, 'ws') + path, { headers: key ? { 'x-svc-s2t-key': key } : {} });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RealtimeClient(ws)));
      ws.once('error', reject);
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits until a message satisfies `test` (or the socket closes), up to `ms`. */
  async waitFor(test: (m: RealtimeServerMessage) => boolean, ms = 30_000): Promise<Received> {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = this.received.find((r) => test(r.msg));
      if (hit) return hit;
      if (this.closed) throw new Error(`closed (${this.closed.code} ${this.closed.reason}) before the message; got ${JSON.stringify(this.raw)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such message in ${ms} ms; got ${JSON.stringify(this.raw)}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  async start(): Promise<string> {
    this.ws.send(JSON.stringify({ action: 'start' }));
    const r = await this.waitFor((m) => 'state' in m && m.state === 'listening');
    return (r.msg as { session_id: string }).session_id;
  }

  /** Sends a WAV (header and all, as `ffmpeg -f wav -` would) in frames of `frameMs`, at `speed` × real time (Infinity: no pacing); answers when each frame was sent. */
  async send(wav: Buffer, opts: { frameMs?: number; speed?: number } = {}): Promise<{ sentAt: number[]; frameMs: number }> {
    const frameMs = opts.frameMs ?? 200;
    const speed = opts.speed ?? 1;
    const frameBytes = (16_000 * 2 * frameMs) / 1000;
    const sentAt: number[] = [];
    const begin = Date.now();
    this.ws.send(wav.subarray(0, 44));
    for (let at = 44, i = 0; at < wav.length; at += frameBytes, i++) {
      if (Number.isFinite(speed)) {
        const due = begin + (i * frameMs) / speed;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      if (this.ws.readyState !== WebSocket.OPEN) break;
      this.ws.send(wav.subarray(at, at + frameBytes));
      sentAt.push(Date.now());
    }
    return { sentAt, frameMs };
  }

  async stop(ms = 30_000): Promise<number> {
    const asked = Date.now();
    this.ws.send(JSON.stringify({ action: 'stop' }));
    await this.waitFor((m) => 'state' in m && m.state === 'stopped', ms);
    return asked;
  }

  finals(): { result: [string, number, number, number][]; text: string; at: number }[] {
    return this.received.flatMap((r) => ('result' in r.msg ? [{ result: r.msg.result, text: r.msg.text, at: r.at }] : []));
  }

  partials(): Received[] {
    return this.received.filter((r) => 'partial' in r.msg);
  }

  close(): void {
    this.ws.close();
  }
}

/** A 16 kHz mono 16-bit WAV of the given file (sox converts). */
export function readWav16k(path: string): Buffer {
  return readFileSync(path);
}
