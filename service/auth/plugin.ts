import cookie from '@fastify/cookie';
import type { AreaPlugin } from '../http/plugin';
import { registerAuthRoutes } from './routes';
import { registerSsoRoutes } from './sso';
import { registerTwoFactorRoutes } from './two-factor-routes';

/** Sign-in, tokens, accounts, two-factor and SSO; cookies are theirs alone, so no other route runs the cookie hooks. */
export const authPlugin: AreaPlugin = async (app, { ctx }) => {
  await app.register(cookie);
  registerAuthRoutes(app, ctx);
  registerTwoFactorRoutes(app, ctx);
  registerSsoRoutes(app, ctx);
};
