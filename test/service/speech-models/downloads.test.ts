/**
 * Model downloads over real HTTP from a local server standing in for the model's official
 * location (no weights can be downloaded here): a kill mid-transfer carries on by itself at the next
 * start with a Range request where it stopped, a pause outlasts a restart, a wrong checksum is refused and its file removed, cancel removes the partial
 * file, pause keeps it, and a model the disk or the store's quota cannot hold is refused before
 * anything is fetched. The full disk is the real statfs check against a size larger than the disk;
 * the quota is the store's own limit (--model-store-max-gb).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpeechModel } from '../../../common/api';
import { startService, stopAndRemove, tempDir, type RunningService } from '../../helpers/service';
import { tinyWhisperModelFile } from '../../helpers/whisper-model';
import { client, until, type Client } from '../work/helpers';
import { startModelServer, type ModelServer } from './model-server';

const LOCAL = '/api/v3/local/speech-models';
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');

let files: ModelServer;
let svc: RunningService;
let c: Client;
let dir: string;
let good: Buffer;
let env: NodeJS.ProcessEnv;

const start = async () => {
  svc = await startService({ dataDir: join(dir, 'data'), entry: 'test/service/speech-models/fixtures/serve-with-model-catalog.ts', env, args: ['--model-store-max-gb', '0.05'] });
  c = await client(svc.url);
};
const model = async (name: string): Promise<SpeechModel> => {
  const r = await c.json('speechModels.list', LOCAL);
  return r.body.models.find((m) => m.name === name)!;
};
const part = (name: string) => join(dir, 'data', 'models', `${name}.part`);

beforeAll(async () => {
  dir = tempDir('s2t-downloads-');
  good = readFileSync(tinyWhisperModelFile().path);
  const bad = randomBytes(300_000);
  files = await startModelServer({ 'ggml-good.bin': good, 'ggml-bad.bin': bad });
  const entry = (name: string, file: string, data: Buffer, bytes = data.length, checksum = sha1(data)) => ({ name, label: `Test ${name}`, url: files.url(file), sha1: checksum, bytes, languages: 'multilingual' });
  env = {
    S2T_TEST_MODEL_CATALOG: JSON.stringify([
      entry('good', 'ggml-good.bin', good),
      entry('again', 'ggml-good.bin', good),
      entry('bad', 'ggml-bad.bin', bad, bad.length, sha1(good)),
      entry('roomy', 'ggml-good.bin', good, 60 * 1024 ** 2),
      entry('huge', 'ggml-good.bin', good, 2 ** 52),
    ]),
  };
  await start();
}, 60_000);

afterAll(async () => {
  await files?.close();
  await stopAndRemove(svc, dir);
});

describe('model downloads', () => {
  it('carries on with a Range request, unasked, after the service is killed mid-download, then checks and installs', async () => {
    expect(await model('good')).toMatchObject({ installed: false, download: { state: 'idle', received: 0, total: good.length } });
    files.setRate(32 * 1024);
    const started = await c.json('speechModels.download', `${LOCAL}/good/download`);
    expect(started.status, started.text).toBe(202);
    await until('some bytes', async () => (await model('good')).download.received > 200_000);
    await svc.kill();
    const kept = statSync(part('good')).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(good.length);

    // Nobody asks again: a download the service did not pause by request carries on when it starts.
    files.setRate(0);
    await start();
    const installed = await until('installed', async () => {
      const m = await model('good');
      return m.installed ? m : null;
    });
    expect(files.ranges).toContain(`bytes=${kept}-`);
    expect(installed).toMatchObject({ sha1: sha1(good), bytes: good.length, source: files.url('ggml-good.bin') });
    expect(readFileSync(join(dir, 'data', 'models', 'ggml-good.bin')).equals(good)).toBe(true);
    expect(existsSync(part('good'))).toBe(false);
    expect((await c.json('speechModels.list', LOCAL)).body.engines.map((e) => e.id)).toContain('whisper:good');
    // Installed once: a second download is refused.
    expect((await c.json('speechModels.download', `${LOCAL}/good/download`)).status).toBe(409);
  });

  it('refuses a file whose checksum is not the published one, and removes it', async () => {
    await c.json('speechModels.download', `${LOCAL}/bad/download`);
    const failed = await until('failed', async () => {
      const m = await model('bad');
      return m.download.state === 'failed' ? m : null;
    });
    expect(failed.installed).toBe(false);
    expect(failed.download.error).toMatch(/does not match the published checksum .* it was removed/);
    expect(existsSync(part('bad'))).toBe(false);
  });

  it('pauses keeping the partial file, and cancels removing it', async () => {
    files.setRate(16 * 1024);
    await c.json('speechModels.download', `${LOCAL}/again/download`);
    await until('some bytes', async () => (await model('again')).download.received > 50_000);
    const paused = await c.json('speechModels.pause', `${LOCAL}/again/pause`);
    expect(paused.body.download.state).toBe('paused');
    expect(statSync(part('again')).size).toBe(paused.body.download.received);
    // A pause a person asked for outlasts a restart: the download waits for them.
    const asked = files.ranges.length;
    await svc.stop();
    await start();
    expect((await model('again')).download).toMatchObject({ state: 'paused', received: paused.body.download.received });
    await new Promise((r) => setTimeout(r, 500));
    expect(files.ranges.length).toBe(asked);

    await c.json('speechModels.download', `${LOCAL}/again/download`);
    await until('more bytes', async () => (await model('again')).download.received > paused.body.download.received);
    const cancelled = await c.json('speechModels.cancel', `${LOCAL}/again/download`);
    expect(cancelled.body.download).toMatchObject({ state: 'idle', received: 0 });
    expect(existsSync(part('again'))).toBe(false);
    expect((await model('again')).installed).toBe(false);
    files.setRate(0);
  });

  it('refuses a model the disk or the store cannot hold, before fetching anything', async () => {
    const before = files.ranges.length;
    const disk = await c.json('speechModels.download', `${LOCAL}/huge/download`);
    expect(disk.status).toBe(507);
    expect(disk.text).toMatch(/Not enough disk space for this model/);
    const quota = await c.json('speechModels.download', `${LOCAL}/roomy/download`);
    expect(quota.status).toBe(507);
    expect(quota.text).toMatch(/model store's limit of .* would be exceeded/);
    expect(files.ranges.length).toBe(before);
    expect(existsSync(part('huge'))).toBe(false);
  });

  it('deletes an installed model, which then leaves the engines', async () => {
    const r = await c.json('speechModels.delete', `${LOCAL}/good`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.installed).toBe(false);
    expect(existsSync(join(dir, 'data', 'models', 'ggml-good.bin'))).toBe(false);
    expect((await c.json('speechModels.list', LOCAL)).body.engines.map((e) => e.id)).toEqual(['pocketsphinx']);
  });
});
