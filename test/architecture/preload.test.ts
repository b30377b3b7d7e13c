/**
 * The preload ships plain channel names, not the contract: bundled as the build bundles it, it
 * holds neither zod nor common/ipc's schemas, and its names are exactly the contract's.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { channelNames as contractChannels, eventNames as contractEvents } from '../../common/ipc';
import { channelNames, eventNames } from '../../preload/names';
import { ROOT } from '../helpers/service';

describe('preload bundle', () => {
  it('bundles no zod and no contract schemas', async () => {
    const out = await build({ entryPoints: [join(ROOT, 'preload/index.ts')], bundle: true, platform: 'node', format: 'cjs', external: ['electron'], write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs).toContain('preload/names.ts');
    expect(inputs.filter((f) => f.includes('node_modules/zod') || f.startsWith('common/ipc/contract'))).toEqual([]);
    expect(out.outputFiles[0].text).not.toMatch(/zod/i);
  });

  it('lets through exactly the contract channel and event names', () => {
    expect([...channelNames].sort()).toEqual([...contractChannels].sort());
    expect([...eventNames].sort()).toEqual([...contractEvents].sort());
  });
});
