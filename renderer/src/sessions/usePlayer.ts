import { useCallback, useEffect, useRef, useState } from 'react';
import { commandKey, isTypingTarget, modalOpen } from '../lib/keys';
import { useChannel } from '../lib/useChannel';
import { matches } from '../ui/shortcuts';

/** How far J / L and the arrow keys jump. */
export const SKIP_MS = 5000;

/** The playback speeds offered, slowest first; < and > step through them. */
export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

export interface Player {
  /** Where the session's media plays from (main's media.source), or why there is none. */
  source: ReturnType<typeof useChannel<'media.source'>>;
  /** Whether the session has media to play. */
  hasMedia: boolean;
  /** Attach to the <audio> or <video> element. */
  ref: React.RefObject<HTMLMediaElement | null>;
  /** Where playback is, in milliseconds; follows the media element, or the last seek without one. */
  nowMs: number;
  playing: boolean;
  /** Event props for the media element. */
  mediaEvents: {
    onTimeUpdate: () => void;
    onSeeked: () => void;
    onPlay: () => void;
    onPause: () => void;
    onEnded: () => void;
    onLoadedMetadata: () => void;
  };
  seek(ms: number, play?: boolean): void;
  toggle(): void;
  skip(deltaMs: number): void;
  /** The playback speed (one of SPEEDS); it stays while the session is open, whichever element plays. */
  speed: number;
  setSpeed(speed: number): void;
  /** One step slower (-1) or faster (+1) in SPEEDS, stopping at either end. */
  stepSpeed(direction: -1 | 1): void;
}

/**
 * The session's media as editing needs it: where it plays from (asked once here, for the media bar
 * and the editor alike), the time read every animation frame while playing (timeupdate alone
 * comes only about four times a second, too coarse to follow words), and seeks that work before
 * the media has loaded or when there is none.
 */
export function usePlayer(sessionId: string): Player {
  const source = useChannel('media.source', { sessionId });
  const ref = useRef<HTMLMediaElement | null>(null);
  const [nowMs, setNowMs] = useState(0);
  const [playing, setPlaying] = useState(false);
  const pendingSeek = useRef<number | null>(null);
  const [speed, setSpeed] = useState(1);
  const stepSpeed = useCallback((direction: -1 | 1) => {
    setSpeed((now) => SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, SPEEDS.indexOf(now as (typeof SPEEDS)[number]) + direction))]);
  }, []);
  // A new element (another source) starts at its default rate: the chosen speed follows it there.
  const playingUrl = source.value?.url;
  useEffect(() => {
    if (ref.current) ref.current.playbackRate = speed;
  }, [speed, playingUrl]);

  const read = useCallback(() => {
    const el = ref.current;
    if (el) setNowMs(Math.round(el.currentTime * 1000));
  }, []);

  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const tick = () => {
      read();
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, read]);

  const seek = useCallback((ms: number, play = false) => {
    const at = Math.max(0, ms);
    setNowMs(at);
    const el = ref.current;
    // Before the media has loaded (or before its element exists) the seek waits for it.
    if (!el || el.readyState === 0) pendingSeek.current = at;
    else el.currentTime = at / 1000;
    if (play) void el?.play().catch(() => {});
  }, []);

  const toggle = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    if (el.paused) void el.play().catch(() => {});
    else el.pause();
  }, []);

  const skip = useCallback((deltaMs: number) => {
    const el = ref.current;
    if (!el) return;
    const duration = Number.isFinite(el.duration) ? el.duration * 1000 : Infinity;
    seek(Math.min(duration, el.currentTime * 1000 + deltaMs));
  }, [seek]);

  const mediaEvents = {
    onTimeUpdate: read,
    onSeeked: read,
    onPlay: () => setPlaying(true),
    onPause: () => {
      setPlaying(false);
      read();
    },
    onEnded: () => setPlaying(false),
    onLoadedMetadata: () => {
      // A seek asked for before the media loaded (a search hit opened the session) lands now.
      const el = ref.current;
      if (el) el.playbackRate = speed;
      if (el && pendingSeek.current !== null) el.currentTime = pendingSeek.current / 1000;
      pendingSeek.current = null;
    },
  };

  return { source, hasMedia: !!source.value?.url, ref, nowMs, playing, mediaEvents, seek, toggle, skip, speed, setSpeed, stepSpeed };
}

/**
 * Space or K plays and pauses, J / L or the arrow keys skip back and forward, < and > play slower
 * and faster; none of them fires while typing (Space on a focused button keeps pressing that button).
 */
export function usePlaybackKeys(player: Pick<Player, 'toggle' | 'skip' | 'stepSpeed'>): void {
  const { toggle, skip, stepSpeed } = player;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || commandKey(e) || e.altKey || modalOpen() || isTypingTarget(e.target)) return;
      const onButton = e.target instanceof Element && e.target.closest('button, [role="menuitem"], a') !== null;
      let handled = true;
      // The keys come from the shortcut sheet's list (ui/shortcuts.ts).
      if (matches('playPause', e) && !(e.key === ' ' && onButton)) toggle();
      else if (matches('back', e)) skip(-SKIP_MS);
      else if (matches('forward', e)) skip(SKIP_MS);
      else if (matches('slower', e)) stepSpeed(-1);
      else if (matches('faster', e)) stepSpeed(1);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle, skip, stepSpeed]);
}
