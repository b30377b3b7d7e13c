import { useCallback, useEffect, useRef, useState } from 'react';
import { isTypingTarget } from '../lib/keys';

const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End', 'ArrowUp', 'ArrowDown']);

/**
 * Keeps the element marked `.now` (the playing word) or `.current` (the playing segment or cue)
 * in view inside the scrolling element `el` whenever `currentKey` changes; a row the virtualized
 * list has not rendered is brought in by `revealOffScreen` (the list's scrollToIndex). The moment the person scrolls by
 * themselves, following stops (we never pull the page out from under them) until resume().
 * pause() is for the editor's own jumps (to a find match) that playback must not undo.
 * It also holds still while they type inside the container.
 */
export function useFollowPlayback(el: HTMLElement | null, currentKey: string | null, revealOffScreen: () => void): { following: boolean; resume: () => void; pause: () => void } {
  const reveal = useRef(revealOffScreen);
  reveal.current = revealOffScreen;
  const [following, setFollowing] = useState(true);

  useEffect(() => {
    if (!el) return;
    const stop = () => setFollowing(false);
    const onKey = (e: KeyboardEvent) => {
      if (SCROLL_KEYS.has(e.key) && !isTypingTarget(e.target)) stop();
    };
    // Pressing on the container itself (not on a child) is a grab of its scrollbar.
    const onPointer = (e: PointerEvent) => e.target === el && stop();
    el.addEventListener('wheel', stop, { passive: true });
    el.addEventListener('touchmove', stop, { passive: true });
    el.addEventListener('keydown', onKey);
    el.addEventListener('pointerdown', onPointer);
    return () => {
      el.removeEventListener('wheel', stop);
      el.removeEventListener('touchmove', stop);
      el.removeEventListener('keydown', onKey);
      el.removeEventListener('pointerdown', onPointer);
    };
  }, [el]);

  useEffect(() => {
    if (!following || !el || currentKey === null) return;
    if (el.contains(document.activeElement) && isTypingTarget(document.activeElement)) return;
    // Read where the target is in the next frame: the row list places and sizes rows itself, after
    // React's commit, so a row just drawn may not stand where it will be until then.
    const frame = requestAnimationFrame(() => {
      const target = el.querySelector<HTMLElement>('.now') ?? el.querySelector<HTMLElement>('.current');
      if (!target) {
        reveal.current();
        return;
      }
      const box = el.getBoundingClientRect();
      const at = target.getBoundingClientRect();
      // Scroll only when the target leaves a calm middle band, then bring it to a third from the top.
      if (at.top >= box.top + box.height * 0.1 && at.bottom <= box.bottom - box.height * 0.2) return;
      const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      el.scrollTo({ top: el.scrollTop + at.top - box.top - box.height / 3, behavior: smooth ? 'smooth' : 'auto' });
    });
    return () => cancelAnimationFrame(frame);
  }, [el, currentKey, following]);

  const resume = useCallback(() => setFollowing(true), []);
  const pause = useCallback(() => setFollowing(false), []);
  return { following, resume, pause };
}
