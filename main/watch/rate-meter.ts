/**
 * An upload's rate and time left, from the bytes it reported over the last five seconds, and how
 * often that is worth saving (once a second) and showing (four times a second).
 */
interface Track {
  samples: [number, number][];
  lastEmit: number;
  lastSave: number;
}

export class RateMeter {
  private readonly tracks = new Map<number, Track>();

  /** Records `sent` bytes of item `id` now; says whether to save the count and whether to show it. */
  record(id: number, sent: number, size: number, now = Date.now()): { save: boolean; show: boolean } {
    const t = this.tracks.get(id) ?? { samples: [], lastEmit: 0, lastSave: 0 };
    this.tracks.set(id, t);
    t.samples.push([now, sent]);
    while (t.samples.length > 2 && now - t.samples[0][0] > 5000) t.samples.shift();
    const last = sent >= size;
    const save = last || now - t.lastSave > 1000;
    const show = last || now - t.lastEmit > 250;
    if (save) t.lastSave = now;
    if (show) t.lastEmit = now;
    return { save, show };
  }

  /** Bytes a second and seconds left, while there are two samples a moment apart. */
  of(id: number, sent: number, size: number): { rate: number | null; etaSeconds: number | null } {
    const s = this.tracks.get(id)?.samples;
    if (!s || s.length < 2) return { rate: null, etaSeconds: null };
    const [t0, b0] = s[0];
    const [t1, b1] = s[s.length - 1];
    if (t1 <= t0) return { rate: null, etaSeconds: null };
    const rate = ((b1 - b0) * 1000) / (t1 - t0);
    return { rate, etaSeconds: rate > 0 ? Math.max(0, (size - sent) / rate) : null };
  }

  forget(id: number): void {
    this.tracks.delete(id);
  }
}
