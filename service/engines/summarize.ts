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

/**
 * Pairs of units the similarity looks at, at most: pairs are found through the words they share,
 * rarest words first, so past this budget only the commonest words (the least telling, as in
 * IDF) are left out, and a document of many short units costs a bounded time and memory instead
 * of n x n. Below it the scores are exactly those of the full matrix.
 */
export const MAX_SIMILAR_PAIRS = 2_000_000;

/**
 * TextRank scores over a sparse similarity graph: edge weight = shared words / (log|a| + log|b|),
 * PageRank with `damping` for `iterations` passes.
 */
export function textRank(sentences: string[], iterations = 30, damping = 0.85, maxPairs = MAX_SIMILAR_PAIRS): number[] {
  const n = sentences.length;
  const bags = sentences.map(terms);
  const postings = new Map<string, number[]>();
  bags.forEach((bag, i) => {
    for (const t of bag) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  // Shared-word counts per pair (i < j), key i * n + j.
  const common = new Map<number, number>();
  let budget = maxPairs;
  for (const list of [...postings.values()].sort((a, b) => a.length - b.length)) {
    const pairs = (list.length * (list.length - 1)) / 2;
    if (pairs > budget) break;
    budget -= pairs;
    for (let x = 0; x < list.length; x++) for (let y = x + 1; y < list.length; y++) {
      const key = list[x] * n + list[y];
      common.set(key, (common.get(key) ?? 0) + 1);
    }
  }
  // Adjacency lists in both directions with their weights.
  const edges: { to: number; w: number }[][] = bags.map(() => []);
  const out = new Float64Array(n);
  for (const [key, shared] of common) {
    const i = Math.floor(key / n);
    const j = key % n;
    const norm = Math.log(bags[i].size + 1) + Math.log(bags[j].size + 1);
    if (norm <= 0) continue;
    const w = shared / norm;
    edges[i].push({ to: j, w });
    edges[j].push({ to: i, w });
    out[i] += w;
    out[j] += w;
  }
  let score = new Float64Array(n).fill(1 / Math.max(1, n));
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(n).fill((1 - damping) / Math.max(1, n));
    for (let j = 0; j < n; j++) {
      if (out[j] <= 0) continue;
      const share = (damping * score[j]) / out[j];
      for (const e of edges[j]) next[e.to] += e.w * share;
    }
    score = next;
  }
  return [...score];
}
