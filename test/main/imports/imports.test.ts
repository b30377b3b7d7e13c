/**
 * New transcriptions from the app, on the watch queue against the real local service
 * over HTTP: an import by path reaches done with a session whose transcript has words, with
 * progress on the way; what cannot be transcribed is refused before anything uploads; cancel and
 * retry; offline, the import waits with a message and completes once the service is back.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ImportItem } from '../../../common/ipc';
import { plainText, type DocumentContent } from '../../../common/transcript/model';
import { speechWav, words } from '../../helpers/speech';
import { sparseWav, until } from '../watch/helpers';
import { importsSuite, latest } from './helpers';

// A slow link, so an upload is still running when it is cancelled.
const t = importsSuite('s2t-imports', { bytesPerSecond: 2 * 1024 * 1024, harness: { tusThresholdBytes: 1024 * 1024, chunkBytes: 1024 * 1024 } });

/** The transcript's words, as the service has them. */
async function transcriptWords(sessionId: string): Promise<string[]> {
  const res = await fetch(`${t.svc.url}/api/v3/speech-to-text/session/${sessionId}/document?include_content=true`, { headers: { authorization: `Bearer ${t.token}` } });
  const body = (await res.json()) as { result: { type: string; document?: { content: DocumentContent } }[] };
  const doc = body.result.find((d) => d.type === 'document');
  return words(doc?.document ? plainText(doc.document.content) : '');
}

it('lists the languages, and an import by path reaches done with a session whose transcript has words', async () => {
  const { models, stale } = await t.h.call('models.list', {});
  expect(stale).toBe(false);
  expect(models.find((m) => m.key === 'en-US')).toMatchObject({ supported: true });

  const media = join(t.dirs.make('s2t-imports-media-'), 'morning.wav');
  copyFileSync(await speechWav('good morning everyone and welcome to the meeting'), media);
  const { items } = await t.h.call('imports.add', { sources: [{ kind: 'path', path: media }], options: { language: 'en-US' } });
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ name: 'morning.wav', state: 'queued', bytesTotal: expect.any(Number) });
  const id = items[0].itemId;
  const done = await until('the import done', () => (latest(t.h.events, id)?.state === 'done' ? latest(t.h.events, id) : null), 120_000);
  expect(done.sessionId).toBeTruthy();
  const states = t.h.events.filter((e) => e.itemId === id).map((e) => e.state);
  expect(states).toEqual(expect.arrayContaining(['uploading', 'transcribing', 'done']));
  expect((await transcriptWords(done.sessionId!)).length).toBeGreaterThan(2);
  // The local file plays the session (playback asks for it by session id).
  expect(t.h.known).toContainEqual({ sessionId: done.sessionId, path: media });
  expect(t.h.watch.localPathOf(done.sessionId!)).toBe(media);
  // Imports are not watch folders: watch.state and watch.items never list them.
  expect(t.h.watch.state().folders).toEqual([]);
  expect(t.h.watch.items().items).toEqual([]);
  expect((await t.h.call('imports.list', { offset: 0, limit: 100 })).items.map((i) => i.itemId)).toContain(id);
}, 180_000);

