import { preciseClock } from '../../lib/format';

/**
 * Why a cue may not take these times, in words for a person, or null when it may: never negative,
 * start before end, and no overlap with the cues before and after (a caption format cannot show
 * two cues of one track at once, and the exporters would cut one of them short).
 */
export function cueTimeProblem(start: number, end: number, prevEnd: number | null, nextStart: number | null): string | null {
  if (start < 0 || end < 0) return 'Times cannot be negative.';
  if (start >= end) return 'The start must come before the end.';
  if (prevEnd !== null && start < prevEnd) return `This would overlap the cue before, which ends at ${preciseClock(prevEnd)}.`;
  if (nextStart !== null && end > nextStart) return `This would overlap the next cue, which starts at ${preciseClock(nextStart)}.`;
  return null;
}
