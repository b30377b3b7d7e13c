/**
 * The watch.* IPC handlers over a WatchService. The core merges them into its handler set:
 *   handlers = { ...coreHandlers, ...watchHandlers(watch) }
 * and forwards progress by building the service with `onProgress: (p) => emit('watch.progress', p)`.
 */
import type { z } from 'zod';
import { watchChannels, type WatchItem, type WatchState } from '../../common/ipc';
import { UserFacingError } from '../ipc/registry';
import type { WatchService } from './service';

type Args<C extends keyof typeof watchChannels> = z.output<(typeof watchChannels)[C]['args']>;

async function userFacing<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof UserFacingError) throw err;
    throw new UserFacingError('WATCH', (err as Error).message);
  }
}

export function watchHandlers(watch: WatchService) {
  return {
    'watch.state': async (_: Args<'watch.state'>): Promise<WatchState> => watch.state(),
    'watch.addFolder': (a: Args<'watch.addFolder'>) => userFacing(() => watch.addFolder(a.path, a.profile)),
    'watch.updateFolder': (a: Args<'watch.updateFolder'>) => userFacing(() => watch.updateFolder(a.folderId, a.profile)),
    'watch.removeFolder': (a: Args<'watch.removeFolder'>) =>
      userFacing(async () => {
        await watch.removeFolder(a.folderId);
        return watch.state();
      }),
    'watch.pause': (a: Args<'watch.pause'>) => userFacing(() => watch.pause(a.paused, a.folderId)),
    'watch.items': async (a: Args<'watch.items'>): Promise<{ items: WatchItem[]; total: number }> => watch.items(a),
    'watch.retry': (a: Args<'watch.retry'>) => userFacing(() => watch.retry(a.itemId)),
  };
}
