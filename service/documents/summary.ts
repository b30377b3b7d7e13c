/**
 * An extractive summary of a document: cut it into sentence-like units, score them by TextRank
 * centrality (service/engines/summarize.ts), and keep the best units, in reading order with their
 * times, until about a quarter of the words are used (at least one unit).
 *
 * A recognised transcript has no punctuation (pocketsphinx writes none), so a unit ends at a
 * sentence mark when there is one, at a segment bound (a pause the decoder cut at), or at a clear
 * pause between two words; a unit still longer than MAX_UNIT_WORDS is cut at its longest pause.
 */
import type { DocumentContent, Word } from '../../common/transcript/model';
import { splitSentences, textRank } from '../engines/summarize';

/** The share of the source's words a summary may use. */
export const SUMMARY_RATIO = 0.25;
/** A gap between two words at least this long ends a unit. */
export const PAUSE_MS = 450;
const MAX_UNIT_WORDS = 24;
/**
 * Units TextRank ranks, at most (a 12-hour recording holds about 15,000 sentences): a document cut
 * into more (many tiny segments) has its neighbouring units joined in equal runs until it fits.
 */
export const MAX_SUMMARY_UNITS = 20_000;
const MIN_UNIT_WORDS = 4;

export interface SummaryUnit {
  text: string;
  start_ms: number;
  end_ms: number;
  words: number;
}

/** A chosen unit as a summary keeps it (its text and times). */
export type SummaryPick = Pick<SummaryUnit, 'text' | 'start_ms' | 'end_ms'>;

const SENTENCE_END = /[.!?]["')\]]*$/;

function unitOf(words: Word[]): SummaryUnit {
  return { text: words.map((w) => w.text).join(' '), start_ms: words[0].start_ms, end_ms: words.at(-1)!.end_ms, words: words.length };
}

/** Cuts a run of words at its longest inner pause until every piece is short enough. */
function cutLong(words: Word[]): Word[][] {
  if (words.length <= MAX_UNIT_WORDS) return [words];
  let at = Math.floor(words.length / 2);
  let longest = -1;
  // Only cut where both sides keep a few words; ties go to the cut nearest the middle.
  for (let i = MIN_UNIT_WORDS; i <= words.length - MIN_UNIT_WORDS; i++) {
    const gap = words[i].start_ms - words[i - 1].end_ms;
    if (gap > longest || (gap === longest && Math.abs(i - words.length / 2) < Math.abs(at - words.length / 2))) {
      longest = gap;
      at = i;
    }
  }
  return [...cutLong(words.slice(0, at)), ...cutLong(words.slice(at))];
}

/** Joins a run shorter than MIN_UNIT_WORDS to the neighbour it is closer to in time (inside one segment). */
function joinShort(runs: Word[][]): Word[][] {
  const out = runs.map((r) => [...r]);
  for (let i = 0; i < out.length && out.length > 1; ) {
    if (out[i].length >= MIN_UNIT_WORDS || SENTENCE_END.test(out[i].at(-1)!.text)) {
      i++;
      continue;
    }
    const gapBefore = i > 0 ? out[i][0].start_ms - out[i - 1].at(-1)!.end_ms : Infinity;
    const gapAfter = i < out.length - 1 ? out[i + 1][0].start_ms - out[i].at(-1)!.end_ms : Infinity;
    if (gapBefore <= gapAfter) {
      out[i - 1].push(...out[i]);
      out.splice(i, 1);
    } else {
      out[i + 1].unshift(...out[i]);
      out.splice(i, 1);
    }
  }
  return out;
}

/** The words of one segment (or cue) as sentence-like runs. */
function runsOf(words: Word[]): Word[][] {
  const runs: Word[][] = [];
  let run: Word[] = [];
  words.forEach((w, i) => {
    run.push(w);
    const next = words[i + 1];
    if (!next || SENTENCE_END.test(w.text) || next.start_ms - w.end_ms >= PAUSE_MS) {
      runs.push(run);
      run = [];
    }
  });
  return joinShort(runs).flatMap(cutLong);
}

/** Joins runs of `per` neighbouring units into one. */
function joinUnits(units: SummaryUnit[], per: number): SummaryUnit[] {
  const out: SummaryUnit[] = [];
  for (let i = 0; i < units.length; i += per) {
    const run = units.slice(i, i + per);
    out.push({ text: run.map((u) => u.text).join(' '), start_ms: run[0].start_ms, end_ms: run.at(-1)!.end_ms, words: run.reduce((n, u) => n + u.words, 0) });
  }
  return out;
}

/** The document's sentence-like units in reading order, at most MAX_SUMMARY_UNITS of them. */
export function summaryUnits(content: DocumentContent, maxUnits = MAX_SUMMARY_UNITS): SummaryUnit[] {
  const units = allUnits(content);
  return units.length > maxUnits ? joinUnits(units, Math.ceil(units.length / maxUnits)) : units;
}

function allUnits(content: DocumentContent): SummaryUnit[] {
  if (content.kind === 'transcript') {
    return content.segments.flatMap((s) => runsOf(s.words.filter((w) => w.text.trim().length > 0)).map(unitOf));
  }
  // A cue has lines, not timed words: its sentences share the cue's time.
  const units: SummaryUnit[] = [];
  for (const cue of content.cues) {
    for (const text of splitSentences(cue.lines.join(' '))) {
      const last = units.at(-1);
      // A sentence running on across cues joins the unit before it.
      if (last && !SENTENCE_END.test(last.text)) {
        last.text += ` ${text}`;
        last.end_ms = cue.end_ms;
        last.words += text.split(/\s+/).length;
      } else units.push({ text, start_ms: cue.start_ms, end_ms: cue.end_ms, words: text.split(/\s+/).length });
    }
  }
  return units;
}

/**
 * The best unit, then the best-scoring others whose words fit in `ratio` of the source's, in
 * reading order. TextRank ties (units sharing no words with any other) go to the earlier unit.
 */
export function pickSummary(units: SummaryUnit[], ratio = SUMMARY_RATIO): SummaryUnit[] {
  if (units.length === 0) return [];
  const total = units.reduce((n, u) => n + u.words, 0);
  const budget = Math.max(1, Math.round(total * ratio));
  const scores = textRank(units.map((u) => u.text));
  const order = units.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  const kept: number[] = [];
  let used = 0;
  // The best unit always (a summary has at least one sentence, and the most central one beats a
  // shorter one that merely fits), then the next best that still fit the budget.
  for (const i of order) {
    if (kept.length > 0 && used + units[i].words > budget) continue;
    kept.push(i);
    used += units[i].words;
  }
  return kept.sort((a, b) => a - b).map((i) => units[i]);
}

/** The summary as text: punctuated units read on; unpunctuated ones are separated by an ellipsis, which says words were left out. */
export function summaryText(units: Pick<SummaryUnit, 'text'>[]): string {
  return units.map((u, i) => (i === 0 ? '' : SENTENCE_END.test(units[i - 1].text) ? ' ' : ' … ') + u.text).join('');
}
