import { useEffect, useState } from 'react';
import type { MediaOrigin } from '../../../common/ipc';
import { CaptionOverlay } from '../editor/captions/CaptionOverlay';
import { SKIP_MS, SPEEDS, type Player } from './usePlayer';
import './media-bar.css';

const FROM: Record<MediaOrigin, string> = {
  local: 'Playing the file on this computer',
  cache: 'Playing the copy kept on this computer',
  service: 'Playing from the service (a copy is being kept for offline use)',
};

/** Why the element could not play what it was given, by its MediaError code. */
function playError(code: number | undefined, origin: MediaOrigin): string {
  if (code === 4) return 'This media cannot be played here: its format is not supported by the player.';
  if (code === 3) return 'This media could not be decoded: the file may be damaged.';
  if (origin === 'service') return 'The media could not be loaded from the service: it may be unreachable.';
  return 'The media file could not be read: it may have been moved or deleted while open. Open the session again.';
}

/**
 * How the session page lays out around the player (app/fit.css): told to the page rather than
 * found by a `:has()` rule there, which made every keystroke in an editor restyle the whole page.
 */
export type MediaLayout = 'video' | 'audio' | null;

/**
 * The session's player: an audio player for audio (no black video box), a video for video, with
 * skip buttons and the playback speed beside it (the keys do the same: J and L, < and >). Where the media comes from is main's
 * choice (media.source, asked by usePlayer); when there is nothing to play, the reason is shown instead.
 */
export function MediaBar({ player, onLayout }: { player: Player; onLayout?: (layout: MediaLayout) => void }) {
  const { source } = player;
  const [failed, setFailed] = useState<{ url: string; message: string } | null>(null);
  // A video file without a picture (an audio-only MP4) shows as an audio player once its metadata says so.
  const [noPicture, setNoPicture] = useState<string | null>(null);
  const shown = source.value;
  const layout: MediaLayout = !shown?.url || source.error || failed?.url === shown.url ? null : shown.kind === 'video' && noPicture !== shown.url ? 'video' : 'audio';
  useEffect(() => onLayout?.(layout), [layout, onLayout]);

  if (source.error) return <p className="media-missing" role="status">The media could not be looked up: {source.error}</p>;
  const s = source.value;
  if (!s) return <p className="media-missing muted" role="status">{source.loading ? 'Looking for the media…' : ''}</p>;
  if (s.url === null) return <p className="media-missing" role="status">{s.reason}</p>;
  if (failed?.url === s.url) return <p className="media-missing" role="status">{failed.message}</p>;

  const isVideo = layout === 'video';
  const url = s.url;
  const events = {
    ...player.mediaEvents,
    onLoadedMetadata: (e: React.SyntheticEvent<HTMLMediaElement>) => {
      if (e.currentTarget instanceof HTMLVideoElement && e.currentTarget.videoWidth === 0) setNoPicture(url);
      player.mediaEvents.onLoadedMetadata();
    },
    onError: (e: React.SyntheticEvent<HTMLMediaElement>) => setFailed({ url, message: playError(e.currentTarget.error?.code, s.origin) }),
  };
  const props = { src: url, controls: true, preload: 'metadata', title: FROM[s.origin], ...events };
  return (
    <div className={`media-bar ${isVideo ? 'has-video' : 'audio-only'}`} data-origin={s.origin}>
      {s.kind === 'video' ? (
        <div className="video-frame">
          <video key={url} className={`player${isVideo ? ' video' : ''}`} {...props} ref={player.ref as React.RefObject<HTMLVideoElement>} />
          {isVideo && <CaptionOverlay />}
        </div>
      ) : (
        <audio key={url} className="player" {...props} ref={player.ref as React.RefObject<HTMLAudioElement>} />
      )}
      <div className="skips">
        <button type="button" className="icon" aria-label={`Back ${SKIP_MS / 1000} seconds`} title="Back 5 s (J)" onClick={() => player.skip(-SKIP_MS)}>
          −5
        </button>
        <button type="button" className="icon" aria-label={`Forward ${SKIP_MS / 1000} seconds`} title="Forward 5 s (L)" onClick={() => player.skip(SKIP_MS)}>
          +5
        </button>
        <select className="speed" aria-label="Playback speed" title="Playback speed (< slower, > faster)" value={player.speed} onChange={(e) => player.setSpeed(Number(e.target.value))}>
          {SPEEDS.map((v) => (
            <option key={v} value={v}>{v}×</option>
          ))}
        </select>
      </div>
      <span className="media-origin muted small">{FROM[s.origin]}</span>
      {!isVideo && <CaptionOverlay audio />}
    </div>
  );
}
