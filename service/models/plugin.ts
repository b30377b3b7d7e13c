import type { AreaPlugin } from '../http/plugin';
import { registerSpeechModelRoutes } from '../speech-models/routes';
import { registerModelRoutes } from './routes';

/** The language model catalogue, and the speech models (engines) behind it. */
export const modelsPlugin: AreaPlugin = async (app, { ctx }) => {
  registerModelRoutes(app, ctx);
  registerSpeechModelRoutes(app, ctx);
};
