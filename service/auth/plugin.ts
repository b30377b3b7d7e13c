import type { AreaPlugin } from '../http/plugin';
import { registerAuthRoutes } from './routes';
import { registerSsoRoutes } from './sso';
import { registerTwoFactorRoutes } from './two-factor-routes';

/** Sign-in, tokens, accounts, two-factor and SSO. */
export const authPlugin: AreaPlugin = async (app, { ctx }) => {
  registerAuthRoutes(app, ctx);
  registerTwoFactorRoutes(app, ctx);
  registerSsoRoutes(app, ctx);
};
