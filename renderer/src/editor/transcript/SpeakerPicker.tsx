import { useLayoutEffect, useRef, useState } from 'react';
import type { Speaker } from '../../../../common/transcript';

interface Props {
  /** 1-based, for the label. */
  n: number;
  speakerId: string | null;
  speakers: Speaker[];
  disabled: boolean;
  onPick(speakerId: string | null): void;
}

const nameOf = (speakers: Speaker[], id: string | null) => (id === null ? 'No speaker' : (speakers.find((s) => s.id === id)?.name || '(unnamed)'));

/**
 * A segment's speaker: a button showing the name, which becomes the select of all speakers when
 * pressed (its list opened at once) and a button again once a speaker is picked or focus leaves.
 * A select with its options is the costliest part of a row to create and lay out, and scrolling a
 * long transcript creates a few rows every frame: as a button, a scrolled frame costs about a
 * third less (docs/editor-performance.md).
 */
export function SpeakerPicker({ n, speakerId, speakers, disabled, onPick }: Props) {
  const [open, setOpen] = useState(false);
  const select = useRef<HTMLSelectElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  /** Closed by a pick or Escape (not by focus leaving): the button takes the focus back. */
  const refocus = useRef(false);
  const label = `Speaker of segment ${n}`;
  const close = (keepFocus: boolean) => {
    refocus.current = keepFocus;
    setOpen(false);
  };

  useLayoutEffect(() => {
    if (!open) {
      if (refocus.current) button.current?.focus();
      refocus.current = false;
      return;
    }
    const el = select.current;
    if (!el) return;
    el.focus();
    // The press that opened it lets the list open too; where it cannot, the focused select opens with a key.
    try {
      el.showPicker();
    } catch {
      /* no picker without a user's press (e.g. a test's programmatic click): the select stays, focused */
    }
  }, [open]);

  if (!open) {
    return (
      <button ref={button} type="button" className="speaker-select" aria-label={`${label}: ${nameOf(speakers, speakerId)}`} aria-haspopup="listbox" disabled={disabled} onClick={() => setOpen(true)}>
        {nameOf(speakers, speakerId)}
      </button>
    );
  }
  return (
    <select
      ref={select}
      className="speaker-select"
      aria-label={label}
      value={speakerId ?? ''}
      onChange={(e) => {
        onPick(e.target.value || null);
        close(true);
      }}
      onBlur={() => close(false)}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        close(true);
      }}
    >
      <option value="">No speaker</option>
      {speakers.map((s) => (
        <option key={s.id} value={s.id}>{s.name || '(unnamed)'}</option>
      ))}
    </select>
  );
}
