import type { AreaPlugin } from '../http/plugin';
import { registerFolderRoutes } from './folders';
import { registerGlossaryRoutes } from './glossaries';
import { registerOtherLists } from './other-lists';

/** Folders, glossaries and the other per-account lists. */
export const listsPlugin: AreaPlugin = async (app, { ctx }) => {
  registerFolderRoutes(app, ctx);
  registerGlossaryRoutes(app, ctx);
  registerOtherLists(app, ctx);
};
