/**
 * The second clustering stage of the speaker step: a Gaussian mixture of the recording's own
 * speech (the background model, diagonal covariances) and, per cluster, the model's statistics of
 * its frames (occupancy and first moments per component). Two clusters are compared by their
 * cross-likelihood ratio: how much better each one's frames are explained by the other's
 * MAP-adapted model than by the background, per frame. A single Gaussian per cluster (the first
 * stage) mixes what is said with who says it, so its merge cost grows with a cluster's length; the
 * mixture's components stand for sounds, and the adapted offsets within each sound for the voice,
 * so the ratio is per frame and a stopping threshold holds for a short meeting and a long one alike.
 */
import { CEPSTRA } from './mfcc';

const D = CEPSTRA;
/** Components of the background model: enough for the broad classes of sounds. */
const MAX_COMPONENTS = 32;
/** Frames per component at the least, so each is estimated from enough speech. */
const FRAMES_PER_COMPONENT = 20;
/** Frames the background model is trained on at most (evenly spread); enough for 32 components. */
const MAX_TRAINING_FRAMES = 60_000;
const EM_ITERATIONS = 8;
/** MAP relevance factor: a component's offset counts fully once it has seen this many frames' weight. */
const RELEVANCE = 16;
/** A variance never falls below this share of the recording's own, so no component collapses onto a few frames. */
const VARIANCE_FLOOR = 0.01;

export class BackgroundModel {
  private constructor(
    readonly means: Float64Array[],
    readonly variances: Float64Array[],
    readonly weights: Float64Array,
    /** log weight - ½ log det, per component: the part of the log density that is not the distance. */
    private readonly consts: Float64Array,
  ) {}

  get components(): number {
    return this.means.length;
  }

  /**
   * Trained by EM on `frames` (indices into `feats`, CEPSTRA per frame). The components start at
   * frames spread evenly over the recording, so the same audio always gives the same model.
   */
  static train(feats: Float32Array, frames: number[]): BackgroundModel {
    const step = Math.max(1, Math.ceil(frames.length / MAX_TRAINING_FRAMES));
    const sample = frames.filter((_, i) => i % step === 0);
    const n = sample.length;
    const k = Math.max(1, Math.min(MAX_COMPONENTS, Math.floor(n / FRAMES_PER_COMPONENT)));
    const mean = new Float64Array(D);
    const square = new Float64Array(D);
    for (const f of sample)
      for (let i = 0; i < D; i++) {
        const x = feats[f * D + i];
        mean[i] += x;
        square[i] += x * x;
      }
    const overall = Float64Array.from(mean, (m, i) => Math.max(square[i] / n - (m / n) ** 2, 1e-6));
    const means = Array.from({ length: k }, (_, c) => {
      const f = sample[Math.floor(((c + 0.5) * n) / k)];
      return Float64Array.from(feats.subarray(f * D, f * D + D));
    });
    const variances = Array.from({ length: k }, () => Float64Array.from(overall));
    const weights = new Float64Array(k).fill(1 / k);
    let model = new BackgroundModel(means, variances, weights, constsOf(means, variances, weights));
    const post = new Float64Array(k);
    for (let it = 0; it < EM_ITERATIONS; it++) {
      const stats = new MixtureStats(k);
      for (const f of sample) stats.add(model, feats, f, post);
      for (let c = 0; c < k; c++) {
        const nc = stats.occupancy[c];
        weights[c] = Math.max(nc / n, 1e-5);
        if (nc < 1e-3) continue;
        for (let i = 0; i < D; i++) {
          const m = stats.first[c * D + i] / nc;
          means[c][i] = m;
          variances[c][i] = Math.max(stats.second[c * D + i] / nc - m * m, overall[i] * VARIANCE_FLOOR);
        }
      }
      model = new BackgroundModel(means, variances, weights, constsOf(means, variances, weights));
    }
    return model;
  }

  /** Each component's posterior for frame `f`, written into `post`. */
  posteriors(feats: Float32Array, f: number, post: Float64Array): void {
    let max = -Infinity;
    for (let c = 0; c < this.means.length; c++) {
      const m = this.means[c];
      const v = this.variances[c];
      let q = 0;
      for (let i = 0; i < D; i++) q += (feats[f * D + i] - m[i]) ** 2 / v[i];
      post[c] = this.consts[c] - 0.5 * q;
      if (post[c] > max) max = post[c];
    }
    let sum = 0;
    for (let c = 0; c < this.means.length; c++) {
      post[c] = Math.exp(post[c] - max);
      sum += post[c];
    }
    for (let c = 0; c < this.means.length; c++) post[c] /= sum;
  }
}

function constsOf(means: Float64Array[], variances: Float64Array[], weights: Float64Array): Float64Array {
  return Float64Array.from(means, (_, c) => Math.log(weights[c]) - 0.5 * variances[c].reduce((s, v) => s + Math.log(v), 0));
}

/** A set of frames seen through the background model: occupancy, first (and for training, second) moments per component. */
export class MixtureStats {
  frames = 0;
  readonly occupancy: Float64Array;
  readonly first: Float64Array;
  readonly second: Float64Array;

  constructor(components: number) {
    this.occupancy = new Float64Array(components);
    this.first = new Float64Array(components * D);
    this.second = new Float64Array(components * D);
  }

  add(model: BackgroundModel, feats: Float32Array, f: number, post: Float64Array): void {
    model.posteriors(feats, f, post);
    this.frames++;
    for (let c = 0; c < post.length; c++) {
      const p = post[c];
      if (p < 1e-6) continue;
      this.occupancy[c] += p;
      for (let i = 0; i < D; i++) {
        const x = feats[f * D + i];
        this.first[c * D + i] += p * x;
        this.second[c * D + i] += p * x * x;
      }
    }
  }

  /** Takes in another set's frames (a merge of two clusters). */
  absorb(o: MixtureStats): void {
    this.frames += o.frames;
    for (let i = 0; i < this.occupancy.length; i++) this.occupancy[i] += o.occupancy[i];
    for (let i = 0; i < this.first.length; i++) {
      this.first[i] += o.first[i];
      this.second[i] += o.second[i];
    }
  }
}

/**
 * Log-likelihood ratio per frame of a's frames under b's MAP-adapted model (weights and means)
 * against the background model, by linear scoring: the frames' posteriors are taken as the
 * background model's, which keeps it a sum over a's statistics.
 */
export function adaptedLikelihoodRatio(model: BackgroundModel, a: MixtureStats, b: MixtureStats): number {
  let v = 0;
  for (let c = 0; c < model.components; c++) {
    const nb = b.occupancy[c];
    const w = model.weights[c];
    v += a.occupancy[c] * Math.log((nb + RELEVANCE * w) / (b.frames + RELEVANCE) / w);
    if (nb <= 0) continue;
    const alpha = nb / (nb + RELEVANCE);
    const mean = model.means[c];
    const variance = model.variances[c];
    for (let i = 0; i < D; i++) {
      const offset = alpha * (b.first[c * D + i] / nb - mean[i]);
      v += (offset * (a.first[c * D + i] - a.occupancy[c] * mean[i]) - 0.5 * a.occupancy[c] * offset * offset) / variance[i];
    }
  }
  return a.frames ? v / a.frames : 0;
}

/** The cross-likelihood ratio of two clusters: higher is more alike; about zero for one voice, below about -3.3 for two. */
export function crossLikelihoodRatio(model: BackgroundModel, a: MixtureStats, b: MixtureStats): number {
  return adaptedLikelihoodRatio(model, a, b) + adaptedLikelihoodRatio(model, b, a);
}
