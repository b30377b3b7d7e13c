import { useEffect, useRef } from 'react';
import { CAPTION_PROFILES, type CaptionContent, type CaptionProfileId, type DocumentContent } from '../../../../common/transcript';
import { modalOpen } from '../../lib/keys';
import { matches, type ShortcutId } from '../../ui/shortcuts';
import type { Edit } from '../useEdit';
import { frameMs, nudgeCue, setEdgeAt, snapToPrevious } from './cueTools';

/** The cue the keys act on: the one whose row has the focus, else the one playing. */
function targetCue(c: CaptionContent, currentCue: number): string | null {
  const row = document.activeElement?.closest('.cues [data-item]');
  const id = row?.getAttribute('data-item');
  if (id && c.cues.some((q) => q.id === id)) return id;
  return c.cues[currentCue]?.id ?? null;
}

/**
 * The caption timing keys (ui/shortcuts.ts, group "Timing captions"): start or end from the
 * playhead, nudge by 100 ms or a frame, snap after the previous cue. Each is one undoable edit.
 * They use Alt, so they work while typing in a cue's text too; on a finished document they only say why not.
 */
export function useCueTiming(opts: { content: DocumentContent | null; edit: Edit; profile: CaptionProfileId; nowMs: number; currentCue: number; say: (text: string, error?: boolean) => void; readOnly: boolean }): void {
  const latest = useRef(opts);
  latest.current = opts;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || modalOpen()) return;
      const { content, edit, profile, nowMs, currentCue, say, readOnly } = latest.current;
      if (content?.kind !== 'caption') return;
      const p = CAPTION_PROFILES[profile];
      const frame = frameMs(p);
      const moves: [ShortcutId, string, (c: CaptionContent, id: string) => CaptionContent][] = [
        ['cueStartHere', 'set cue start', (c, id) => setEdgeAt(c, id, 'start', nowMs)],
        ['cueEndHere', 'set cue end', (c, id) => setEdgeAt(c, id, 'end', nowMs)],
        ['cueEarlier', 'move cue', (c, id) => nudgeCue(c, id, -100)],
        ['cueLater', 'move cue', (c, id) => nudgeCue(c, id, 100)],
        ['cueFrameEarlier', 'move cue', (c, id) => nudgeCue(c, id, -frame)],
        ['cueFrameLater', 'move cue', (c, id) => nudgeCue(c, id, frame)],
        ['cueSnap', 'snap cue', (c, id) => snapToPrevious(c, id, p)],
      ];
      const found = moves.find(([id]) => matches(id, e));
      if (!found) return;
      e.preventDefault(); // Alt+Left is the browser's Back
      // FinishedLock would drop the edit unseen; say why nothing moves instead.
      if (readOnly) {
        say('This document is marked finished: reopen it to retime its cues.', true);
        return;
      }
      const id = targetCue(content, currentCue);
      if (!id) {
        say('Click in a cue, or play to one, to retime it.', true);
        return;
      }
      const [, label, fn] = found;
      edit(label, (c) => (c.kind === 'caption' ? fn(c, id) : c));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
