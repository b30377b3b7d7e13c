/**
 * "Follow playback", offered once the person scrolled away from the playing row, and only when
 * the session has media to play: without it the position moves only where they click, which
 * resumes following anyway.
 */
export function FollowButton({ hasMedia, paused, onFollow }: { hasMedia: boolean; paused: boolean; onFollow: () => void }) {
  if (!paused || !hasMedia) return null;
  return (
    <button type="button" className="follow" onClick={onFollow}>
      Follow playback
    </button>
  );
}
