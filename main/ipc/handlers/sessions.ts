/** sessions.*: the signed-in account's sessions, from the cache (so they list offline); renames and deletes go through the outbox. */
import { SessionListView } from '../../../common/ipc';
import { requireAccount, type AreaHandlers, type CoreContext } from './context';

const VIEW = 'sessions.view';

export function sessionsHandlers(ctx: CoreContext): AreaHandlers<'sessions'> {
  const { cache, accountId } = ctx;
  const view = (id: number) => {
    const saved = cache.uiState(id, VIEW);
    // A view saved by an older version may not parse any more: start from the defaults then.
    const parsed = saved ? SessionListView.safeParse(JSON.parse(saved)) : null;
    return parsed?.success ? parsed.data : SessionListView.parse({});
  };
  return {
    'sessions.list': async ({ offset, limit, q, sort, direction, status, language, mode }) => {
      const id = accountId();
      return id === null ? { items: [], total: 0 } : cache.listSessions(id, { offset, limit, q, sort, direction, status, language, mode });
    },
    'sessions.get': async ({ sessionId }) => {
      const id = accountId();
      return id === null ? null : cache.getSession(id, sessionId);
    },
    'sessions.facets': async () => {
      const id = accountId();
      return id === null ? { languages: [], modes: [] } : (cache.sessionFacets(id) as { languages: string[]; modes: ('decode' | 'align' | 'upload')[] });
    },
    'sessions.view': async () => {
      const id = accountId();
      return id === null ? SessionListView.parse({}) : view(id);
    },
    'sessions.setView': async (v) => {
      cache.setUiState(requireAccount(ctx), VIEW, JSON.stringify(v));
      return v;
    },
    'sessions.rename': async ({ sessionId, filename }) => {
      const renamed = cache.renameSession(requireAccount(ctx), sessionId, filename);
      if (renamed) {
        ctx.emit('cache.changed', { sessions: [sessionId] });
        ctx.engine.kick();
      }
      return { renamed };
    },
    'sessions.delete': async ({ sessionIds }) => {
      const deleted = cache.deleteSessions(requireAccount(ctx), sessionIds);
      if (deleted.length) {
        ctx.emit('cache.changed', { sessions: deleted });
        ctx.engine.kick();
      }
      return { deleted: deleted.length };
    },
  };
}
