import { acceptMediaBodies, type AreaPlugin } from '../http/plugin';
import { registerBatchRoutes } from './routes';
import { mountTus } from './tus';

/** The /api/v3/batch family and the tus endpoint. Needs the work plugin. */
export const batchPlugin: AreaPlugin = async (app, { ctx }) => {
  await mountTus(app, ctx);
  await app.register(async (media) => {
    await acceptMediaBodies(media);
    registerBatchRoutes(media, ctx, app.jobs);
  });
};
