/**
 * Captions that follow their transcript. When a transcript changes (words, speakers, timing), its
 * caption document is cut again from the new transcript with the caption profile; a cue a person
 * edited by hand is kept wherever the words under it did not change; and the result says which
 * cues changed, so the app can show them.
 *
 * "The words under a cue did not change" is decided by cutting the old transcript too: a cue the
 * profile makes from the old transcript that it also makes, identically, from the new one covers
 * unchanged words. Cutting is per segment (transcriptToCaptions never crosses one), so a change
 * stays local to its segment's cues.
 */
import { transcriptToCaptions, type CaptionProfile, type CaptionProfileId } from './captions';
import type { CaptionContent, Cue, TranscriptContent } from './model';

export interface FollowInput {
  /** The transcript the captions were last made from or kept in step with. */
  before: TranscriptContent;
  /** The transcript as it is now. */
  after: TranscriptContent;
  /** The caption document as it is now (possibly edited by hand). */
  captions: CaptionContent;
  profile?: CaptionProfile | CaptionProfileId;
}

export interface FollowResult {
  content: CaptionContent;
  /** Ids (in `content`) of cues that are new or differ from the caption document before. */
  changed: string[];
  /** Ids (in the caption document before) of cues that are gone. */
  removed: string[];
  /** Ids of hand-edited cues kept because the words under them did not change. */
  keptEdits: string[];
}

/** A cue start may move this much when a neighbour is retimed, and still be the same cue. */
const START_SLACK_MS = 250;

const text = (c: Cue) => c.lines.join(' ').replace(/\s+/g, ' ').trim();
const sameWords = (a: Cue, aText: string, b: Cue, bText: string) => aText === bText && (a.speaker_id ?? null) === (b.speaker_id ?? null) && Math.abs(a.start_ms - b.start_ms) <= START_SLACK_MS;
const identical = (a: Cue, b: Cue) =>
  a.start_ms === b.start_ms && a.end_ms === b.end_ms && (a.speaker_id ?? null) === (b.speaker_id ?? null) && a.lines.length === b.lines.length && a.lines.every((l, i) => l === b.lines[i]);

function overlap(a: Cue, b: Cue): number {
  return Math.max(0, Math.min(a.end_ms, b.end_ms) - Math.max(a.start_ms, b.start_ms));
}

/**
 * Pairs each cue generated from the old transcript with the current cue that stands for it: the
 * current cue overlapping it most in time (each used once, the earliest in the document on a tie),
 * or, for a cue of no length, the first one starting at the same time.
 *
 * Only current cues starting within the longest cue's length before the generated one's start can
 * overlap it, so each looks at that window of the cues sorted by start (3 hours of captions are
 * 2,700 cues: comparing every pair cost a save more than the rest of the rebuild together).
 */
function pairCurrent(generated: Cue[], current: Cue[]): (Cue | undefined)[] {
  const byStart = current.map((_, j) => j).sort((a, b) => current[a].start_ms - current[b].start_ms || a - b);
  const longest = current.reduce((m, c) => Math.max(m, c.end_ms - c.start_ms), 0);
  /** The first place in byStart whose cue starts at or after `ms`. */
  const firstFrom = (ms: number) => {
    let lo = 0;
    let hi = byStart.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (current[byStart[mid]].start_ms < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const used = new Set<number>();
  return generated.map((g) => {
    // Overlapping cues start before g ends and after g.start - longest; one of no length, at g's start.
    const window: number[] = [];
    for (let k = firstFrom(g.start_ms - longest); k < byStart.length && current[byStart[k]].start_ms <= Math.max(g.end_ms, g.start_ms); k++) window.push(byStart[k]);
    window.sort((a, b) => a - b);
    let best = -1;
    let bestOverlap = 0;
    for (const j of window) {
      if (used.has(j)) continue;
      const o = overlap(g, current[j]);
      if (o > bestOverlap || (o === 0 && bestOverlap === 0 && best < 0 && current[j].start_ms === g.start_ms)) {
        best = j;
        bestOverlap = o;
      }
    }
    if (best < 0) return undefined;
    used.add(best);
    return current[best];
  });
}

export function followTranscript(input: FollowInput): FollowResult {
  const oldCut = transcriptToCaptions(input.before, input.profile).cues;
  const newCut = transcriptToCaptions(input.after, input.profile);
  const current = input.captions.cues;
  const standsFor = pairCurrent(oldCut, current);

  const usedIds = new Set(current.map((c) => c.id));
  let next = current.length + newCut.cues.length;
  const freshId = () => {
    while (usedIds.has(`c${++next}`));
    usedIds.add(`c${next}`);
    return `c${next}`;
  };

  const cues: Cue[] = [];
  const changed: string[] = [];
  const keptEdits: string[] = [];
  const reused = new Set<string>();
  const oldText = oldCut.map(text);
  // An identical cue starts at the same time: look among those only.
  const startingAt = new Map<number, Cue[]>();
  for (const c of current) {
    const at = startingAt.get(c.start_ms);
    if (at) at.push(c);
    else startingAt.set(c.start_ms, [c]);
  }
  let g = 0; // old cuts are consumed in order, so a repeated line matches its own occurrence
  for (const cut of newCut.cues) {
    const cutText = text(cut);
    let k = g;
    while (k < oldCut.length && !sameWords(oldCut[k], oldText[k], cut, cutText)) k++;
    const mine = k < oldCut.length ? standsFor[k] : undefined;
    if (k < oldCut.length) g = k + 1;
    if (mine && !reused.has(mine.id)) {
      reused.add(mine.id);
      // The words under it are unchanged: the current cue stands, hand edits and all.
      cues.push(mine);
      if (!identical(mine, oldCut[k])) keptEdits.push(mine.id);
      continue;
    }
    const same = startingAt.get(cut.start_ms)?.find((c) => !reused.has(c.id) && identical(c, cut));
    if (same) {
      reused.add(same.id);
      cues.push(same);
      continue;
    }
    const id = freshId();
    cues.push({ ...cut, id });
    changed.push(id);
  }
  cues.sort((a, b) => a.start_ms - b.start_ms);
  const removed = current.filter((c) => !reused.has(c.id)).map((c) => c.id);
  return { content: { ...input.captions, speakers: newCut.speakers, cues }, changed, removed, keptEdits };
}
