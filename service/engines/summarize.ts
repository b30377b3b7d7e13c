/**
 * Extractive summary by TextRank over sentences (Mihalcea & Tarau 2004): sentences are nodes,
 * edges weigh their word overlap normalised by log length, PageRank scores them, and the best
 * ones are returned in their original order. The units and the selection are service/documents/summary.ts.
 */
const STOP = new Set('a an and are as at be but by for from has have he her his i in is it its of on or she that the their they this to was we were will with you'.split(' '));

export function splitSentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function terms(sentence: string): Set<string> {
  return new Set(
    sentence
      .toLowerCase()
      .split(/[^\p{L}\p{N}']+/u)
      .filter((w) => w.length > 1 && !STOP.has(w)),
  );
}

export function textRank(sentences: string[], iterations = 30, damping = 0.85): number[] {
  const n = sentences.length;
  const bags = sentences.map(terms);
  const w: number[][] = bags.map((a, i) =>
    bags.map((b, j) => {
      if (i === j || a.size < 1 || b.size < 1) return 0;
      let common = 0;
      for (const t of a) if (b.has(t)) common++;
      const norm = Math.log(a.size + 1) + Math.log(b.size + 1);
      return norm > 0 ? common / norm : 0;
    }),
  );
  const out = w.map((row) => row.reduce((s, x) => s + x, 0));
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
