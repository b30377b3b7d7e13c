import { acceptMediaBodies, type AreaPlugin } from '../http/plugin';
import { registerSessionList } from './list';
import { registerSessionRoutes } from './routes';

/** Sessions: the list, and the routes that create, upload to, read and delete one. Needs the work plugin. */
export const sessionsPlugin: AreaPlugin = async (app, { ctx }) => {
  registerSessionList(app, ctx);
  await app.register(async (media) => {
    await acceptMediaBodies(media);
    registerSessionRoutes(media, ctx, app.jobs);
  });
};
