import type { AreaPlugin } from '../http/plugin';
import { registerModelRoutes } from './routes';

/** The language model catalogue. */
export const modelsPlugin: AreaPlugin = async (app, { ctx }) => {
  registerModelRoutes(app, ctx);
};
