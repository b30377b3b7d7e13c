/**
 * The words so far: finished phrases, then the phrase being spoken (grey, replaced by its final).
 * It follows the newest words while the person is at the bottom; scrolled back, it stays put and
 * offers a way back to the newest.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import type { LivePhrase } from '../../../common/ipc';

export function LiveTranscript(props: { phrases: LivePhrase[]; partial: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && following) el.scrollTop = el.scrollHeight;
  }, [props.phrases, props.partial, following]);
  const empty = props.phrases.length === 0 && !props.partial;
  return (
    <div className="live-transcript-wrap">
      <div
        ref={box}
        className="live-transcript"
        aria-label="Live transcript"
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          setFollowing(el.scrollHeight - el.scrollTop - el.clientHeight < 24);
        }}
      >
        {empty && <p className="muted">The words will appear here.</p>}
        {props.phrases.map((p) => (
          <p key={`${p.startMs}-${p.endMs}`} className="live-final">
            {p.text}
          </p>
        ))}
        {props.partial && <p className="live-partial">{props.partial}</p>}
      </div>
      {!following && (
        <button type="button" className="live-newest" onClick={() => setFollowing(true)}>
          Show the newest words
        </button>
      )}
    </div>
  );
}
