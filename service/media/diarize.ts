/**
 * Who spoke when, from the audio alone (any engine's words can then be given speakers):
 * 1. speech is cut into pieces at pauses (speech-regions' own levels and threshold);
 * 2. a piece longer than two windows is cut again where the Bayesian information criterion (BIC)
 *    prefers two Gaussians over one for the MFCCs either side (a speaker change without a pause);
 * 3. pieces are clustered bottom-up: the pair whose merge costs least by BIC (full-covariance
 *    Gaussians) is merged until every merge costs more than it saves, which is the stopping rule,
 *    so the number of speakers is found, not given. Pieces too short to estimate a covariance join
 *    the cluster that explains them best.
 */
import { CEPSTRA } from './mfcc';
import { findPauses, FRAME_MS, type Span } from './speech-regions';

export interface Turn extends Span {
  /** 0-based, numbered in order of first appearance. */
  speaker: number;
}

export interface DiarizeOptions {
  /** Merge threshold for clustering (see deltaBic); higher merges more. */
  lambda?: number;
  /** BIC penalty weight for change points inside a piece. */
  changeLambda?: number;
}

const D = CEPSTRA;
/** Change detection compares this much speech either side of a candidate point. */
const CHANGE_WINDOW = 150;
/** Candidates are this many frames apart; found changes at least this far apart. */
const CHANGE_STEP = 5;
const MIN_CHANGE_GAP = 100;
/**
 * Measured on espeak-ng voices (19 cepstra) in meetings of six turns: merges of one voice's pieces
 * cost up to 35, the cheapest merge of two voices (en-us+m3 with en-gb+m1) 44; f2 against m3 120.
 * The cost of one voice's merges grows with the cluster (in an 18-turn meeting it passes 39), so
 * long meetings are split into too many speakers rather than two people joined: the editor's
 * merge mends the first, nothing shows the second (bench/diarization.bench.ts measures it).
 */
const MERGE_THRESHOLD = 39;
/** A piece with fewer speech frames than this is not clustered but assigned (0.6 s). */
const MIN_CLUSTER_FRAMES = 60;

/** Sufficient statistics of a Gaussian over frames: count, sum, and the upper triangle of the sum of outer products. */
class Stats {
  n = 0;
  sum = new Float64Array(D);
  outer = new Float64Array(D * D);

  add(x: Float32Array, at: number): void {
    this.n++;
    for (let i = 0; i < D; i++) {
      const xi = x[at + i];
      this.sum[i] += xi;
      for (let j = i; j < D; j++) this.outer[i * D + j] += xi * x[at + j];
    }
  }

  merged(o: Stats): Stats {
    const s = new Stats();
    s.n = this.n + o.n;
    for (let i = 0; i < D; i++) s.sum[i] = this.sum[i] + o.sum[i];
    for (let i = 0; i < D * D; i++) s.outer[i] = this.outer[i] + o.outer[i];
    return s;
  }

  /** log det of the covariance (with a small ridge, so short pieces stay invertible). */
  logDet(): number {
    const n = this.n;
    const a = new Float64Array(D * D);
    for (let i = 0; i < D; i++)
      for (let j = i; j < D; j++) {
        const c = this.outer[i * D + j] / n - (this.sum[i] / n) * (this.sum[j] / n) + (i === j ? 1e-3 : 0);
        a[i * D + j] = c;
        a[j * D + i] = c;
      }
    return choleskyLogDet(a);
  }

  /** Average log-likelihood of the frames of `o` under this Gaussian (up to a constant). */
  scoreOf(o: Stats): number {
    const cov = new Float64Array(D * D);
    const mean = this.sum.map((v) => v / this.n);
    for (let i = 0; i < D; i++)
      for (let j = i; j < D; j++) {
        const c = this.outer[i * D + j] / this.n - mean[i] * mean[j] + (i === j ? 1e-3 : 0);
        cov[i * D + j] = c;
        cov[j * D + i] = c;
      }
    const inv = invert(cov);
    // E_o[(x-m)' inv (x-m)] from o's sums: tr(inv * S_o)/n - 2 m' inv mu_o + m' inv m.
    let quad = 0;
    const mo = o.sum.map((v) => v / o.n);
    for (let i = 0; i < D; i++)
      for (let j = 0; j < D; j++) {
        const so = (i <= j ? o.outer[i * D + j] : o.outer[j * D + i]) / o.n;
        quad += inv[i * D + j] * (so - mo[i] * mean[j] - mean[i] * mo[j] + mean[i] * mean[j]);
      }
    return -0.5 * (choleskyLogDet(cov) + quad);
  }
}

