/**
 * Three-way merge of document content, segment by segment (cue by cue for captions), keyed by id.
 * A unit changed on one side only takes that side; changed identically on both sides, either;
 * changed differently on both sides, the service's version stays in place and the unit is
 * reported as a conflict so the caller can save our whole version as a conflict copy.
 */
import type { Cue, DocumentContent, Segment, Speaker } from '../../common/transcript/model';

export interface MergeResult {
  content: DocumentContent;
  /** Ids of units both sides changed differently. */
  conflicts: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function mergeUnits<T extends { id: string; start_ms: number }>(base: T[] | null, ours: T[], theirs: T[], conflicts: string[]): T[] {
  const b = new Map((base ?? []).map((u) => [u.id, u]));
  const o = new Map(ours.map((u) => [u.id, u]));
  const t = new Map(theirs.map((u) => [u.id, u]));
  const out: T[] = [];
  const ids = new Set([...theirs.map((u) => u.id), ...ours.map((u) => u.id)]);
  for (const id of ids) {
    const bu = b.get(id);
    const ou = o.get(id);
    const tu = t.get(id);
    // Without a base (it was lost), every difference counts as a change on both sides.
    const oursChanged = base === null ? !same(ou, tu) : !same(bu, ou);
    const theirsChanged = base === null ? !same(ou, tu) : !same(bu, tu);
    let pick: T | undefined;
    if (!oursChanged) pick = tu;
    else if (!theirsChanged) pick = ou;
    else if (same(ou, tu)) pick = tu;
    else {
      conflicts.push(id);
      pick = tu;
    }
    if (pick) out.push(pick);
  }
  // Units are timed; order by time, keeping the service's order among equal starts.
  return out.map((u, i) => ({ u, i })).sort((x, y) => x.u.start_ms - y.u.start_ms || x.i - y.i).map((x) => x.u);
}

function mergeSpeakers(base: Speaker[] | null, ours: Speaker[], theirs: Speaker[]): Speaker[] {
  const withTime = (s: Speaker[]) => s.map((x, i) => ({ ...x, start_ms: i }));
  const merged = mergeUnits(base ? withTime(base) : null, withTime(ours), withTime(theirs), []);
  return merged.map(({ start_ms: _i, ...s }) => s);
}

function pickScalar<T>(base: T | undefined, ours: T, theirs: T): T {
  return base !== undefined && same(base, theirs) ? ours : theirs;
}

export function mergeContent(base: DocumentContent | null, ours: DocumentContent, theirs: DocumentContent): MergeResult {
  const conflicts: string[] = [];
  if (ours.kind !== theirs.kind || (base && base.kind !== ours.kind)) {
    return { content: theirs, conflicts: same(ours, theirs) ? [] : ['*'] };
  }
  const speakers = mergeSpeakers(base?.speakers ?? null, ours.speakers, theirs.speakers);
  if (ours.kind === 'transcript' && theirs.kind === 'transcript') {
    const b = base?.kind === 'transcript' ? base : null;
    const segments = mergeUnits<Segment>(b?.segments ?? null, ours.segments, theirs.segments, conflicts);
    const summary = pickScalar(b?.summary, ours.summary, theirs.summary);
    return { content: { ...theirs, speakers, segments, ...(summary !== undefined ? { summary } : {}) }, conflicts };
  }
  if (ours.kind === 'caption' && theirs.kind === 'caption') {
    const b = base?.kind === 'caption' ? base : null;
    const cues = mergeUnits<Cue>(b?.cues ?? null, ours.cues, theirs.cues, conflicts);
    return { content: { ...theirs, speakers, cues }, conflicts };
  }
  return { content: theirs, conflicts: ['*'] };
}
