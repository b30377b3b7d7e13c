/**
 * How the renderer reaches main: window.s2t from the Electron preload, or, in browser mode, the
 * same contract over the web bridge's WebSocket. Nothing else in the renderer talks to main.
 */
import {
  ADMIT_PATH,
  ADMIT_REFUSED,
  ADMIT_TICKET_HEADER,
  AdmitAnswer,
  BRIDGE_PATH,
  STAGE_PATH,
  STAGE_TOKEN_HEADER,
  StageAnswer,
  TOKEN_PROTOCOL_PREFIX,
  type ArgsOf,
  type BinaryRequestHeader,
  type BridgeFrame,
  type ChannelName,
  type EventName,
  type EventPayload,
  type ImportSource,
  type IpcReply,
  type ResultOf,
  type S2tBridge,
} from '../../../common/ipc';

declare global {
  interface Window {
    s2t?: S2tBridge;
  }
}

export class BridgeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const SESSION_KEY = 's2t.bridge.session';

type Admitted = { session: string } | { refused: string };

/**
 * This tab's session: the printed address's one-time ticket (in the fragment, never sent to a
 * server) is spent once at the admit route; the session it buys is kept for reloads of this tab
 * only. A spent ticket on a tab that already has a session (the same address opened again) keeps it.
 */
async function admitted(): Promise<Admitted> {
  const m = /token=([\w-]+)/.exec(location.hash);
  if (m) history.replaceState(null, '', location.pathname + location.search);
  const kept = sessionStorage.getItem(SESSION_KEY);
  if (!m) return kept ? { session: kept } : { refused: 'This page needs an address printed by S2T Desktop (it carries a one-time token).' };
  try {
    const res = await fetch(ADMIT_PATH, { method: 'POST', headers: { [ADMIT_TICKET_HEADER]: m[1] } });
    const body: unknown = await res.json().catch(() => null);
    const ok = AdmitAnswer.safeParse(body);
    if (res.ok && ok.success) {
      sessionStorage.setItem(SESSION_KEY, ok.data.session);
      return ok.data;
    }
  } catch {
    // S2T Desktop is not answering: a kept session may still do once it is back.
  }
  return kept ? { session: kept } : { refused: ADMIT_REFUSED };
}

function webBridge(): S2tBridge {
  const admission = admitted();
  const pending = new Map<number, (reply: IpcReply<ChannelName>) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let ready: Promise<WebSocket> | null = null;
  let retryMs = 250;

  const connect = (session: string): Promise<WebSocket> => {
    if (ready) return ready;
    ready = new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${location.host}${BRIDGE_PATH}`, [TOKEN_PROTOCOL_PREFIX + session]);
      ws.onopen = () => {
        socket = ws;
        retryMs = 250;
        resolve(ws);
      };
      ws.onmessage = (ev) => {
        const frame = JSON.parse(String(ev.data)) as BridgeFrame;
        if ('id' in frame) {
          pending.get(frame.id)?.(frame.reply as IpcReply<ChannelName>);
          pending.delete(frame.id);
        } else {
          listeners.get(frame.event)?.forEach((l) => l(frame.payload));
        }
      };
      ws.onclose = () => {
        socket = null;
        ready = null;
        for (const settle of pending.values()) settle({ ok: false, error: { code: 'DISCONNECTED', message: 'lost the connection to S2T Desktop' } });
        pending.clear();
        reject(new BridgeError('DISCONNECTED', 'cannot reach S2T Desktop'));
        // Reconnect quietly so events resume when the app is back.
        setTimeout(() => void connect(session).catch(() => {}), (retryMs = Math.min(retryMs * 2, 5000)));
      };
    });
    return ready;
  };
  void admission.then((a) => ('session' in a ? connect(a.session) : null)).catch(() => {});

  return {
    async invoke(channel, args) {
      const a = await admission;
      // Without a session nothing can be reached: every call answers why, and no event ever comes.
      if (!('session' in a)) return { ok: false, error: { code: 'NO_TOKEN', message: a.refused } };
      const ws = socket ?? (await connect(a.session));
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve as (r: IpcReply<ChannelName>) => void);
        ws.send(requestFrame(id, channel, args));
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (payload: unknown) => void);
    },
    stageFile: async (file, onProgress) => {
      const a = await admission;
      if (!('session' in a)) throw new BridgeError('NO_TOKEN', a.refused);
      return stageOverHttp(a.session, file, onProgress);
    },
  };
}

/** A request as JSON, or, when one argument is bytes (live audio), as a binary frame (common/ipc/transport.ts). */
export function requestFrame(id: number, channel: string, args: unknown): string | Uint8Array {
  const entries = args && typeof args === 'object' ? Object.entries(args) : [];
  const bytes = entries.find(([, v]) => v instanceof Uint8Array);
  if (!bytes) return JSON.stringify({ id, channel, args });
  const [bytesField, value] = bytes as [string, Uint8Array];
  const header = new TextEncoder().encode(JSON.stringify({ id, channel, args: Object.fromEntries(entries.filter(([k]) => k !== bytesField)), bytesField } satisfies BinaryRequestHeader));
  const frame = new Uint8Array(4 + header.length + value.byteLength);
  new DataView(frame.buffer).setUint32(0, header.length, true);
  frame.set(header, 4);
  frame.set(value, 4 + header.length);
  return frame;
}

/**
 * Streams a File to main's stage route (browser mode). XMLHttpRequest, not fetch: it reads the
 * File from disk as it sends and reports upload progress, which fetch cannot.
 */
function stageOverHttp(session: string, file: File, onProgress?: (sent: number, total: number) => void): Promise<ImportSource> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${STAGE_PATH}?${new URLSearchParams({ name: file.name, size: String(file.size) })}`);
    xhr.setRequestHeader(STAGE_TOKEN_HEADER, session);
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, file.size);
    xhr.onerror = () => reject(new BridgeError('DISCONNECTED', `cannot reach S2T Desktop to send ${file.name}`));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // answered below
      }
      const ok = StageAnswer.safeParse(body);
      if (xhr.status === 201 && ok.success) resolve({ kind: 'staged', stagedId: ok.data.stagedId, name: file.name });
      else reject(new BridgeError('STAGE_FAILED', `${file.name} could not be sent to S2T Desktop (${(body as { error?: string } | null)?.error ?? xhr.status})`));
    };
    xhr.send(file);
  });
}

let bridge: S2tBridge | null = null;
export function getBridge(): S2tBridge {
  return (bridge ??= window.s2t ?? webBridge());
}

/** Calls a channel and returns its value, or throws a BridgeError with the message to show. */
export async function call<C extends ChannelName>(channel: C, args: ArgsOf<C>): Promise<ResultOf<C>> {
  const reply = await getBridge().invoke(channel, args);
  if (!reply.ok) throw new BridgeError(reply.error.code, reply.error.message);
  return reply.value;
}

export function subscribe<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
  return getBridge().on(event, listener);
}
