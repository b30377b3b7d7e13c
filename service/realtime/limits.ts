/**
 * What protects the machine without locking anyone out: streams at once per organization, the
 * longest stream, an idle timeout, and a connect rate per credential that a normal reconnect loop
 * (a try every second or two, six at once after a drop) never reaches. Refusals are counted like
 * any connect: a run of them never locks a token (the vendor's locked one after 3 in 10 minutes).
 */
export interface RealtimeLimits {
  streamsPerOrg: number;
  maxStreamMs: number;
  idleMs: number;
  /** Connects per credential (or per address, without one) per window. */
  connectsPerWindow: number;
  windowMs: number;
  /** How long a dropped stream's session waits for its client to resume it before it is finished. */
  lingerMs: number;
  /** Largest binary frame (bytes). */
  maxFrameBytes: number;
  /** More audio than this waiting for the recogniser and the socket is read no further until it catches up. */
  maxBacklogMs: number;
}

export const DEFAULT_LIMITS: RealtimeLimits = {
  streamsPerOrg: 8,
  maxStreamMs: 4 * 3600_000,
  idleMs: 60_000,
  connectsPerWindow: 60,
  windowMs: 60_000,
  lingerMs: 60_000,
  maxFrameBytes: 1024 * 1024,
  maxBacklogMs: 30_000,
};

export class ConnectRate {
  private readonly windows = new Map<string, { resetAt: number; used: number }>();
  constructor(private readonly limits: RealtimeLimits) {}

  /** Counts a connect; answers the seconds to wait when over the limit, else 0. */
  hit(key: string): number {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (this.windows.size > 10_000) for (const [k, v] of this.windows) if (v.resetAt <= now) this.windows.delete(k);
      w = { resetAt: now + this.limits.windowMs, used: 0 };
      this.windows.set(key, w);
    }
    w.used++;
    return w.used > this.limits.connectsPerWindow ? Math.max(1, Math.ceil((w.resetAt - now) / 1000)) : 0;
  }
}

/** Open streams per organization. */
export class StreamCount {
  private readonly open = new Map<number, number>();
  constructor(private readonly limits: RealtimeLimits) {}

  tryOpen(orgId: number): boolean {
    const n = this.open.get(orgId) ?? 0;
    if (n >= this.limits.streamsPerOrg) return false;
    this.open.set(orgId, n + 1);
    return true;
  }

  close(orgId: number): void {
    const n = (this.open.get(orgId) ?? 1) - 1;
    if (n <= 0) this.open.delete(orgId);
    else this.open.set(orgId, n);
  }
}
