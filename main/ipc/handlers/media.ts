/**
 * media.*: where a session's media plays from (main/media/library.ts): the file on this computer,
 * the app's kept copy, or the service's link (asked afresh, since a cached media_url expires).
 */
import type { Session } from '../../../common/api';
import { classifyFailure, describeFailure } from '../../api/failure';
import type { MediaLibrary, ServiceMedia } from '../../media/library';
import type { AreaHandlers, CoreContext } from './context';

/** How long the service gets to say where the media is before we call it unreachable. */
const ASK_TIMEOUT_MS = 8000;

/** Media is kept per account: the same session id on two services is two sessions. */
export const mediaAccount = (serviceUrl: string, accountId: number) => `${serviceUrl}#${accountId}`;

export function mediaHandlers(ctx: CoreContext & { media: MediaLibrary }): AreaHandlers<'media'> {
  const { cache, client, accountId, serviceUrl, media } = ctx;
  return {
    'media.source': async ({ sessionId }: { sessionId: string }) => {
      const id = accountId();
      if (id === null) return { url: null, reason: 'Sign in to play this session.' };
      const cached = cache.getSession(id, sessionId)?.session;
      const askService = async (): Promise<ServiceMedia> => {
        let s: Session | undefined = cached;
        try {
          s = (await client.call('sessions.get', { params: { sessionId } }, { timeoutMs: ASK_TIMEOUT_MS, retries: 0 })).result;
        } catch (err) {
          const f = classifyFailure(err);
          if (f?.kind === 'offline') return { offline: true };
          if (!f || !s) return { failed: f ? describeFailure(f, 'request') : (err as Error).message };
          // Answered, but not with the session (signed out for a moment, a hiccup): the cached link may still play.
        }
        return { mediaUrl: s?.media_url ? new URL(s.media_url, serviceUrl).toString() : '' };
      };
      return media.source(mediaAccount(serviceUrl, id), sessionId, askService);
    },
  };
}
