/**
 * The built app (browser mode, its embedded service) and a client of its web bridge speaking the
 * IPC contract as the renderer does: requests by id, replies matched, events recorded. For
 * beforeAll/afterAll in tests that drive the whole app over the real bridge.
 */
import WebSocket from 'ws';
import type { ChannelName } from '../../../common/ipc';
import { startApp, type RunningApp } from '../../helpers/app';

type Reply = { ok: boolean; value?: unknown; error?: { code: string; message: string } };

export interface AppBridge {
  app: RunningApp;
  /** This client's bridge session (the stage route takes it in a header too). */
  token: string;
  /** Every event the bridge sent, in order. */
  events: { event: string; payload: unknown }[];
  /** A channel called over the bridge; a refusal rejects with its code. */
  call<T>(channel: ChannelName, args: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startAppBridge(opts: Parameters<typeof startApp>[0] = {}): Promise<AppBridge> {
  const app = await startApp(opts);
  const { port } = new URL(app.url);
  const token = await app.newSession();
  const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, [`s2t.${token}`], { headers: { origin: `http://127.0.0.1:${port}` } });
  const events: AppBridge['events'] = [];
  const pending = new Map<number, (reply: Reply) => void>();
  let nextId = 1;
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data));
    if ('id' in frame) pending.get(frame.id)?.(frame.reply);
    else events.push(frame);
  });
  try {
    await new Promise((r, j) => ws.once('open', r).once('error', j));
  } catch (err) {
    await app.stop();
    throw err;
  }
  return {
    app,
    token,
    events,
    call: <T>(channel: ChannelName, args: unknown) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, (r) => (r.ok ? resolve(r.value as T) : reject(Object.assign(new Error(r.error!.message), { code: r.error!.code }))));
        ws.send(JSON.stringify({ id, channel, args }));
      }),
    async close() {
      ws.close();
      await app.stop();
    },
  };
}
