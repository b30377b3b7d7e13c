/** sync.*: run a sync now, its state, and another try for a blocked change. */
import { requireAccount, type AreaHandlers, type CoreContext } from './context';

export function syncHandlers(ctx: CoreContext): AreaHandlers<'sync'> {
  const { engine, cache } = ctx;
  return {
    'sync.now': async () => {
      requireAccount(ctx);
      await engine.run();
      return engine.state();
    },
    'sync.state': async () => engine.state(),
    'sync.retryBlocked': async ({ documentId }) => {
      requireAccount(ctx);
      cache.requeueBlocked(documentId);
      await engine.run();
      return engine.state();
    },
  };
}