function choleskyLogDet(a: Float64Array): number {
  const l = new Float64Array(D * D);
  let logDet = 0;
  for (let i = 0; i < D; i++)
    for (let j = 0; j <= i; j++) {
      let s = a[i * D + j];
      for (let k = 0; k < j; k++) s -= l[i * D + k] * l[j * D + k];
      if (i === j) {
        const v = Math.sqrt(Math.max(s, 1e-12));
        l[i * D + i] = v;
        logDet += 2 * Math.log(v);
      } else l[i * D + j] = s / l[j * D + j];
    }
  return logDet;
}

/** Gauss-Jordan inverse of a small symmetric positive matrix. */
function invert(a: Float64Array): Float64Array {
  const m = Float64Array.from(a);
  const inv = new Float64Array(D * D);
  for (let i = 0; i < D; i++) inv[i * D + i] = 1;
  for (let c = 0; c < D; c++) {
    const p = m[c * D + c] || 1e-12;
    for (let k = 0; k < D; k++) {
      m[c * D + k] /= p;
      inv[c * D + k] /= p;
    }
    for (let r = 0; r < D; r++) {
      if (r === c) continue;
      const f = m[r * D + c];
      if (f === 0) continue;
      for (let k = 0; k < D; k++) {
        m[r * D + k] -= f * m[c * D + k];
        inv[r * D + k] -= f * inv[c * D + k];
      }
    }
  }
  return inv;
}

/**
 * What merging a and b costs: the generalised likelihood ratio of one Gaussian against two, over
 * the square root of the frames (the plain BIC penalty, log n, let long stretches of one voice stay
 * apart: the ratio grows with n for different sentences of one speaker). Merge while below lambda.
 */
function deltaBic(a: Stats, b: Stats, lambda: number): number {
  const ab = a.merged(b);
  const glr = (0.5 * (ab.n * ab.logDet() - a.n * a.logDet() - b.n * b.logDet())) / Math.sqrt(ab.n);
  return glr - lambda;
}

/** Change points inside one piece's speech frames (indices into `frames`), by diagonal BIC over sliding windows. */
function changePoints(feats: Float32Array, frames: number[], lambda: number): number[] {
  const n = frames.length;
  if (n < 2 * CHANGE_WINDOW) return [];
  // Prefix sums of x and x^2 per dimension over the piece's speech frames.
  const s1 = new Float64Array((n + 1) * D);
  const s2 = new Float64Array((n + 1) * D);
  for (let t = 0; t < n; t++)
    for (let i = 0; i < D; i++) {
      const x = feats[frames[t] * D + i];
      s1[(t + 1) * D + i] = s1[t * D + i] + x;
      s2[(t + 1) * D + i] = s2[t * D + i] + x * x;
    }
  const logDetDiag = (from: number, to: number) => {
    const m = to - from;
    let ld = 0;
    for (let i = 0; i < D; i++) {
      const mean = (s1[to * D + i] - s1[from * D + i]) / m;
      ld += Math.log(Math.max((s2[to * D + i] - s2[from * D + i]) / m - mean * mean, 0) + 1e-3);
    }
    return ld;
  };
  const penalty = 0.5 * 2 * D * Math.log(2 * CHANGE_WINDOW);
  const scores: { t: number; score: number }[] = [];
  for (let t = CHANGE_WINDOW; t + CHANGE_WINDOW <= n; t += CHANGE_STEP) {
    const w = CHANGE_WINDOW;
    const score = 0.5 * (2 * w * logDetDiag(t - w, t + w) - w * logDetDiag(t - w, t) - w * logDetDiag(t, t + w)) - lambda * penalty;
    scores.push({ t, score });
  }
  // Keep local peaks above zero, greedily from the highest, at least MIN_CHANGE_GAP apart.
  const cuts: number[] = [];
  for (const c of scores.filter((s) => s.score > 0).sort((a, b) => b.score - a.score)) {
    if (cuts.every((t) => Math.abs(t - c.t) >= MIN_CHANGE_GAP)) cuts.push(c.t);
  }
  return cuts.sort((a, b) => a - b);
}

