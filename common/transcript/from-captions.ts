/** A transcript from captions: one segment a cue, words timed across the cue by their length. */
import type { CaptionContent, TranscriptContent } from './model';
import { CONTENT_VERSION } from './model';
import { interpolateWords, tokenize } from './realign';

export function captionsToTranscript(c: CaptionContent): TranscriptContent {
  return {
    kind: 'transcript',
    version: CONTENT_VERSION,
    speakers: c.speakers.map((s) => ({ ...s })),
    segments: c.cues.map((cue) => ({
      id: cue.id,
      speaker_id: cue.speaker_id ?? null,
      start_ms: cue.start_ms,
      end_ms: Math.max(cue.start_ms, cue.end_ms),
      words: interpolateWords(cue.lines.flatMap(tokenize), cue.start_ms, Math.max(cue.start_ms, cue.end_ms)),
    })),
  };
}
