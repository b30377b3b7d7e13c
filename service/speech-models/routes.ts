/** The model manager's routes (common/api/speech-models.ts) over the store and its downloads. */
import type { FastifyInstance } from 'fastify';
import { statfs } from 'node:fs/promises';
import type { SpeechModel } from '../../common/api';
import type { ServiceContext } from '../context';
import { releaseModel } from '../engines/whisper';
import { plainError } from '../http/errors';
import { handle } from '../http/handle';
import { DownloadRefused } from './download';
import { ImportRefused, importModelFile } from './import';
import { measureInstalled } from './open';

export function modelView(ctx: ServiceContext, name: string): SpeechModel {
  const store = ctx.speech.store;
  const installed = store.find(name);
  const entry = store.catalogEntry(name);
  if (!installed && !entry) throw plainError(404, `There is no model called "${name}".`);
  return {
    name,
    label: installed?.label ?? entry!.label,
    bytes: installed?.bytes ?? entry!.bytes,
    languages: installed?.languages ?? entry!.languages,
    sha1: installed?.sha1 ?? entry?.sha1 ?? null,
    source: installed?.source ?? entry?.url ?? null,
    installed: Boolean(installed),
    installed_at: installed?.installed_at ?? null,
    speed_rtf: installed?.speed_rtf ?? null,
    download: installed ? { state: 'idle', received: installed.bytes, total: installed.bytes, error: null } : ctx.modelDownloads.status(name),
  };
}

const refused = (e: unknown) => (e instanceof DownloadRefused || e instanceof ImportRefused ? plainError(e.status, e.message) : e);

export function registerSpeechModelRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const store = ctx.speech.store;

  handle(app, ctx, 'speechModels.list', async () => {
    const names = [...new Set([...store.catalog.map((c) => c.name), ...store.installed().map((m) => m.name)])];
    const fs = await statfs(store.dir);
    return { engines: ctx.speech.list(), models: names.map((n) => modelView(ctx, n)), free_bytes: fs.bavail * fs.bsize };
  });

  handle(app, ctx, 'speechModels.download', async ({ params }) => {
    await ctx.modelDownloads.start(params.name).catch((e: unknown) => {
      throw refused(e);
    });
    return modelView(ctx, params.name);
  });

  handle(app, ctx, 'speechModels.pause', async ({ params }) => {
    await ctx.modelDownloads.pause(params.name);
    return modelView(ctx, params.name);
  });

  handle(app, ctx, 'speechModels.cancel', async ({ params }) => {
    await ctx.modelDownloads.cancel(params.name);
    return modelView(ctx, params.name);
  });

  handle(app, ctx, 'speechModels.delete', async ({ params }) => {
    const model = store.find(params.name);
    if (!model) throw plainError(404, `No model called "${params.name}" is installed.`);
    store.remove(params.name);
    await releaseModel(store.pathOf(model));
    ctx.log.info('speech model deleted', { name: params.name });
    return modelView(ctx, params.name);
  });

  handle(app, ctx, 'speechModels.import', async ({ body }) => {
    const model = await importModelFile(store, body.path, body.name).catch((e: unknown) => {
      throw refused(e);
    });
    void measureInstalled(store, model.name, ctx.log);
    return modelView(ctx, model.name);
  });

  app.addHook('onReady', async () => {
    ctx.modelDownloads.resumeInterrupted();
  });
  app.addHook('onClose', async () => {
    await ctx.modelDownloads.close();
  });
}