it('refuses, with the reason, what cannot be transcribed, before anything uploads', async () => {
  const d = t.dirs.make('s2t-imports-refused-');
  const fake = join(d, 'song.mp3');
  writeFileSync(fake, 'this is a text file, not an mp3\n'.repeat(50));
  const media = join(d, 'speech.wav');
  copyFileSync(await speechWav('one two three'), media);
  const before = t.proxy.sent();
  const listed = (await t.h.call('imports.list', { offset: 0, limit: 500 })).total;
  const add = (sources: unknown[], options: Record<string, unknown>) => t.h.call('imports.add', { sources, options });

  await expect(add([{ kind: 'path', path: fake }], { language: 'en-US' })).rejects.toMatchObject({ code: 'REFUSED', message: expect.stringMatching(/song\.mp3: not media/) });
  await expect(add([{ kind: 'path', path: media }], { language: 'xx-XX' })).rejects.toMatchObject({ message: expect.stringMatching(/"xx-XX" is not in the service's list/) });
  await expect(add([{ kind: 'path', path: media }], { language: 'fr-FR' })).rejects.toMatchObject({ message: expect.stringMatching(/cannot transcribe it/) });
  await expect(add([{ kind: 'path', path: media }], { language: 'en-US', mode: 'align' })).rejects.toMatchObject({ message: expect.stringMatching(/align needs the text/) });
  await expect(add([{ kind: 'path', path: media }], { language: 'en-US', mode: 'upload' })).rejects.toMatchObject({ message: expect.stringMatching(/upload needs the caption or transcript file/) });
  // An engine the service does not run for the language (no model installed here), and any engine for a URL the service fetches itself.
  await expect(add([{ kind: 'path', path: media }], { language: 'en-US', speechEngine: 'whisper:small' })).rejects.toMatchObject({ message: expect.stringMatching(/whisper:small cannot run en-US on the service now/) });
  await expect(add([{ kind: 'url', url: 'https://example.com/talk.mp3' }], { language: 'en-US', speechEngine: 'pocketsphinx' })).rejects.toMatchObject({ message: expect.stringMatching(/the engine can be chosen for files, not for a media URL/) });
  expect((await t.h.call('imports.list', { offset: 0, limit: 500 })).total).toBe(listed);
  expect(t.proxy.sent() - before).toBeLessThan(4096); // the models list was asked; no media went out

  // Among several files given one by one, the one that is not media refuses the add, with why: nothing is queued.
  await expect(add([{ kind: 'path', path: media }, { kind: 'path', path: fake }], { language: 'en-US' })).rejects.toMatchObject({ code: 'REFUSED', message: expect.stringMatching(/song\.mp3: not media/) });
  expect((await t.h.call('imports.list', { offset: 0, limit: 500 })).total).toBe(listed);
  const { items } = await add([{ kind: 'path', path: media }], { language: 'en-US' });
  expect(items.map((i) => [i.name, i.state])).toEqual([['speech.wav', 'queued']]);
  await until('the good one done', () => latest(t.h.events, items[0].itemId)?.state === 'done', 120_000);
}, 180_000);

it('takes a dropped folder as the files in it: media queued, a fake .mp3 listed as not media, texts and hidden files left out', async () => {
  const d = t.dirs.make('s2t-imports-folder-');
  mkdirSync(join(d, 'day two'));
  copyFileSync(await speechWav('first recording of the day'), join(d, 'a.wav'));
  copyFileSync(await speechWav('second recording of the day'), join(d, 'day two', 'b.wav'));
  writeFileSync(join(d, 'notes.txt'), 'notes');
  writeFileSync(join(d, '.hidden.wav'), 'x');
  writeFileSync(join(d, 'song.mp3'), 'not an mp3\n'.repeat(20));
  const { items } = await t.h.call('imports.add', { sources: [{ kind: 'path', path: d }], options: { language: 'en-US' } });
  expect(items.map((i) => [i.name, i.state])).toEqual([
    ['a.wav', 'queued'],
    ['b.wav', 'queued'],
    ['song.mp3', 'failed'],
  ]);
  for (const i of items.slice(0, 2)) await until(`${i.name} done`, () => latest(t.h.events, i.itemId)?.state === 'done', 120_000);
  const empty = t.dirs.make('s2t-imports-empty-');
  writeFileSync(join(empty, 'readme.txt'), 'nothing else');
  await expect(t.h.call('imports.add', { sources: [{ kind: 'path', path: empty }], options: { language: 'en-US' } })).rejects.toMatchObject({ code: 'REFUSED', message: expect.stringMatching(/holds nothing to transcribe/) });
}, 240_000);

it('aligns a text file with the media', async () => {
  const d = t.dirs.make('s2t-imports-align-');
  const media = join(d, 'align.wav');
  copyFileSync(await speechWav('the quick brown fox jumps over the lazy dog'), media);
  const text = join(d, 'align.txt');
  writeFileSync(text, 'The quick brown fox jumps over the lazy dog.');
  const { items } = await t.h.call('imports.add', { sources: [{ kind: 'path', path: media }], options: { language: 'en-US', mode: 'align', companion: { kind: 'path', path: text } } });
  const done = await until('the align done', () => (latest(t.h.events, items[0].itemId)?.state === 'done' ? latest(t.h.events, items[0].itemId) : null), 120_000);
  expect(await transcriptWords(done.sessionId!)).toEqual(['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'the', 'lazy', 'dog']);
}, 180_000);

it('uploads a finished caption file with its media (upload mode): the session holds its words, not a recognition', async () => {
  const d = t.dirs.make('s2t-imports-upload-');
  const media = join(d, 'captioned.wav');
  copyFileSync(await speechWav('hello and welcome to the show'), media);
  const srt = join(d, 'captioned.srt');
  // Words no recognizer would hear in that speech: they can only come from the file.
  writeFileSync(srt, '1\n00:00:00,100 --> 00:00:01,000\nzebra quantum\n\n2\n00:00:01,000 --> 00:00:01,800\nmarmalade\n');
  const { items } = await t.h.call('imports.add', { sources: [{ kind: 'path', path: media }], options: { language: 'en-US', mode: 'upload', companion: { kind: 'path', path: srt } } });
  const done = await until('the upload done', () => (latest(t.h.events, items[0].itemId)?.state === 'done' ? latest(t.h.events, items[0].itemId) : null), 120_000);
  expect(await transcriptWords(done.sessionId!)).toEqual(['zebra', 'quantum', 'marmalade']);
}, 180_000);

it('cancels an upload under way, and a retry takes it to done', async () => {
  const media = join(t.dirs.make('s2t-imports-cancel-'), 'long.wav');
  sparseWav(media, 16 * 1024 * 1024, 7);
  const { items } = await t.h.call('imports.add', { sources: [{ kind: 'path', path: media }], options: { language: 'en-US' } });
  const id = items[0].itemId;
  await until('upload bytes moving', () => (latest(t.h.events, id)?.bytesSent ?? 0) > 2 * 1024 * 1024, 60_000);
  const moving = latest(t.h.events, id)!;
  expect(moving).toMatchObject({ state: 'uploading' });
  expect(moving.percent).toBeGreaterThan(0);
  expect(moving.rate).toBeGreaterThan(0);
  expect(moving.etaSeconds).toBeGreaterThan(0);
  const cancelled = await t.h.call('imports.cancel', { itemId: id });
  expect(cancelled.state).toBe('cancelled');
  const sentAtCancel = t.proxy.sent();
  // Nothing runs on: the queue leaves a cancelled item alone.
  await new Promise((r) => setTimeout(r, 1500));
  expect((await t.h.call('imports.list', { offset: 0, limit: 500 })).items.find((i) => i.itemId === id)?.state).toBe('cancelled');
  expect(t.proxy.sent() - sentAtCancel).toBeLessThan(2 * 1024 * 1024);

  expect((await t.h.call('imports.retry', { itemId: id })).state).toBe('queued');
  // Cancelled again while the service transcribes it: the job is cancelled there too, and a
  // retry submits the uploaded file again (nothing is sent twice) instead of fetching nothing.
  const transcribing = await until('transcribing', () => (latest(t.h.events, id)?.state === 'transcribing' ? latest(t.h.events, id) : null), 120_000);
  const firstSession = transcribing.sessionId;
  expect((await t.h.call('imports.cancel', { itemId: id })).state).toBe('cancelled');
  const sentBeforeRetry = t.proxy.sent();
  expect((await t.h.call('imports.retry', { itemId: id })).state).not.toBe('done');
  const done = await until('the retried import done', () => (latest(t.h.events, id)?.state === 'done' ? latest(t.h.events, id) : null), 180_000);
  expect(done.sessionId).toBeTruthy();
  expect(done.sessionId).not.toBe(firstSession);
  expect(t.proxy.sent() - sentBeforeRetry).toBeLessThan(1024 * 1024);
  // The first job was cancelled on the service.
  const job = await fetch(`${t.svc.url}/api/v3/speech-to-text/session/${firstSession}`, { headers: { authorization: `Bearer ${t.token}` } });
  expect(((await job.json()) as { result: { status: string } }).result.status).toBe('failed');
}, 300_000);

it('keeps imports running while every watch folder is paused', async () => {
  t.h.watch.pause(true);
  try {
    const media = join(t.dirs.make('s2t-imports-paused-'), 'paused.wav');
    copyFileSync(await speechWav('pausing folders does not pause this'), media);
    const { items } = await t.h.call('imports.add', { sources: [{ kind: 'path', path: media }], options: { language: 'en-US' } });
    await until('done while folders are paused', () => latest(t.h.events, items[0].itemId)?.state === 'done', 120_000);
  } finally {
    t.h.watch.pause(false);
  }
}, 180_000);

it('waits offline with a message, and completes once the service is back', async () => {
  const media = join(t.dirs.make('s2t-imports-offline-'), 'offline.wav');
  copyFileSync(await speechWav('the service is back online now'), media);
  t.proxy.offline = true;
  let items: ImportItem[];
  try {
    // The languages come from the cached list while offline.
    expect((await t.h.call('models.list', {})).stale).toBe(true);
    ({ items } = await t.h.call('imports.add', { sources: [{ kind: 'path', path: media }], options: { language: 'en-US' } }));
    const waiting = await until('a waiting message', () => {
      const e = latest(t.h.events, items[0].itemId);
      return e?.message && e.state !== 'failed' ? e : null;
    });
    // Shown as waiting (queued with the reason), not as an upload under way.
    expect(waiting.state).toBe('queued');
    expect(waiting.message).toMatch(/reach|offline|connect/i);
  } finally {
    t.proxy.offline = false;
  }
  const done = await until('done once back', () => (latest(t.h.events, items[0].itemId)?.state === 'done' ? latest(t.h.events, items[0].itemId) : null), 180_000);
  expect(done.message).toBeNull();
}, 300_000);
