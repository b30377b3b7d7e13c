/**
 * Watch folders inside the app, through the real web bridge: the built browser-mode app with its
 * embedded service, a WebSocket client speaking the IPC contract. watch.* needs a signed-in user;
 * a dropped file is delivered and reported as watch.progress events; an edit saved in the app and
 * an edit pulled from the service both rewrite the delivered file (refresh on edit).
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChannelName, DocumentRecord, WatchFolder, WatchItem, WatchProgress, WatchState } from '../../../common/ipc';
import type { TranscriptContent } from '../../../common/transcript/model';
import { LOCAL_DEMO } from '../../helpers/app';
import { cleanup, serviceLogin, tempDir } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { startAppBridge, type AppBridge } from '../helpers/app-bridge';
import { until } from './helpers';

let b: AppBridge;
const dirs: string[] = [];
const call = <T>(channel: ChannelName, args: unknown) => b.call<T>(channel, args);

beforeAll(async () => {
  b = await startAppBridge();
}, 90_000);

afterAll(async () => {
  await b?.close();
  dirs.forEach(cleanup);
});

/** The delivered TXT, once it says what we wait for. */
const txtSays = (path: string, re: RegExp) => until(`${path} to match ${re}`, () => re.test(readFileSync(path, 'utf8')), 30_000, 200);

it('serves watch.* through the web bridge once signed in, delivers a dropped file and reports its progress', async () => {
  await expect(call('watch.state', {})).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
  expect(await call<{ status: string }>('auth.login', { username: LOCAL_DEMO.email, password: LOCAL_DEMO.password })).toMatchObject({ status: 'signed-in' });

  const watched = tempDir('s2t-app-watched-');
  dirs.push(watched);
  const folder = await call<WatchFolder>('watch.addFolder', { path: watched, profile: { formats: [{ format: 'txt' }], refreshOnEdit: true } });
  expect(folder).toMatchObject({ path: watched, paused: false, profile: { refreshOnEdit: true } });
  expect((await call<WatchState>('watch.state', {})).folders.map((f) => f.id)).toEqual([folder.id]);

  const media = join(watched, 'bridge.wav');
  copyFileSync(await speechWav('good morning everyone and welcome to the meeting'), media);
  const progress = () => b.events.filter((e) => e.event === 'watch.progress').map((e) => e.payload as WatchProgress);
  await until('a delivered event', () => progress().find((p) => p.path === media && p.state === 'delivered'), 120_000);
  expect(progress().map((p) => p.state)).toEqual(expect.arrayContaining(['uploading', 'transcribing', 'fetching', 'delivered']));
  const { items } = await call<{ items: WatchItem[] }>('watch.items', { folderId: folder.id });
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ state: 'delivered', outputs: [join(watched, 'bridge.txt')] });
  expect(readFileSync(join(watched, 'bridge.txt'), 'utf8').toLowerCase()).toMatch(/welcome|everyone|meeting/);
}, 180_000);

it('rewrites the delivered file after an edit saved in the app, and after an edit pulled from the service', async () => {
  const [item] = (await call<{ items: WatchItem[] }>('watch.items', {})).items;
  const txt = item.outputs[0];
  // The app pulls the session into its cache, then the person edits the transcript there.
  await until('the session in the cache', async () => {
    await call('sync.now', {});
    return call<{ documents: { id: string; type: string }[] } | null>('sessions.get', { sessionId: item.sessionId });
  }, 60_000, 500);
  const detail = (await call<{ documents: { id: string; type: string }[] }>('sessions.get', { sessionId: item.sessionId }))!;
  const docId = detail.documents.find((d) => d.type === 'document')!.id;
  const doc = await call<DocumentRecord>('documents.get', { documentId: docId });
  const content = structuredClone(doc.body!.content) as TranscriptContent;
  content.segments[0].words[0].text = 'Locally';
  await call('documents.save', { documentId: docId, content });
  await txtSays(txt, /^Locally\b/);

  // Someone edits the same document on the service; the next pull brings it and the file follows.
  await until('the local edit pushed', async () => (await call<{ pending: number }>('sync.now', {})).pending === 0, 30_000, 500);
  const auth = { authorization: `Bearer ${await serviceLogin(b.app.serviceUrl, LOCAL_DEMO)}` };
  const url = `${b.app.serviceUrl}/api/v3/speech-to-text/session/${item.sessionId}/document/${docId}`;
  const server = (await (await fetch(url, { headers: auth })).json()) as { document: { content: TranscriptContent } };
  server.document.content.segments[0].words[0].text = 'Remotely';
  const put = await fetch(url, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ document: server.document }) });
  expect(put.status).toBe(200);
  await call('sync.now', {});
  await txtSays(txt, /^Remotely\b/);
}, 120_000);
