/**
 * The imports.* and models.list handlers: new transcriptions from the app, run on the watch
 * folders' queue (WatchService, one upload engine). imports.add checks everything it can before
 * anything uploads and refuses with the reason; only a file found inside a given folder is listed
 * as failed beside the others instead.
 */
import { rm } from 'node:fs/promises';
import type { z } from 'zod';
import { importChannels, type ImportItem, type ImportSource } from '../../common/ipc';
import { UserFacingError, userFacing as asUserFacing } from '../ipc/user-facing-error';
import type { NewImport } from '../watch/store';
import type { WatchService } from '../watch/service';
import { checkOptions, checkSource, expandFolders, refusalOf, Refused } from './checks';
import { toImportItem } from './item';
import { readGlossary, saveGlossary, type ModelsList } from './models';
import { stagedPath } from './staging';

type Args<C extends keyof typeof importChannels> = z.output<(typeof importChannels)[C]['args']>;

/** A Refused check reads as "Cannot transcribe: …"; the rest as any handler's failure. */
const userFacing = <T>(fn: () => T | Promise<T>) =>
  asUserFacing('IMPORTS', fn, (err) => (err instanceof Refused ? new UserFacingError('REFUSED', `Cannot transcribe: ${err.message}.`) : null));

export interface ImportsContext {
  /** The running WatchService (there is one while someone is signed in). */
  watch: () => WatchService | Promise<WatchService>;
  models: ModelsList;
  /** The app's data dir (staged files live under it). */
  dataDir: string;
}

export function importHandlers(ctx: ImportsContext) {
  /** Files staged from the browser that will not be queued are not kept. */
  const dropStaged = (sources: ImportSource[]) =>
    Promise.all(sources.map((s) => (s.kind === 'staged' ? rm(stagedPath(ctx.dataDir, s.stagedId), { force: true }).catch(() => {}) : null)));
  /** Everything imports.add checks before anything is queued; throws the refusal of the whole add. */
  const checkAdd = async (a: Args<'imports.add'>, models: Parameters<typeof checkOptions>[2]) => {
    const found = await expandFolders(a.sources);
    const sources = found.map((f) => f.source);
    const text = await checkOptions(a.options, sources, models, ctx.dataDir);
    const checked = await Promise.all(sources.map((s) => checkSource(s, ctx.dataDir)));
    const refusal = refusalOf(checked.map((check, i) => ({ check, inFolder: found[i].inFolder })));
    if (refusal) throw new Refused(refusal);
    return { text, checked };
  };
  const row = async (itemId: number) => {
    const r = (await ctx.watch()).importRow(itemId);
    if (!r) throw new UserFacingError('NOT_FOUND', 'That upload is no longer in the list.');
    return r;
  };
  return {
    'models.list': (_: Args<'models.list'>) =>
      userFacing(async () => {
        const list = await ctx.models.list();
        if (!list) throw new UserFacingError('OFFLINE', 'The list of languages needs the service once; it cannot be reached now.');
        return list;
      }),
    'models.accountLists': (_: Args<'models.accountLists'>) =>
      userFacing(async () => {
        const lists = await ctx.models.accountLists();
        if (!lists) throw new UserFacingError('OFFLINE', 'The glossaries and custom models need the service once; it cannot be reached now.');
        return lists;
      }),
    'glossaries.get': (a: Args<'glossaries.get'>) => userFacing(() => readGlossary(ctx.models.client, a.id)),
    'glossaries.save': (a: Args<'glossaries.save'>) => userFacing(async () => ({ id: await saveGlossary(ctx.models.client, a) })),
    'imports.add': (a: Args<'imports.add'>): Promise<{ items: ImportItem[] }> =>
      userFacing(async () => {
        const watch = await ctx.watch();
        const models = (await ctx.models.list())?.models ?? null;
        // Refused, nothing is kept: the dialog stages its files again on the next submit. (Staged
        // files are given themselves, never found in a folder, so a.sources names them all.)
        const { text, checked } = await checkAdd(a, models).catch(async (err) => {
          await dropStaged(a.sources);
          throw err;
        });
        const bad = checked.filter((c) => !c.ok);
        await dropStaged(bad.map((b) => b.source));
        const options = JSON.stringify(a.options);
        const rows = checked.map((c) => {
          const imp: NewImport = { path: c.ok ? c.path : '', size: c.ok ? c.size : 0, mediaType: c.ok ? c.mediaType : '', name: c.name, options, source: JSON.stringify(c.source), text, staged: c.ok ? c.staged : false };
          return c.ok ? imp : { imp, reason: c.reason };
        });
        const queued = watch.addImports(rows.filter((r): r is NewImport => !('reason' in r)));
        const refused = rows.filter((r) => 'reason' in r).map((r) => watch.refuseImport(r.imp, r.reason));
        return { items: [...queued, ...refused].map((r) => toImportItem(r)) };
      }),
    'imports.list': (a: Args<'imports.list'>) =>
      userFacing(async () => {
        const { items, total } = (await ctx.watch()).importRows(a.offset, a.limit);
        return { items: items.map((r) => toImportItem(r)), total };
      }),
    'imports.cancel': (a: Args<'imports.cancel'>) =>
      userFacing(async () => {
        await row(a.itemId);
        return toImportItem((await (await ctx.watch()).cancelImport(a.itemId))!);
      }),
    'imports.retry': (a: Args<'imports.retry'>) =>
      userFacing(async () => {
        await row(a.itemId);
        return toImportItem((await ctx.watch()).retryImport(a.itemId)!);
      }),
    'imports.clearFinished': (_: Args<'imports.clearFinished'>) => userFacing(async () => ({ removed: await (await ctx.watch()).clearFinishedImports() })),
  };
}
