/** The watch.* IPC handlers: arguments and results checked with the contract's zod schemas, over a real WatchService. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { watchChannels } from '../../../common/ipc';
import { ApiClient } from '../../../main/api/client';
import { PasswordAuth } from '../../../main/watch/auth';
import { watchHandlers } from '../../../main/watch/ipc';
import { WatchService } from '../../../main/watch/service';
import { cleanup, tempDir } from '../../helpers/service';

const dirs: string[] = [];
afterAll(() => dirs.forEach(cleanup));

type Name = keyof typeof watchChannels;

it('adds, updates, pauses and removes folders through the contract', async () => {
  const data = tempDir('s2t-watch-ipc-');
  dirs.push(data);
  const folderPath = join(data, 'inbox');
  mkdirSync(folderPath);
  const auth = new PasswordAuth('nobody@example.com', 'x');
  // No service needed: config calls never reach it (an unreachable address proves it).
  const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9', auth: auth.asAuthSource() });
  auth.attach(client);
  const watch = new WatchService({ dataDir: join(data, 'watch'), client, auth, stabilityMs: 200 });
  await watch.start();
  const handlers = watchHandlers(() => watch);
  const call = async <N extends Name>(name: N, args: unknown) => {
    const parsed = watchChannels[name].args.parse(args);
    const result = await (handlers[name] as (a: unknown) => Promise<unknown>)(parsed);
    return watchChannels[name].result.parse(result);
  };
  try {
    const added = (await call('watch.addFolder', { path: folderPath })) as { id: string; profile: { formats: { format: string }[]; language: string } };
    expect(added.profile.formats.map((f) => f.format)).toEqual(['srt', 'txt']);
    const updated = (await call('watch.updateFolder', { folderId: added.id, profile: { language: 'en', formats: [{ format: 'docx' }], output: 'folder', outputDir: 'transcripts', afterwards: 'move' } })) as { profile: { outputDir: string } };
    expect(updated.profile.outputDir).toBe('transcripts');
    expect(await call('watch.pause', { paused: true })).toMatchObject({ paused: true });
    expect(await call('watch.pause', { folderId: added.id, paused: true })).toMatchObject({ folders: [{ id: added.id, paused: true }] });
    expect(await call('watch.items', {})).toEqual({ items: [], total: 0 });
    await expect(call('watch.addFolder', { path: join(data, 'missing') })).rejects.toThrow(/not a folder/);
    expect(() => watchChannels['watch.addFolder'].args.parse({ path: folderPath, profile: { formats: [{ format: 'mp3' }] } })).toThrow();
    await expect(call('watch.retry', { itemId: 42 })).rejects.toThrow(/no such item/);
    expect(await call('watch.removeFolder', { folderId: added.id })).toMatchObject({ folders: [] });
  } finally {
    await watch.close();
  }
  // The configuration is durable: a new service over the same data dir sees the global pause.
  const again = new WatchService({ dataDir: join(data, 'watch'), client, auth });
  expect(again.state()).toEqual({ paused: true, folders: [] });
  await again.close();
});