interface Piece {
  span: Span;
  stats: Stats;
  cluster: number;
}

/** Speaker turns of a recording from its MFCCs (CEPSTRA per frame) and 10 ms levels in dBFS. */
export function diarize(feats: Float32Array, levels: Float32Array, threshold: number, opts: DiarizeOptions = {}): Turn[] {
  const lambda = opts.lambda ?? MERGE_THRESHOLD;
  const changeLambda = opts.changeLambda ?? 1.5;
  const frames = Math.min(levels.length, feats.length / D);
  const pauses = findPauses(levels.subarray(0, frames), threshold);
  // Speech between pauses: [end of one pause, start of the next).
  const regions: Span[] = [];
  let from = 0;
  for (const p of [...pauses, { startMs: frames * FRAME_MS, endMs: frames * FRAME_MS }]) {
    if (p.startMs > from) regions.push({ startMs: from, endMs: p.startMs });
    from = Math.max(from, p.endMs);
  }
  const pieces: Piece[] = [];
  for (const r of regions) {
    const speech: number[] = [];
    for (let f = r.startMs / FRAME_MS; f < r.endMs / FRAME_MS; f++) if (levels[f] >= threshold) speech.push(f);
    if (speech.length === 0) continue;
    const cuts = [0, ...changePoints(feats, speech, changeLambda), speech.length];
    for (let k = 0; k + 1 < cuts.length; k++) {
      const stats = new Stats();
      for (let t = cuts[k]; t < cuts[k + 1]; t++) stats.add(feats, speech[t] * D);
      const startMs = k === 0 ? r.startMs : speech[cuts[k]] * FRAME_MS;
      const endMs = k + 2 === cuts.length ? r.endMs : speech[cuts[k + 1]] * FRAME_MS;
      pieces.push({ span: { startMs, endMs }, stats, cluster: -1 });
    }
  }
  const long = pieces.filter((p) => p.stats.n >= MIN_CLUSTER_FRAMES);
  const clusters: Stats[] = long.map((p) => p.stats);
  long.forEach((p, i) => (p.cluster = i));
  const alive = new Set(clusters.keys());
  // Pairwise costs, updated for the merged cluster only.
  const cost = new Map<string, number>();
  const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
  for (const a of alive) for (const b of alive) if (a < b) cost.set(key(a, b), deltaBic(clusters[a], clusters[b], lambda));
  for (;;) {
    let best: [number, number] | null = null;
    let bestCost = 0;
    for (const [k, c] of cost) {
      if (c < bestCost) {
        bestCost = c;
        best = k.split(',').map(Number) as [number, number];
      }
    }
    if (!best) break;
    const [a, b] = best;
    clusters[a] = clusters[a].merged(clusters[b]);
    alive.delete(b);
    for (const p of long) if (p.cluster === b) p.cluster = a;
    for (const k of [...cost.keys()]) if (k.split(',').map(Number).includes(b)) cost.delete(k);
    for (const o of alive) if (o !== a) cost.set(key(a, o), deltaBic(clusters[a], clusters[o], lambda));
  }
  if (alive.size === 0) {
    // Too little speech to model anyone: one speaker at most.
    return pieces.length ? [{ startMs: pieces[0].span.startMs, endMs: pieces.at(-1)!.span.endMs, speaker: 0 }] : [];
  }
  for (const p of pieces) {
    if (p.cluster >= 0) continue;
    let bestScore = -Infinity;
    for (const c of alive) {
      const score = clusters[c].scoreOf(p.stats);
      if (score > bestScore) {
        bestScore = score;
        p.cluster = c;
      }
    }
  }
  // Number speakers by first appearance; join neighbouring pieces of one speaker.
  const order = new Map<number, number>();
  const turns: Turn[] = [];
  for (const p of pieces) {
    if (!order.has(p.cluster)) order.set(p.cluster, order.size);
    const speaker = order.get(p.cluster)!;
    const last = turns.at(-1);
    if (last && last.speaker === speaker) last.endMs = p.span.endMs;
    else turns.push({ ...p.span, speaker });
  }
  return turns;
}
