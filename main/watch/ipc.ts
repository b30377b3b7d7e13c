/**
 * The watch.* IPC handlers over the WatchService of the moment (main/watch/in-app.ts runs one
 * while someone is signed in). The backend merges them into the core's handler set.
 */
import type { z } from 'zod';
import { watchChannels, type WatchItem, type WatchState } from '../../common/ipc';
import { UserFacingError, userFacing as asUserFacing } from '../ipc/user-facing-error';
import type { WatchService } from './service';

type Args<C extends keyof typeof watchChannels> = z.output<(typeof watchChannels)[C]['args']>;

const userFacing = <T>(fn: () => T | Promise<T>) => asUserFacing('WATCH', fn);

/**
 * `watch` answers the running WatchService (once it has started), or throws a UserFacingError when
 * there is none. `languageProblem` says why a folder's language cannot be used (not in the
 * service's list, or listed but not transcribable there), so a folder is refused when it is added,
 * not after its first upload fails.
 */
export function watchHandlers(watch: () => WatchService | Promise<WatchService>, languageProblem?: (language: string) => Promise<string | null>) {
  const checkLanguage = async (language: string) => {
    const problem = await languageProblem?.(language);
    if (problem) throw new UserFacingError('REFUSED', `Cannot watch this folder: ${problem}.`);
  };
  return {
    'watch.state': (_: Args<'watch.state'>): Promise<WatchState> => userFacing(async () => (await watch()).state()),
    'watch.addFolder': (a: Args<'watch.addFolder'>) =>
      userFacing(async () => {
        const w = await watch();
        await checkLanguage(a.profile.language);
        return w.addFolder(a.path, a.profile);
      }),
    'watch.updateFolder': (a: Args<'watch.updateFolder'>) =>
      userFacing(async () => {
        const w = await watch();
        await checkLanguage(a.profile.language);
        return w.updateFolder(a.folderId, a.profile);
      }),
    'watch.removeFolder': (a: Args<'watch.removeFolder'>) =>
      userFacing(async () => {
        const w = await watch();
        await w.removeFolder(a.folderId);
        return w.state();
      }),
    'watch.pause': (a: Args<'watch.pause'>) => userFacing(async () => (await watch()).pause(a.paused, a.folderId)),
    'watch.items': (a: Args<'watch.items'>): Promise<{ items: WatchItem[]; total: number }> => userFacing(async () => (await watch()).items(a)),
    'watch.retry': (a: Args<'watch.retry'>) => userFacing(async () => (await watch()).retry(a.itemId)),
    'watch.transcribeAgain': (a: Args<'watch.transcribeAgain'>) => userFacing(async () => (await watch()).transcribeAgain(a.itemId)),
  };
}
