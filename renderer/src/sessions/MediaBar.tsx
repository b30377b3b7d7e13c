import { SKIP_MS, type Player } from './usePlayer';

/** The media element with skip buttons beside it (the keys do the same: J and L). */
export function MediaBar({ player, url, isVideo }: { player: Player; url: string; isVideo: boolean }) {
  const props = { ref: player.ref, src: url, controls: true, preload: 'metadata', ...player.mediaEvents };
  return (
    <div className={`media-bar${isVideo ? ' has-video' : ''}`}>
      {isVideo ? <video className="player video" {...props} ref={props.ref as React.RefObject<HTMLVideoElement>} /> : <audio className="player" {...props} ref={props.ref as React.RefObject<HTMLAudioElement>} />}
      <div className="skips">
        <button type="button" className="icon" aria-label={`Back ${SKIP_MS / 1000} seconds`} title="Back 5 s (J)" onClick={() => player.skip(-SKIP_MS)}>
          −5
        </button>
        <button type="button" className="icon" aria-label={`Forward ${SKIP_MS / 1000} seconds`} title="Forward 5 s (L)" onClick={() => player.skip(SKIP_MS)}>
          +5
        </button>
      </div>
    </div>
  );
}
