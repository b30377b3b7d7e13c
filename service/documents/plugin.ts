import { acceptMediaBodies, type AreaPlugin } from '../http/plugin';
import { registerDocumentRoutes } from './routes';

/** Documents of a session, their exports, downloads and shared links. */
export const documentsPlugin: AreaPlugin = async (app, { ctx }) => {
  await acceptMediaBodies(app);
  registerDocumentRoutes(app, ctx, app.jobs);
};
