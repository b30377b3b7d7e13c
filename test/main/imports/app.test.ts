/**
 * Imports inside the built app (browser mode, its embedded service), through the real web bridge:
 * the backend serves imports.* beside watch.*, a file staged over the app's own /stage route with
 * its token is imported to done, imports.progress events arrive, and the session reaches the
 * app's session list (the sync after done).
 */
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { STAGE_PATH, STAGE_TOKEN_HEADER, type ChannelName, type ImportItem } from '../../../common/ipc';
import { LOCAL_DEMO, startApp, type RunningApp } from '../../helpers/app';
import { speechWav } from '../../helpers/speech';
import { until } from '../watch/helpers';

let app: RunningApp;
let ws: WebSocket;
let token: string;
const events: { event: string; payload: unknown }[] = [];
const pending = new Map<number, (reply: { ok: boolean; value?: unknown; error?: { code: string; message: string } }) => void>();
let nextId = 1;

function call<T>(channel: ChannelName, args: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, (r) => (r.ok ? resolve(r.value as T) : reject(Object.assign(new Error(r.error!.message), { code: r.error!.code }))));
    ws.send(JSON.stringify({ id, channel, args }));
  });
}

beforeAll(async () => {
  app = await startApp();
  const { port, hash } = new URL(app.url);
  token = /token=([\w-]+)/.exec(hash)![1];
  ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, [`s2t.${token}`], { headers: { origin: `http://127.0.0.1:${port}` } });
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data));
    if ('id' in frame) pending.get(frame.id)?.(frame.reply);
    else events.push(frame);
  });
  await new Promise((r, j) => ws.once('open', r).once('error', j));
}, 90_000);

afterAll(async () => {
  ws?.close();
  await app?.stop();
});

it('imports a file staged over the app\'s own route to a session in the session list', async () => {
  await expect(call('imports.list', {})).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
  await call('auth.login', { username: LOCAL_DEMO.email, password: LOCAL_DEMO.password });
  const { models } = await call<{ models: { key: string; supported: boolean }[] }>('models.list', {});
  expect(models.filter((m) => m.supported).map((m) => m.key)).toContain('en-US');

  const media = await speechWav('we will review the budget on monday morning');
  const stage = (withToken: boolean) =>
    fetch(`${new URL(app.url).origin}${STAGE_PATH}?name=budget.wav&size=${statSync(media).size}`, {
      method: 'POST',
      headers: withToken ? { [STAGE_TOKEN_HEADER]: token } : {},
      body: Readable.toWeb(createReadStream(media)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
  expect((await stage(false)).status).toBe(401);
  const res = await stage(true);
  expect(res.status).toBe(201);
  const { stagedId } = (await res.json()) as { stagedId: string };

  const { items } = await call<{ items: ImportItem[] }>('imports.add', { sources: [{ kind: 'staged', stagedId, name: 'budget.wav' }], options: { language: 'en-US' } });
  const progress = () => events.filter((e) => e.event === 'imports.progress').map((e) => e.payload as ImportItem).filter((p) => p.itemId === items[0].itemId);
  const done = await until('imports.progress done', () => progress().find((p) => p.state === 'done'), 120_000);
  expect(progress().map((p) => p.state)).toEqual(expect.arrayContaining(['uploading', 'transcribing', 'done']));
  await until(
    'the session in the app\'s list',
    async () => (await call<{ items: { session_id: string }[] }>('sessions.list', {})).items.some((s) => s.session_id === done.sessionId),
    60_000,
    500,
  );
}, 240_000);
