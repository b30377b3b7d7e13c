/**
 * Watch folders against the real service: exactly-once is per content AND per
 * profile (the same file in folders of two languages is two jobs; a third folder with the first's
 * language reuses its job); every file found has a visible outcome (a copy says "already
 * transcribed as", with transcribe-again; a text file named .mp3 says "not media"); a folder's
 * language is checked against the models list when it is added.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient } from '../../../main/api/client';
import { languageProblem, ModelsList } from '../../../main/imports/models';
import { PasswordAuth } from '../../../main/watch/auth';
import { watchHandlers } from '../../../main/watch/ipc';
import { DEMO, serviceLogin, startService, tempDirs, type RunningService, type TempDirs } from '../../helpers/service';
import { speechWav } from '../../helpers/speech';
import { closeWatchTest, until, watchHarness, type Harness } from './helpers';

let svc: RunningService;
let h: Harness;
const dirs: TempDirs = tempDirs();

beforeAll(async () => {
  svc = await startService();
  h = watchHarness(svc.url, dirs.make('s2t-outcomes-data-'));
  await h.watch.start();
}, 60_000);

afterAll(() => closeWatchTest({ watchers: [h], svc, dirs }));

const item = (id: number) => h.watch.items({ limit: 500 }).items.find((i) => i.itemId === id);
const itemAt = (path: string) => h.watch.items({ limit: 500 }).items.find((i) => i.path === path);
const delivered = (path: string) => until(`${path} delivered`, () => (itemAt(path)?.state === 'delivered' ? itemAt(path) : null), 120_000);

it('transcribes the same file once per profile: two languages are two sessions, the same language reuses the job', async () => {
  const speech = await speechWav('please send the quarterly report before friday');
  const profile = { formats: [{ format: 'txt' as const, options: {} }] };
  const us = await h.watch.addFolder(dirs.make('s2t-outcomes-us-'), { ...profile, language: 'en-US' } as never);
  const gb = await h.watch.addFolder(dirs.make('s2t-outcomes-gb-'), { ...profile, language: 'en-GB' } as never);
  const us2 = await h.watch.addFolder(dirs.make('s2t-outcomes-us2-'), { ...profile, language: 'en-US' } as never);
  copyFileSync(speech, join(us.path, 'report.wav'));
  const a = await delivered(join(us.path, 'report.wav'));
  copyFileSync(speech, join(gb.path, 'report.wav'));
  copyFileSync(speech, join(us2.path, 'report.wav'));
  const b = await delivered(join(gb.path, 'report.wav'));
  const c = await delivered(join(us2.path, 'report.wav'));
  expect(a.sessionId).toBeTruthy();
  expect(b.sessionId).toBeTruthy();
  // Another language: a job of its own (not "delivered" with the en-US transcript).
  expect(b.sessionId).not.toBe(a.sessionId);
  // The same content and profile: the first job, not a second upload.
  expect(c.sessionId).toBe(a.sessionId);
  const sessions = await fetchSessions();
  expect(sessions.filter((s) => s.filename === 'report.wav').map((s) => s.language).sort()).toEqual(['en-GB', 'en-US']);
}, 300_000);

it('shows a copy in the same folder as already transcribed, and transcribes it again on request', async () => {
  const folder = await h.watch.addFolder(dirs.make('s2t-outcomes-dup-'), { formats: [{ format: 'txt', options: {} }], language: 'en-US' } as never);
  copyFileSync(await speechWav('the meeting starts at nine tomorrow'), join(folder.path, 'first.wav'));
  const first = await delivered(join(folder.path, 'first.wav'));
  copyFileSync(join(folder.path, 'first.wav'), join(folder.path, 'copy.wav'));
  const copy = await until('the copy listed', () => itemAt(join(folder.path, 'copy.wav')), 60_000);
  expect(copy).toMatchObject({ state: 'delivered', message: 'already transcribed as first.wav', sessionId: first.sessionId, outputs: [] });
  // The queue never touches such a copy, so main says so as it admits it (the panel is live on watch.progress).
  expect(h.progress).toContainEqual(expect.objectContaining({ itemId: copy.itemId, path: copy.path, state: 'delivered', message: 'already transcribed as first.wav' }));

  const again = h.watch.transcribeAgain(copy.itemId);
  expect(again.state).toBe('detected');
  const redone = await until('the copy transcribed again', () => (item(copy.itemId)?.state === 'delivered' && item(copy.itemId)?.outputs.length ? item(copy.itemId) : null), 120_000);
  expect(redone.sessionId).toBeTruthy();
  expect(redone.sessionId).not.toBe(first.sessionId);
  expect(redone.message).toBeNull();
}, 300_000);

it('says "not media" for a text file named .mp3, as an item and a progress event', async () => {
  const folder = await h.watch.addFolder(dirs.make('s2t-outcomes-fake-'), { language: 'en-US' } as never);
  const fake = join(folder.path, 'song.mp3');
  writeFileSync(fake, 'not an mp3 at all, just words\n'.repeat(20));
  // Texts beside media (align texts, our outputs) are expected and stay quiet.
  writeFileSync(join(folder.path, 'notes.txt'), 'some notes');
  const shown = await until('the not-media item', () => itemAt(fake), 60_000);
  expect(shown).toMatchObject({ state: 'failed', message: expect.stringMatching(/^not media/) });
  expect(h.progress.some((p) => p.path === fake && /^not media/.test(p.message ?? ''))).toBe(true);
  expect(itemAt(join(folder.path, 'notes.txt'))).toBeUndefined();
  // A retry looks at the content again and says the same.
  h.watch.retry(shown.itemId);
  await until('the retry refused', () => item(shown.itemId)?.state === 'failed' && item(shown.itemId)?.attempts === 1, 30_000);
  expect(item(shown.itemId)!.message).toMatch(/^not media/);
}, 120_000);

it('refuses a folder whose language is not in the models list, or cannot be transcribed, when it is added', async () => {
  const auth = new PasswordAuth(DEMO.email, DEMO.password);
  const client = new ApiClient({ baseUrl: svc.url, auth: auth.asAuthSource(), retries: 0, timeoutMs: 15_000 });
  auth.attach(client);
  const models = new ModelsList(client, join(dirs.make('s2t-outcomes-models-'), 'models.json'));
  const handlers = watchHandlers(
    () => h.watch,
    async (language) => languageProblem(language, (await models.list())?.models ?? null),
  );
  const path = dirs.make('s2t-outcomes-lang-');
  const add = (language: string) => handlers['watch.addFolder']({ path, profile: { language } as never });
  await expect(add('xx-XX')).rejects.toMatchObject({ code: 'REFUSED', message: expect.stringMatching(/"xx-XX" is not in the service's list/) });
  await expect(add('fr-FR')).rejects.toMatchObject({ code: 'REFUSED', message: expect.stringMatching(/French.*cannot transcribe it/) });
  expect(h.watch.state().folders.some((f) => f.path === path)).toBe(false);
  expect(await add('en-US')).toMatchObject({ path, profile: { language: 'en-US' } });
}, 60_000);

async function fetchSessions(): Promise<{ filename: string; language: string }[]> {
  const token = await serviceLogin(svc.url, DEMO);
  const res = await fetch(`${svc.url}/api/v3/speech-to-text/session?limit=100`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { result: { filename: string; language: string }[] }).result;
}
