/**
 * Who spoke when, from the audio alone (any engine's words can then be given speakers):
 * 1. speech is cut into pieces at pauses (speech-regions' own levels and threshold);
 * 2. a piece longer than two windows is cut again where the Bayesian information criterion (BIC)
 *    prefers two Gaussians over one for the MFCCs either side (a speaker change without a pause);
 * 3. pieces are clustered bottom-up in two stages. First by BIC (full-covariance Gaussians), only
 *    while a merge is cheap, so each cluster is surely one voice. Then by the cross-likelihood
 *    ratio of Gaussian mixtures adapted from the recording's own (speaker-gmm.ts), while it says
 *    two clusters are one voice: a per-frame measure, so the stopping rule holds whatever the
 *    meeting's length, and the number of speakers is found, not given. Pieces too short to
 *    cluster join the cluster whose model explains them best.
 */
import { CEPSTRA } from './mfcc';
import { BackgroundModel, MixtureStats, adaptedLikelihoodRatio, crossLikelihoodRatio } from './speaker-gmm';
import { findPauses, FRAME_MS, type Span } from './speech-regions';

export interface Turn extends Span {
  /** 0-based, numbered in order of first appearance. */
  speaker: number;
}

export interface DiarizeOptions {
  /** Merge threshold of the first clustering stage (see deltaBic); higher merges more. */
  lambda?: number;
  /** BIC penalty weight for change points inside a piece. */
  changeLambda?: number;
  /** The second stage merges while the cross-likelihood ratio is above this; lower merges more. */
  sameVoice?: number;
}

const D = CEPSTRA;
/** Change detection compares this much speech either side of a candidate point. */
const CHANGE_WINDOW = 150;
/** Candidates are this many frames apart; found changes at least this far apart. */
const CHANGE_STEP = 5;
const MIN_CHANGE_GAP = 100;
/**
 * The first stage merges while the likelihood ratio over √n (deltaBic) is below this. Measured on
 * espeak-ng voices (19 cepstra): merges of one voice's sentences cost 17–41, of two voices' 29
 * and up (en-us+m3 with en-gb+m1). Its cost grows with a cluster's length, so this stage stops
 * early, with clusters of one voice, and leaves the rest to the second.
 */
const FIRST_STAGE_THRESHOLD = 20;
/**
 * The second stage merges while the cross-likelihood ratio is above this. Measured on espeak-ng
 * meetings of one to four voices, 3 to 28 turns, one under white noise (the meetings of
 * speakers.e2e, speaker-clustering.test.ts and bench/diarization.bench.ts): clusters of one voice
 * score -2.8 and up, of two voices -3.6 and below.
 */
const SAME_VOICE_RATIO = -3.3;
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

  private ownLogDet: number | undefined;

  /** log det of the covariance (kept: clustering asks for it once per pair). */
  logDet(): number {
    return (this.ownLogDet ??= covarianceLogDet(this, null));
  }
}

/** Scratch for covarianceLogDet: the clustering calls it for every pair, so it allocates nothing. */
const scratchCov = new Float64Array(D * D);
const scratchChol = new Float64Array(D * D);

/** log det of the covariance of a's frames, with b's too when given (a small ridge keeps short pieces invertible). */
function covarianceLogDet(a: Stats, b: Stats | null): number {
  const n = a.n + (b?.n ?? 0);
  for (let i = 0; i < D; i++) {
    const mi = (a.sum[i] + (b?.sum[i] ?? 0)) / n;
    for (let j = i; j < D; j++) {
      const mj = (a.sum[j] + (b?.sum[j] ?? 0)) / n;
      const c = (a.outer[i * D + j] + (b?.outer[i * D + j] ?? 0)) / n - mi * mj + (i === j ? 1e-3 : 0);
      scratchCov[i * D + j] = c;
      scratchCov[j * D + i] = c;
    }
  }
  return choleskyLogDet(scratchCov, scratchChol);
}

