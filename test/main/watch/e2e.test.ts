/**
 * Watch folders end to end against the real local service: real speech from espeak-ng, a slow
 * copy, exactly-once by content, a nested output folder, and the service dying mid-job.
 */
import { copyFileSync, existsSync, mkdirSync, openSync, closeSync, readFileSync, readdirSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync } from 'subtitle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WatchProfile } from '../../../common/ipc';
import type { Document } from '../../../common/api';
import { DEMO, serviceLogin, startService, tempDirs, type RunningService } from '../../helpers/service';
import { countServiceRows } from '../../helpers/service-db';
import { speechWav, wordErrorRate } from '../../helpers/speech';
import { PASSAGE } from '../../service/work/helpers';
import { closeWatchTest, until, watchHarness, type Harness } from './helpers';

/** The service's recorded bound for this passage and voice (test/service/work/transcribe.e2e.test.ts: measured 0.684). */
const WER_BOUND = 0.7;
const KEY_WORDS = ['weather', 'today', 'people', 'dogs', 'river', 'dinner', 'day'];

let svc: RunningService;
let h: Harness;
const dirs = tempDirs();
const dir = dirs.make;

/** Uploads the service holds (its uploads table): the ground truth for "uploaded once". */
const serviceUploads = () => countServiceRows(svc.dataDir, 'uploads');

beforeAll(async () => {
  svc = await startService();
  h = watchHarness(svc.url, dir('s2t-watch-data-'));
  await h.watch.start();
}, 60_000);

afterAll(() => closeWatchTest({ watchers: [h], svc, dirs }));

