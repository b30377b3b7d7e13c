/** sessions.*: the signed-in account's sessions, from the cache (so they list offline). */
import type { AreaHandlers, CoreContext } from './context';

export function sessionsHandlers({ cache, accountId }: CoreContext): AreaHandlers<'sessions'> {
  return {
    'sessions.list': async ({ offset, limit, q }) => {
      const id = accountId();
      return id === null ? { items: [], total: 0 } : cache.listSessions(id, { offset, limit, q });
    },
    'sessions.get': async ({ sessionId }) => {
      const id = accountId();
      return id === null ? null : cache.getSession(id, sessionId);
    },
  };
}