function choleskyLogDet(a: Float64Array, l: Float64Array): number {
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

/**
 * What merging a and b costs: the generalised likelihood ratio of one Gaussian against two, over
 * the square root of the frames (the plain BIC penalty, log n, let long stretches of one voice stay
 * apart: the ratio grows with n for different sentences of one speaker). Merge while below lambda.
 */
function deltaBic(a: Stats, b: Stats, lambda: number): number {
  const n = a.n + b.n;
  const glr = (0.5 * (n * covarianceLogDet(a, b) - a.n * a.logDet() - b.n * b.logDet())) / Math.sqrt(n);
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
  /** Its speech frames (indices into the features). */
  frames: number[];
  stats: Stats;
  cluster: number;
}

/**
 * Bottom-up clustering of `n` items: the pair of clusters with the highest `score` is merged
 * (`merge(into, from)`, both named by their first item) while that score is above `floor`. Each
 * cluster keeps its best partner, so a merge asks `score` only for pairs with the merged cluster,
 * and for the rows whose best partner it took. Answers each item's cluster.
 */
function agglomerate(n: number, score: (a: number, b: number) => number, merge: (into: number, from: number) => void, floor: number): number[] {
  const scores = new Float32Array(n * n);
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) scores[a * n + b] = scores[b * n + a] = score(a, b);
  const alive = new Set(Array.from({ length: n }, (_, i) => i));
  const partner = new Int32Array(n).fill(-1);
  const rescan = (a: number) => {
    partner[a] = -1;
    for (const b of alive) if (b !== a && (partner[a] < 0 || scores[a * n + b] > scores[a * n + partner[a]])) partner[a] = b;
  };
  for (const a of alive) rescan(a);
  const cluster = Array.from({ length: n }, (_, i) => i);
  for (;;) {
    let a = -1;
    for (const i of alive) if (partner[i] >= 0 && (a < 0 || scores[i * n + partner[i]] > scores[a * n + partner[a]])) a = i;
    if (a < 0 || !(scores[a * n + partner[a]] > floor)) break;
    const b = partner[a];
    const [into, from] = a < b ? [a, b] : [b, a];
    merge(into, from);
    alive.delete(from);
    for (let i = 0; i < n; i++) if (cluster[i] === from) cluster[i] = into;
    for (const o of alive) if (o !== into) scores[into * n + o] = scores[o * n + into] = score(into, o);
    rescan(into);
    for (const o of alive) {
      if (o === into) continue;
      if (partner[o] === from || partner[o] === into) rescan(o);
      else if (scores[o * n + into] > scores[o * n + partner[o]]) partner[o] = into;
    }
  }
  return cluster;
}

/** Speaker turns of a recording from its MFCCs (CEPSTRA per frame) and 10 ms levels in dBFS. */
export function diarize(feats: Float32Array, levels: Float32Array, threshold: number, opts: DiarizeOptions = {}): Turn[] {
  const lambda = opts.lambda ?? FIRST_STAGE_THRESHOLD;
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
      pieces.push({ span: { startMs, endMs }, frames: speech.slice(cuts[k], cuts[k + 1]), stats, cluster: -1 });
    }
  }
  const long = pieces.filter((p) => p.stats.n >= MIN_CLUSTER_FRAMES);
  if (long.length === 0) {
    // Too little speech to model anyone: one speaker at most.
    return pieces.length ? [{ startMs: pieces[0].span.startMs, endMs: pieces.at(-1)!.span.endMs, speaker: 0 }] : [];
  }
  const gaussians = long.map((p) => p.stats);
  const firstStage = agglomerate(
    long.length,
    (a, b) => -deltaBic(gaussians[a], gaussians[b], lambda),
    (into, from) => (gaussians[into] = gaussians[into].merged(gaussians[from])),
    0,
  );
  firstStage.forEach((cluster, i) => (long[i].cluster = cluster));
  const clusters = [...new Set(firstStage)];
  if (clusters.length === 1) {
    for (const p of pieces) p.cluster = clusters[0];
  } else {
    const model = BackgroundModel.train(feats, long.flatMap((p) => p.frames));
    const post = new Float64Array(model.components);
    const mixtureOf = (frames: number[]) => {
      const m = new MixtureStats(model.components);
      for (const f of frames) m.add(model, feats, f, post);
      return m;
    };
    const mixtures = clusters.map((c) => mixtureOf(long.filter((p) => p.cluster === c).flatMap((p) => p.frames)));
    const secondStage = agglomerate(
      clusters.length,
      (a, b) => crossLikelihoodRatio(model, mixtures[a], mixtures[b]),
      (into, from) => mixtures[into].absorb(mixtures[from]),
      opts.sameVoice ?? SAME_VOICE_RATIO,
    );
    const position = new Map(clusters.map((c, i) => [c, i]));
    for (const p of long) p.cluster = secondStage[position.get(p.cluster)!];
    const alive = [...new Set(secondStage)];
    for (const p of pieces) {
      if (p.cluster >= 0) continue;
      const m = mixtureOf(p.frames);
      let best = -Infinity;
      for (const c of alive) {
        const score = adaptedLikelihoodRatio(model, m, mixtures[c]);
        if (score > best) {
          best = score;
          p.cluster = c;
        }
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
