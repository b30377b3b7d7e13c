/**
 * A conflict copy beside its original, unit by unit (segments of a transcript, cues of captions),
 * matched by id: what the side-by-side view shows, and the content that results from the user's
 * pick for each unit that differs. "ours" is the copy (the edit the service did not take),
 * "theirs" the original (the service's version, merged with our other edits).
 */
import type { Cue, DocumentContent, Segment, Speaker } from './model';

export type ConflictSide = 'ours' | 'theirs';

/** One side of a unit as the view shows it. */
export interface ConflictUnitView {
  start_ms: number;
  end_ms: number;
  /** The speaker's name, when the unit has one. */
  speaker: string | null;
  text: string;
}

export interface ConflictRow {
  id: string;
  /** Equal on both sides (nothing to pick), or differs (present on one side only counts too). */
  status: 'equal' | 'differs';
  /** Both sides changed it since the common version (the clash that made the copy); otherwise only one side did. */
  bothChanged: boolean;
  theirs: ConflictUnitView | null;
  ours: ConflictUnitView | null;
}

type Unit = Segment | Cue;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const unitsOf = (c: DocumentContent): Unit[] => (c.kind === 'transcript' ? c.segments : c.cues);
const textOf = (u: Unit): string => ('words' in u ? u.words.map((w) => w.text).join(' ') : u.lines.join('\n'));

function view(u: Unit | undefined, speakers: Speaker[]): ConflictUnitView | null {
  if (!u) return null;
  const sid = u.speaker_id ?? null;
  return { start_ms: u.start_ms, end_ms: u.end_ms, speaker: sid === null ? null : (speakers.find((s) => s.id === sid)?.name ?? sid), text: textOf(u) };
}

/** The ids of both sides in reading order: by start time, the original's order among equal starts. */
function orderedIds(theirs: Unit[], ours: Unit[]): string[] {
  const seen = new Set<string>();
  const all: { id: string; start: number; i: number }[] = [];
  for (const u of [...theirs, ...ours]) {
    if (seen.has(u.id)) continue;
    seen.add(u.id);
    all.push({ id: u.id, start: u.start_ms, i: all.length });
  }
  return all.sort((a, b) => a.start - b.start || a.i - b.i).map((x) => x.id);
}

/** The two documents aligned by unit id. Contents of different kinds cannot be paired: throws. */
export function alignConflict(original: DocumentContent, copy: DocumentContent, clashed: readonly string[] = []): ConflictRow[] {
  if (original.kind !== copy.kind) throw new Error('The copy and its original are not the same kind of document, so they cannot be compared segment by segment.');
  const t = new Map(unitsOf(original).map((u) => [u.id, u]));
  const o = new Map(unitsOf(copy).map((u) => [u.id, u]));
  const both = new Set(clashed);
  return orderedIds(unitsOf(original), unitsOf(copy)).map((id) => {
    const tu = t.get(id);
    const ou = o.get(id);
    const equal = same(tu, ou);
    return { id, status: equal ? 'equal' : 'differs', bothChanged: !equal && both.has(id), theirs: view(tu, original.speakers), ours: view(ou, copy.speakers) };
  });
}

/** The ids of the units that differ and have no pick in `choices`. */
export function undecided(rows: readonly ConflictRow[], choices: Readonly<Record<string, ConflictSide>>): string[] {
  return rows.filter((r) => r.status === 'differs' && choices[r.id] !== 'ours' && choices[r.id] !== 'theirs').map((r) => r.id);
}

/**
 * The original with each differing unit taken from the side picked for it (a unit absent on the
 * picked side goes). Everything else (speakers, summary, equal units) is the original's; a speaker
 * a picked unit of ours names and the original lacks comes along. Throws when a pick is missing.
 */
export function applyConflictChoices(original: DocumentContent, copy: DocumentContent, choices: Readonly<Record<string, ConflictSide>>): DocumentContent {
  const missing = undecided(alignConflict(original, copy), choices);
  if (missing.length) throw new Error(`Pick a version for every segment that differs (${missing.length} still undecided).`);
  const t = new Map(unitsOf(original).map((u) => [u.id, u]));
  const o = new Map(unitsOf(copy).map((u) => [u.id, u]));
  const units: Unit[] = [];
  for (const id of orderedIds(unitsOf(original), unitsOf(copy))) {
    const u = choices[id] === 'ours' && !same(t.get(id), o.get(id)) ? o.get(id) : t.get(id);
    if (u) units.push(u);
  }
  const speakers = [...original.speakers];
  for (const u of units) {
    const sid = u.speaker_id ?? null;
    if (sid !== null && !speakers.some((s) => s.id === sid)) {
      const s = copy.speakers.find((x) => x.id === sid);
      if (s) speakers.push(s);
    }
  }
  if (original.kind === 'transcript') return { ...original, speakers, segments: units as Segment[] };
  return { ...original, speakers, cues: units as Cue[] };
}

export interface DiffPart {
  text: string;
  /** Not in the other side's text at this place. */
  changed: boolean;
}

/**
 * Word-level difference of two texts: each side's words, marked where they are not part of the
 * longest common run of words; the spacing and line breaks between them are kept. Long texts
 * (beyond `limit` words a side) are marked whole, to keep the table small.
 */
export function wordDiff(a: string, b: string, limit = 400): { a: DiffPart[]; b: DiffPart[] } {
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.length > limit || tb.length > limit) return { a: [{ text: a, changed: a !== b }], b: [{ text: b, changed: a !== b }] };
  const wa = ta.map((t) => t.word);
  const wb = tb.map((t) => t.word);
  // lcs[i][j]: the longest common subsequence of wa[i..] and wb[j..].
  const lcs = Array.from({ length: wa.length + 1 }, () => new Array<number>(wb.length + 1).fill(0));
  for (let i = wa.length - 1; i >= 0; i--) for (let j = wb.length - 1; j >= 0; j--) lcs[i][j] = wa[i] === wb[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ka = new Array<boolean>(wa.length).fill(false);
  const kb = new Array<boolean>(wb.length).fill(false);
  for (let i = 0, j = 0; i < wa.length && j < wb.length; ) {
    if (wa[i] === wb[j]) {
      ka[i++] = true;
      kb[j++] = true;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) i++;
    else j++;
  }
  return { a: runs(ta, ka), b: runs(tb, kb) };
}

/** Each word with the whitespace before it. */
function tokens(text: string): { sep: string; word: string }[] {
  return [...text.matchAll(/(\s*)(\S+)/g)].map((m) => ({ sep: m[1], word: m[2] }));
}

/** Words joined into runs of the same mark; a space between two marked words stays inside the mark, others outside. */
function runs(words: { sep: string; word: string }[], kept: boolean[]): DiffPart[] {
  const out: DiffPart[] = [];
  const push = (text: string, changed: boolean) => {
    const last = out.at(-1);
    if (last && last.changed === changed) last.text += text;
    else out.push({ text, changed });
  };
  words.forEach((w, i) => {
    const changed = !kept[i];
    if (w.sep) push(w.sep, changed && out.at(-1)?.changed === true);
    push(w.word, changed);
  });
  return out;
}
