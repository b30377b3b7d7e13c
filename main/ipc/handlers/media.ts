/** media.*: where a session's media plays from (the service; the cache keeps no media). */
import type { AreaHandlers, CoreContext } from './context';

export function mediaHandlers({ cache, accountId, serviceUrl }: CoreContext): AreaHandlers<'media'> {
  return {
    'media.url': async ({ sessionId }) => {
      const id = accountId();
      const s = id === null ? null : cache.getSession(id, sessionId);
      const url = s?.session.media_url;
      if (!url) return { url: null };
      return { url: new URL(url, serviceUrl).toString() };
    },
  };
}
