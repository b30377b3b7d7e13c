/**
 * media.*: where a session's media plays from (main/media/library.ts): the file on this computer,
 * the app's kept copy, or the service's link (asked afresh, since a cached media_url expires).
 */
import type { Session } from '../../../common/api';
import { classifyFailure, describeError } from '../../api/failure';
import type { MediaLibrary, ServiceMedia } from '../../media/library';
import { PEAKS_PER_SECOND, PeakCache, peaksFromAudiowaveform } from '../../media/peaks';
import type { AreaHandlers, CoreContext } from './context';

/** How long the service gets to say where the media is before we call it unreachable. */
const ASK_TIMEOUT_MS = 8000;

/**
 * A signed link's expiry and signature: wave_info_url is the sessions.waveform route signed
 * (common/api), so the client calls that route with the link's own query.
 */
function linkQuery(link: string): { exp: string; sig: string } {
  const q = new URL(link, 'http://service').searchParams;
  return { exp: q.get('exp') ?? '', sig: q.get('sig') ?? '' };
}

/** Media is kept per account: the same session id on two services is two sessions. */
export const mediaAccount = (identity: string, accountId: number) => `${identity}#${accountId}`;

export function mediaHandlers(ctx: CoreContext & { media: MediaLibrary; peaks: PeakCache }): AreaHandlers<'media'> {
  const { cache, client, accountId, serviceUrl, identity, media, peaks } = ctx;
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
          if (!f || !s) return { failed: describeError(err, 'request') };
          // Answered, but not with the session (signed out for a moment, a hiccup): the cached link may still play.
        }
        return { mediaUrl: s?.media_url ? new URL(s.media_url, serviceUrl).toString() : '' };
      };
      return media.source(mediaAccount(identity, id), sessionId, askService);
    },
    // The service's waveform when it has one; else computed from the file here or the kept copy.
    'media.peaks': async ({ sessionId }: { sessionId: string }) => {
      const id = accountId();
      if (id === null) return { peaks: null, reason: 'Sign in to see the waveform.' };
      const account = mediaAccount(identity, id);
      const key = `${account}|${sessionId}`;
      const asPeaks = (p: Uint8Array, from: 'service' | 'local' | 'cache') => ({ peaks: Buffer.from(p).toString('base64'), perSecond: PEAKS_PER_SECOND, from });
      const kept = await peaks.keptSession(key);
      if (kept) return asPeaks(kept, 'service');
      let waveUrl = cache.getSession(id, sessionId)?.session.wave_info_url;
      try {
        // The cached link is signed and may have expired: ask for a fresh one.
        waveUrl = (await client.call('sessions.get', { params: { sessionId } }, { timeoutMs: ASK_TIMEOUT_MS, retries: 0 })).result.wave_info_url ?? waveUrl;
      } catch {
        // Offline or refused: the cached link, or the media here.
      }
      let serviceFailed: string | null = null;
      if (waveUrl) {
        try {
          // Through the client like any call: its route's answer schema, timeout and failure kinds.
          const query = linkQuery(waveUrl);
          const got = await peaks.forSession(key, async () => peaksFromAudiowaveform(await client.call('sessions.waveform', { params: { sessionId }, query }, { timeoutMs: ASK_TIMEOUT_MS * 4, retries: 0 })));
          return asPeaks(got, 'service');
        } catch (err) {
          // Unreadable or refused: compute it here instead, and say why if that cannot be done either.
          serviceFailed = describeError(err, 'request');
        }
      }
      const file = await media.fileOf(account, sessionId);
      if (!file && serviceFailed) return { peaks: null, reason: `No waveform: the service's could not be read (${serviceFailed}), and the media is not on this computer (it is kept after it first plays).` };
      if (!file) return { peaks: null, reason: 'No waveform yet: the service has none, and the media is not on this computer (it is kept after it first plays).' };
      try {
        return asPeaks(await peaks.get(file.path), file.from);
      } catch (err) {
        return { peaks: null, reason: `The waveform could not be computed: ${(err as Error).message}` };
      }
    },
  };
}
