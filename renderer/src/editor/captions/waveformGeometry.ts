/** Which cue edge a point on the waveform grabs, and how far a dragged edge may go. */
import type { Cue } from '../../../../common/transcript';

export interface Drag {
  cueId: string;
  edge: 'start' | 'end';
  /** Where the edge is now, while dragging. */
  ms: number;
}

/** The cue edge within `tolerance` ms of `ms` (the nearest), or null. Cues are sorted by start. */
export function edgeAt(cues: Cue[], ms: number, tolerance: number): Omit<Drag, 'ms'> | null {
  let best: Omit<Drag, 'ms'> | null = null;
  let bestD = tolerance;
  // Binary search to the cue starting at or before ms + tolerance, then look at it and its neighbours.
  let lo = 0;
  let hi = cues.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cues[mid].start_ms <= ms + tolerance) lo = mid;
    else hi = mid - 1;
  }
  for (let i = Math.max(0, lo - 1); i <= Math.min(cues.length - 1, lo + 1); i++) {
    for (const edge of ['start', 'end'] as const) {
      const d = Math.abs((edge === 'start' ? cues[i].start_ms : cues[i].end_ms) - ms);
      if (d <= bestD) {
        bestD = d;
        best = { cueId: cues[i].id, edge };
      }
    }
  }
  return best;
}

/** A dragged edge stays inside its neighbours and its own cue (a cue lasts at least 1 ms). */
export function clampEdge(cues: Cue[], drag: Omit<Drag, 'ms'>, ms: number): number {
  const i = cues.findIndex((c) => c.id === drag.cueId);
  const q = cues[i];
  if (!q) return ms;
  if (drag.edge === 'start') return Math.round(Math.min(q.end_ms - 1, Math.max(cues[i - 1]?.end_ms ?? 0, ms)));
  return Math.round(Math.max(q.start_ms + 1, Math.min(cues[i + 1]?.start_ms ?? Infinity, ms)));
}
