/**
 * The last check before an engine's result is stored, for every engine (decode, align, upload):
 * every word and cue lies inside the media (0 to its duration) and words run in time order. A
 * result that breaks this fails the job with a clear error: wrong times must never be stored, as
 * every caption, click-to-seek and search jump would inherit them.
 */
import type { CaptionContent, TranscriptContent } from '../../common/transcript/model';
import { PermanentEngineError } from './engine';

const clock = (ms: number) => {
  const s = ms / 1000;
  return `${Math.floor(s / 60)}:${(s % 60).toFixed(2).padStart(5, '0')}`;
};

/** Throws PermanentEngineError naming the first time that breaks the rules; `durationMs` null: no media to compare with (upload mode without media). */
export function assertTimesInMedia(what: string, transcript: TranscriptContent, captions: CaptionContent | undefined, durationMs: number | null): void {
  const fail = (detail: string) => {
    throw new PermanentEngineError(`The ${what} has times that cannot be right (${detail}); nothing was stored.`);
  };
  const inside = (label: string, start: number, end: number) => {
    if (start < 0) fail(`${label} starts before 0`);
    if (end < start) fail(`${label} ends at ${clock(end)}, before it starts at ${clock(start)}`);
    if (durationMs !== null && end > durationMs) fail(`${label} ends at ${clock(end)}, after the end of the media at ${clock(durationMs)}`);
  };
  // Given captions first: their cues are what the user wrote, so the error names one of them.
  for (const cue of captions?.cues ?? []) inside(`the caption "${cue.lines.join(' ').slice(0, 40)}"`, cue.start_ms, cue.end_ms);
  let prev: { text: string; start_ms: number } | null = null;
  for (const s of transcript.segments) {
    for (const w of s.words) {
      inside(`the word "${w.text}"`, w.start_ms, w.end_ms);
      if (prev && w.start_ms < prev.start_ms) fail(`the word "${w.text}" at ${clock(w.start_ms)} comes after "${prev.text}" at ${clock(prev.start_ms)}`);
      prev = w;
    }
  }
}
