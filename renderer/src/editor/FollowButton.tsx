import { useChannel } from '../lib/useChannel';

/**
 * "Follow playback", offered once the person scrolled away from the playing row, and only when
 * the session has media to play: without it the position moves only where they click, which
 * resumes following anyway.
 */
export function FollowButton({ sessionId, paused, onFollow }: { sessionId: string; paused: boolean; onFollow: () => void }) {
  const media = useChannel('media.source', { sessionId });
  if (!paused || !media.value?.url) return null;
  return (
    <button type="button" className="follow" onClick={onFollow}>
      Follow playback
    </button>
  );
}
