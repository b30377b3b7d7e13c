/**
 * TextRank for summaries (service/engines/summarize.ts) over 4,000 short units that share words
 * with many others (its worst case): the sparse similarity the service runs, beside the dense
 * n x n matrix it replaced (kept here as the peer, measured in the same run).
 * S2T_BENCH_SUMMARY_UNITS (default 4000; the dense peer grows as its square).
 */
import { textRank } from '../service/engines/summarize';
import { row, timeMs, type BenchModule, type BenchRow } from './harness';

const UNITS = Number(process.env.S2T_BENCH_SUMMARY_UNITS ?? 4000);
const VOCABULARY = 'budget library council river town walls spring flood school garden summer program children parents money office question answer meeting week'.split(' ');
const STOP = new Set('a an and are as at be but by for from has have he her his i in is it its of on or she that the their they this to was we were will with you'.split(' '));

const terms = (s: string) => new Set(s.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter((w) => w.length > 1 && !STOP.has(w)));

/** The dense TextRank the service ran before: an n x n matrix and 30 passes over it. */
function denseTextRank(sentences: string[], iterations = 30, damping = 0.85): number[] {
  const n = sentences.length;
  const bags = sentences.map(terms);
  const w = bags.map((a, i) =>
    bags.map((b, j) => {
      if (i === j || a.size < 1 || b.size < 1) return 0;
      let common = 0;
      for (const t of a) if (b.has(t)) common++;
      const norm = Math.log(a.size + 1) + Math.log(b.size + 1);
      return norm > 0 ? common / norm : 0;
    }),
  );
  const out = w.map((r) => r.reduce((s, x) => s + x, 0));
  let score = new Array<number>(n).fill(1 / Math.max(1, n));
  for (let it = 0; it < iterations; it++) {
    score = score.map((_, i) => {
      let sum = 0;
      for (let j = 0; j < n; j++) if (out[j] > 0) sum += (w[j][i] / out[j]) * score[j];
      return (1 - damping) / n + damping * sum;
    });
  }
  return score;
}

export const summaryBench: BenchModule = {
  name: 'summary',
  async run(): Promise<BenchRow[]> {
    const units = Array.from({ length: UNITS }, (_, s) => [0, 1, 2].map((w) => VOCABULARY[(s * 7 + w * 3) % VOCABULARY.length]).join(' '));
    const peer = await timeMs(() => void denseTextRank(units));
    const ours = await timeMs(() => void textRank(units));
    return [row({ name: `TextRank ${UNITS} short units: sparse vs dense matrix`, unit: 'ms', ours, peer, target: 'ratio <= 0.5', met: ours <= peer * 0.5 })];
  },
};
