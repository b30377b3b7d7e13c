/**
 * Imports inside the built app (browser mode, its embedded service), through the real web bridge:
 * the backend serves imports.* beside watch.*, a file staged over the app's own /stage route with
 * its token is imported to done, imports.progress events arrive, and the session reaches the
 * app's session list (the sync after done).
 */
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STAGE_PATH, STAGE_TOKEN_HEADER, type ChannelName, type ImportItem } from '../../../common/ipc';
import { LOCAL_DEMO } from '../../helpers/app';
import { speechWav } from '../../helpers/speech';
import { startAppBridge, type AppBridge } from '../helpers/app-bridge';
import { until } from '../watch/helpers';

let b: AppBridge;
const call = <T>(channel: ChannelName, args: unknown) => b.call<T>(channel, args);

beforeAll(async () => {
  b = await startAppBridge();
}, 90_000);

afterAll(async () => {
  await b?.close();
});

it('imports a file staged over the app\'s own route to a session in the session list', async () => {
  await expect(call('imports.list', {})).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
  await call('auth.login', { username: LOCAL_DEMO.email, password: LOCAL_DEMO.password });
  const { models } = await call<{ models: { key: string; supported: boolean }[] }>('models.list', {});
  expect(models.filter((m) => m.supported).map((m) => m.key)).toContain('en-US');

  const media = await speechWav('we will review the budget on monday morning');
  const stage = (withToken: boolean) =>
    fetch(`${new URL(b.app.url).origin}${STAGE_PATH}?name=budget.wav&size=${statSync(media).size}`, {
      method: 'POST',
      headers: withToken ? { [STAGE_TOKEN_HEADER]: b.token } : {},
      body: Readable.toWeb(createReadStream(media)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
  expect((await stage(false)).status).toBe(401);
  const res = await stage(true);
  expect(res.status).toBe(201);
  const { stagedId } = (await res.json()) as { stagedId: string };

  const { items } = await call<{ items: ImportItem[] }>('imports.add', { sources: [{ kind: 'staged', stagedId, name: 'budget.wav' }], options: { language: 'en-US' } });
  const progress = () => b.events.filter((e) => e.event === 'imports.progress').map((e) => e.payload as ImportItem).filter((p) => p.itemId === items[0].itemId);
  const done = await until('imports.progress done', () => progress().find((p) => p.state === 'done'), 120_000);
  expect(progress().map((p) => p.state)).toEqual(expect.arrayContaining(['uploading', 'transcribing', 'done']));
  await until(
    'the session in the app\'s list',
    async () => (await call<{ items: { session_id: string }[] }>('sessions.list', {})).items.some((s) => s.session_id === done.sessionId),
    60_000,
    500,
  );
}, 240_000);

it('lists an import\'s session while it is still transcribing, not only once it is done', async () => {
  // Long enough that the transcription outlasts a pull of the session list.
  const text = Array.from({ length: 8 }, () => 'the weekly sync covers the roadmap the hiring plan and the budget for the next quarter').join('. ');
  const media = await speechWav(text);
  const res = await fetch(`${new URL(b.app.url).origin}${STAGE_PATH}?name=weekly-sync.wav&size=${statSync(media).size}`, {
    method: 'POST',
    headers: { [STAGE_TOKEN_HEADER]: b.token },
    body: Readable.toWeb(createReadStream(media)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  expect(res.status).toBe(201);
  const { stagedId } = (await res.json()) as { stagedId: string };
  const { items } = await call<{ items: ImportItem[] }>('imports.add', { sources: [{ kind: 'staged', stagedId, name: 'weekly-sync.wav' }], options: { language: 'en-US' } });
  const isDone = (e: { event: string; payload: unknown }) => e.event === 'imports.progress' && (e.payload as ImportItem).itemId === items[0].itemId && (e.payload as ImportItem).state === 'done';
  const done = await until('imports.progress done', () => b.events.find(isDone)?.payload as ImportItem | undefined, 180_000);
  // The sidebar redraws on cache.changed: one naming the session came before the import was done.
  const listed = b.events.findIndex((e) => e.event === 'cache.changed' && ((e.payload as { sessions?: string[] }).sessions ?? []).includes(done.sessionId!));
  expect(listed).toBeGreaterThanOrEqual(0);
  expect(listed).toBeLessThan(b.events.findIndex(isDone));
}, 240_000);
