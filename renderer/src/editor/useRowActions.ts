import { useMemo } from 'react';
import { assignSpeaker, mergeCues, mergeSegments, replaceSegmentText, splitCue, splitSegment, type TranscriptContent } from '../../../common/transcript';
import type { CueActions } from './captions/CueRow';
import type { SegmentActions } from './transcript/SegmentRow';
import type { Edit } from './useEdit';

function withSegmentText(t: TranscriptContent, segmentId: string, text: string): TranscriptContent {
  return { ...t, segments: t.segments.map((s) => (s.id === segmentId ? replaceSegmentText(s, text) : s)) };
}

interface Common {
  seek: (ms: number, play?: boolean) => void;
  registerDraft: (flush: (() => void) | null) => void;
}

/** What a transcript segment row can do to the document, each an undoable edit. */
export function useSegmentActions(edit: Edit, { seek, registerDraft }: Common, placeCursor: SegmentActions['placeCursor'], clearCursor: () => void): SegmentActions {
  return useMemo<SegmentActions>(
    () => ({
      seek,
      registerDraft,
      placeCursor,
      setText: (id, text) => edit('edit text', (c) => (c.kind === 'transcript' ? withSegmentText(c, id, text) : c)),
      split: (id, atWord, text) => {
        clearCursor();
        edit('split segment', (c) => (c.kind === 'transcript' ? splitSegment(text === undefined ? c : withSegmentText(c, id, text), id, atWord) : c), 'Put the cursor between two words to split there.');
      },
      mergeWithNext: (id) =>
        edit('merge segments', (c) => {
          if (c.kind !== 'transcript') return c;
          const i = c.segments.findIndex((s) => s.id === id);
          return mergeSegments(c, id, c.segments[i + 1]?.id ?? '');
        }, 'There is no next segment to merge with.'),
      assignSpeaker: (id, speakerId) => edit('assign speaker', (c) => assignSpeaker(c, id, speakerId)),
    }),
    [seek, registerDraft, placeCursor, clearCursor, edit],
  );
}

/** What a caption cue row can do to the document, each an undoable edit. */
export function useCueActions(edit: Edit, { seek, registerDraft }: Common): CueActions {
  return useMemo<CueActions>(
    () => ({
      seek,
      registerDraft,
      setLines: (id, lines) => edit('edit cue text', (c) => (c.kind === 'caption' ? { ...c, cues: c.cues.map((q) => (q.id === id ? { ...q, lines } : q)) } : c)),
      setTimes: (id, start_ms, end_ms) => edit('change cue times', (c) => (c.kind === 'caption' ? { ...c, cues: c.cues.map((q) => (q.id === id ? { ...q, start_ms, end_ms } : q)) } : c)),
      split: (id, atChar, lines) =>
        edit('split cue', (c) => (c.kind === 'caption' ? splitCue({ ...c, cues: c.cues.map((q) => (q.id === id ? { ...q, lines } : q)) }, id, atChar) : c), 'Click in the text between two words, then split.'),
      mergeWithNext: (id) =>
        edit('merge cues', (c) => {
          if (c.kind !== 'caption') return c;
          const i = c.cues.findIndex((q) => q.id === id);
          return mergeCues(c, id, c.cues[i + 1]?.id ?? '');
        }, 'There is no next cue to merge with.'),
    }),
    [seek, registerDraft, edit],
  );
}
