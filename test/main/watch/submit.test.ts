/**
 * A crash between batch.transcribe's answer and saving its job id must not submit the file twice:
 * the answer is lost on the way back (the service made the job), the watcher is stopped, and a new
 * one over the same data finds that session instead of submitting again.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WatchProfile } from '../../../common/ipc';
import { startService, tempDirs, type RunningService } from '../../helpers/service';
import { countServiceRows } from '../../helpers/service-db';
import { speechWav } from '../../helpers/speech';
import { until, watchHarness, type Harness } from './helpers';

let svc: RunningService;
const dirs = tempDirs();
const harnesses: Harness[] = [];
const dir = dirs.make;

const jobsOnService = () => countServiceRows(svc.dataDir, 'jobs');

beforeAll(async () => {
  svc = await startService();
}, 60_000);

afterAll(async () => {
  for (const h of harnesses) await h.watch.close().catch(() => {});
  await svc?.kill();
  dirs.removeAll();
});

it('finds the job a lost batch.transcribe answer made, after a restart, instead of submitting again', async () => {
  const data = dir('s2t-watch-submit-data-');
  const watched = dir('s2t-watch-submit-');
  let submits = 0;
  let lost!: () => void;
  const answerLost = new Promise<void>((r) => (lost = r));
  // The service gets the call and answers; the answer never reaches the watcher.
  const losingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (String(input).endsWith('/api/v3/batch/transcribe')) {
      submits++;
      await res.arrayBuffer();
      lost();
      throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    }
    return res;
  };
  const first = watchHarness(svc.url, data, { fetch: losingFetch });
  harnesses.push(first);
  await first.watch.start();
  await first.watch.addFolder(watched, WatchProfile.parse({ formats: [{ format: 'txt' }] }));
  copyFileSync(await speechWav('this job was submitted exactly one time'), join(watched, 'once.wav'));
  await answerLost;
  await until('the lost answer is recorded', () => first.watch.items().items.find((i) => i.message?.startsWith('waiting for the service')), 10_000, 20);
  const marked = first.watch.store.item(first.watch.items().items[0].itemId)!;
  expect(marked).toMatchObject({ state: 'uploading', job_id: null });
  expect(marked.submitted_at).not.toBeNull();
  expect(jobsOnService()).toBe(1);
  await first.watch.close();

  // The restart: a new watcher over the same queue, with a network that works.
  const second = watchHarness(svc.url, data);
  harnesses.push(second);
  await second.watch.start();
  const done = await until('delivery', () => second.watch.items().items.find((i) => i.state === 'delivered' || i.state === 'failed'), 90_000);
  expect(done).toMatchObject({ state: 'delivered', message: null });
  expect(submits).toBe(1);
  expect(jobsOnService()).toBe(1);
  expect(second.watch.store.item(done.itemId)).toMatchObject({ submitted_at: null, job_id: null });
  expect(readFileSync(join(watched, 'once.txt'), 'utf8').toLowerCase()).toMatch(/job|submitted|time/);
}, 150_000);