describe('watch folder end to end', () => {
  const folderPath = () => dirs.all[1];
  let mediaPath = '';

  it('uploads a slowly copied WAV once, after the copy finishes, and writes SRT and TXT beside it', async () => {
    const watched = dir('s2t-watched-');
    await h.watch.addFolder(watched, WatchProfile.parse({ language: 'en', formats: [{ format: 'srt' }, { format: 'txt' }] }));
    const bytes = readFileSync(await speechWav(PASSAGE));
    mediaPath = join(watched, 'passage.wav');
    const fd = openSync(mediaPath, 'w');
    const pieces = 10;
    const step = Math.ceil(bytes.length / pieces);
    let lastWrite = 0;
    for (let i = 0; i < pieces; i++) {
      writeSync(fd, bytes, i * step, Math.min(step, bytes.length - i * step));
      lastWrite = Date.now();
      await new Promise((r) => setTimeout(r, 350)); // a slow copy: ~3.5 s, pauses under the 800 ms window
    }
    closeSync(fd);

    const delivered = await until('delivery', () => h.progress.find((p) => p.path === mediaPath && p.state === 'delivered'), 120_000);
    const uploads = h.progress.filter((p) => p.path === mediaPath && p.state === 'uploading');
    expect(uploads.length).toBeGreaterThan(0);
    expect(uploads[0].at).toBeGreaterThanOrEqual(lastWrite + 800);
    expect(h.detected.filter((d) => d.path === mediaPath)).toHaveLength(1);
    expect(serviceUploads()).toBe(1);
    expect(delivered.bytesSent).toBe(bytes.length);

    const txt = readFileSync(join(watched, 'passage.txt'), 'utf8');
    const srt = readFileSync(join(watched, 'passage.srt'), 'utf8');
    const cues = parseSync(srt).filter((n) => n.type === 'cue');
    expect(cues.length).toBeGreaterThan(0);
    const cueText = cues.map((c) => (c.data as { text: string }).text).join(' ');
    const werTxt = wordErrorRate(PASSAGE, txt);
    const werSrt = wordErrorRate(PASSAGE, cueText);
    console.log(`watch e2e: WER txt ${werTxt.toFixed(3)}, srt ${werSrt.toFixed(3)} (bound ${WER_BOUND})`);
    expect(werTxt).toBeLessThan(WER_BOUND);
    expect(werSrt).toBeLessThan(WER_BOUND);
    const heard = txt.toLowerCase().split(/[^a-z']+/);
    expect(KEY_WORDS.filter((w) => heard.includes(w)).length).toBeGreaterThanOrEqual(5);
    // No half-written or temp files are left behind.
    expect(readdirSync(watched).filter((n) => !n.startsWith('.')).sort()).toEqual(['passage.srt', 'passage.txt', 'passage.wav']);
  }, 150_000);

  it('does not upload a renamed or duplicated file again', async () => {
    const watched = folderPath();
    const renamed = join(watched, 'renamed.wav');
    renameSync(mediaPath, renamed);
    copyFileSync(renamed, join(watched, 'copy of passage.wav'));
    await until('both seen', () => h.detected.filter((d) => d.path === renamed || d.path.endsWith('copy of passage.wav')).length >= 2, 20_000);
    expect(h.detected.filter((d) => d.path === renamed || d.path.endsWith('copy of passage.wav')).every((d) => !d.created)).toBe(true);
    expect(h.watch.items().total).toBe(1);
    expect(serviceUploads()).toBe(1);
  }, 30_000);

  it('writes into an output folder inside the watched folder without looping, moves the source to done/, and refreshes after an edit', async () => {
    const watched = dir('s2t-watched-out-');
    await h.watch.addFolder(watched, WatchProfile.parse({ formats: [{ format: 'vtt' }, { format: 'txt' }], output: 'folder', outputDir: 'captions', afterwards: 'move', refreshOnEdit: true }));
    mkdirSync(join(watched, 'sub'));
    copyFileSync(await speechWav('good morning everyone and welcome to the meeting'), join(watched, 'sub', 'morning.wav'));
    const item = await until('delivery', () => h.progress.find((p) => p.path === join(watched, 'sub', 'morning.wav') && p.state === 'delivered'), 90_000);
    expect(existsSync(join(watched, 'captions', 'sub', 'morning.vtt'))).toBe(true);
    expect(readFileSync(join(watched, 'captions', 'sub', 'morning.txt'), 'utf8').toLowerCase()).toMatch(/welcome|everyone/);
    // Even media put into the output folder is not ours to transcribe.
    copyFileSync(await speechWav('this file sits in the output folder'), join(watched, 'captions', 'stray.wav'));
    await new Promise((r) => setTimeout(r, 2500));
    const items = h.watch.items({ folderId: item.folderId });
    expect(items.total).toBe(1);
    expect(h.detected.some((d) => d.path.includes(join(watched, 'captions')))).toBe(false);
    expect(existsSync(join(watched, 'done', 'sub', 'morning.wav'))).toBe(true);
    expect(existsSync(join(watched, 'sub', 'morning.wav'))).toBe(false);

    // The user edits the transcript in the app; the delivered files follow.
    const sessionId = items.items[0].sessionId!;
    const token = await serviceLogin(svc.url, DEMO);
    const auth = { authorization: `Bearer ${token}` };
    const list = (await (await fetch(`${svc.url}/api/v3/speech-to-text/session/${sessionId}/document?include_content=true`, { headers: auth })).json()) as { result: Document[] };
    const doc = list.result.find((d) => d.type === 'document')!;
    const body = structuredClone(doc.document!);
    if (body.content.kind !== 'transcript') throw new Error('expected a transcript');
    body.content.segments[0].words[0].text = 'Edited';
    const put = await fetch(`${svc.url}/api/v3/speech-to-text/session/${sessionId}/document/${doc.id}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ document: body }) });
    expect(put.status).toBe(200);
    const rewritten = await h.watch.refreshSession(sessionId);
    expect(rewritten.sort()).toEqual([join(watched, 'captions', 'sub', 'morning.txt'), join(watched, 'captions', 'sub', 'morning.vtt')]);
    expect(readFileSync(join(watched, 'captions', 'sub', 'morning.txt'), 'utf8')).toMatch(/^Edited\b/);
  }, 120_000);

  it('uploads a file once when two machines watch the same synced folder', async () => {
    const shared = dir('s2t-watched-shared-');
    const other = watchHarness(svc.url, dir('s2t-watch-data-b-'), { machine: 'machine-b' });
    try {
      await other.watch.start();
      await other.watch.addFolder(shared, WatchProfile.parse({ formats: [{ format: 'txt' }] }));
      await h.watch.addFolder(shared, WatchProfile.parse({ formats: [{ format: 'txt' }] }));
      const before = serviceUploads();
      copyFileSync(await speechWav('one file for two machines'), join(shared, 'both.wav'));
      const states = () => [...h.watch.items().items, ...other.watch.items().items].filter((i) => i.path === join(shared, 'both.wav'));
      await until('one upload and one claim seen', () => {
        const s = states();
        return s.length === 2 && s.some((i) => i.message?.startsWith('transcribed on ')) && s.some((i) => i.sessionId);
      }, 30_000);
      expect(serviceUploads()).toBe(before + 1);
    } finally {
      await other.watch.close();
    }
  }, 60_000);

  it('recovers when the service goes down mid-job', async () => {
    const watched = dir('s2t-watched-down-');
    const folder = await h.watch.addFolder(watched, WatchProfile.parse({ formats: [{ format: 'txt' }] }));
    const media = join(watched, 'outage.wav');
    copyFileSync(await speechWav('the service went down but the transcript still arrived'), media);
    await until('transcribing', () => h.progress.find((p) => p.path === media && p.state === 'transcribing'), 60_000, 20);
    const port = Number(new URL(svc.url).port);
    await svc.kill();
    await until('a wait for the service', () => h.watch.items({ folderId: folder.id }).items.find((i) => i.message?.startsWith('waiting for the service')), 20_000);
    svc = await startService({ dataDir: svc.dataDir, port });
    await until('delivery after the outage', () => h.progress.find((p) => p.path === media && p.state === 'delivered'), 120_000);
    expect(readFileSync(join(watched, 'outage.txt'), 'utf8').toLowerCase()).toMatch(/service|transcript|arrived/);
    expect(h.watch.items({ folderId: folder.id }).items[0].state).toBe('delivered');
  }, 180_000);
});
