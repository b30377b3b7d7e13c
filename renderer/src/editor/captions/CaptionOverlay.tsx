import { useCaptionShowing } from './nowShowing';
import './caption-overlay.css';

/**
 * The caption showing now, drawn over the video as a viewer would see it, or for audio as a
 * small preview line beside the player. Nothing when no caption document is open or no cue shows.
 */
export function CaptionOverlay({ audio = false }: { audio?: boolean }) {
  const lines = useCaptionShowing();
  if (!lines) return null;
  return (
    <div className={audio ? 'caption-preview' : 'caption-overlay'} aria-live="off" data-testid="caption-now">
      {lines.map((l, i) => (
        <span key={i}>{l}</span>
      ))}
    </div>
  );
}
