/**
 * Browser mode's stageFile over the web bridge's real HTTP route: a file streamed with this run's
 * token is staged under the data dir, imports.add over the bridge's WebSocket takes it to done
 * with a session whose transcript has words, and the staged file is deleted once uploaded.
 * Without the token (or with a wrong one, or a body that is not the size it declared) nothing is staged.
 */
import { createReadStream, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { STAGE_PATH, STAGE_TOKEN_HEADER, type ImportItem } from '../../../common/ipc';
import { plainText, type DocumentContent } from '../../../common/transcript/model';
import { stagedDir } from '../../../main/imports/staging';
import type { Handlers } from '../../../main/ipc/registry';
import { startWebBridge, type WebBridge } from '../../../main/ipc/web-bridge';
import { speechWav, words } from '../../helpers/speech';
import { admit } from '../../helpers/app';
import { until } from '../watch/helpers';
import { importsSuite, latest } from './helpers';

const t = importsSuite('s2t-stage');
let bridge: WebBridge;
let session: string;

beforeAll(async () => {
  bridge = await startWebBridge({ handlers: t.h.handlers as unknown as Handlers, staticDir: t.dirs.make('s2t-stage-static-'), dataDir: t.dataDir });
  session = await admit(bridge.newUrl());
});

afterAll(async () => {
  await bridge?.close();
});

/** POSTs a file to the stage route as renderer/src/lib/bridge.ts does, streamed from disk. */
function stage(path: string, opts: { token?: string | null; size?: number } = {}): Promise<Response> {
  const size = opts.size ?? statSync(path).size;
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  if (opts.token !== null) headers[STAGE_TOKEN_HEADER] = opts.token ?? session;
  return fetch(`http://127.0.0.1:${bridge.port}${STAGE_PATH}?name=speech.wav&size=${size}`, {
    method: 'POST',
    headers,
    body: Readable.toWeb(createReadStream(path)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
}

const staged = () => (existsSync(stagedDir(t.dataDir)) ? readdirSync(stagedDir(t.dataDir)) : []);

it('refuses to stage without the token, with a wrong one, or a body longer than it said', async () => {
  const media = await speechWav('nothing here should be kept');
  expect((await stage(media, { token: null })).status).toBe(401);
  expect((await stage(media, { token: 'x'.repeat(32) })).status).toBe(401);
  expect((await stage(media, { size: 100 })).status).toBe(400);
  expect((await stage(media, { size: -1 })).status).toBe(400);
  const get = await fetch(`http://127.0.0.1:${bridge.port}${STAGE_PATH}`, { headers: { [STAGE_TOKEN_HEADER]: session } });
  expect(get.status).toBe(405);
  expect(staged()).toEqual([]);
}, 60_000);

it('stages a file with the token and imports it over the bridge to a session with words; the staged file goes once uploaded', async () => {
  const media = await speechWav('thank you all for joining the call this afternoon');
  const res = await stage(media);
  expect(res.status).toBe(201);
  const { stagedId } = (await res.json()) as { stagedId: string };
  expect(staged()).toEqual([stagedId]);
  expect(statSync(join(stagedDir(t.dataDir), stagedId)).size).toBe(statSync(media).size);

  const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/bridge`, [`s2t.${session}`], { headers: { origin: `http://127.0.0.1:${bridge.port}` } });
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  try {
    const reply = await new Promise<{ ok: boolean; value?: { items: ImportItem[] }; error?: unknown }>((resolve) => {
      ws.on('message', (d) => resolve(JSON.parse(String(d)).reply));
      ws.send(JSON.stringify({ id: 1, channel: 'imports.add', args: { sources: [{ kind: 'staged', stagedId, name: 'speech.wav' }], options: { language: 'en-US' } } }));
    });
    expect(reply.ok).toBe(true);
    const [item] = reply.value!.items;
    expect(item).toMatchObject({ name: 'speech.wav', state: 'queued' });
    const done = await until('the staged import done', () => (latest(t.h.events, item.itemId)?.state === 'done' ? latest(t.h.events, item.itemId) : null), 120_000);
    expect(staged()).toEqual([]);
    // A staged file is gone once uploaded: it never stands for the session's local media.
    expect(t.h.known.filter((k) => k.sessionId === done.sessionId)).toEqual([]);
    const docs = (await (await fetch(`${t.svc.url}/api/v3/speech-to-text/session/${done.sessionId}/document?include_content=true`, { headers: { authorization: `Bearer ${t.token}` } })).json()) as {
      result: { type: string; filename: string; document?: { content: DocumentContent } }[];
    };
    const doc = docs.result.find((d) => d.type === 'document')!;
    expect(words(plainText(doc.document!.content)).length).toBeGreaterThan(2);
    expect(doc.filename).toBe('speech');
  } finally {
    ws.close();
  }
}, 180_000);

it('keeps no staged file of a refused add: a bad option, or one file that is not media among several', async () => {
  const media = await speechWav('this add is refused');
  const fake = join(t.dirs.make('s2t-stage-fake-'), 'song.mp3');
  writeFileSync(fake, 'this is a text file, not an mp3\n'.repeat(50));
  const stagedId = async (path: string) => ((await (await stage(path)).json()) as { stagedId: string }).stagedId;
  const add = async (paths: string[], language: string) =>
    t.h.call('imports.add', { sources: await Promise.all(paths.map(async (p) => ({ kind: 'staged', stagedId: await stagedId(p), name: 'speech.wav' }))), options: { language } });

  await expect(add([media], 'xx-XX')).rejects.toMatchObject({ message: expect.stringMatching(/"xx-XX" is not in the service's list/) });
  expect(staged()).toEqual([]);
  await expect(add([media, fake], 'en-US')).rejects.toMatchObject({ code: 'REFUSED', message: expect.stringMatching(/not media/) });
  expect(staged()).toEqual([]);
}, 60_000);
