/**
 * Online, offline or degraded, learned from the outcomes of real requests (every client call
 * reports one): no answer at all means offline; 429/5xx or a malformed answer means degraded;
 * any good answer means online; a request still unanswered after a few seconds (a hung service)
 * means degraded, unless the service is already known to be unreachable. While not online, probes back off (1 s doubling to 60 s, jittered).
 */
import type { Outcome } from '../api/client';

export type ConnectivityState = 'online' | 'offline' | 'degraded';

export class Connectivity {
  state: ConnectivityState = 'online';
  private failedProbes = 0;

  constructor(private readonly onChange: (state: ConnectivityState) => void = () => {}) {}

  report(outcome: Outcome): void {
    if (outcome === 'slow' && this.state === 'offline') return;
    const next: ConnectivityState = outcome === 'ok' ? 'online' : outcome === 'unreachable' ? 'offline' : 'degraded';
    if (next === 'online') this.failedProbes = 0;
    if (next !== this.state) {
      this.state = next;
      this.onChange(next);
    }
  }

  /** How long to wait before the next probe; each call counts one more failed probe. */
  nextProbeDelay(): number {
    const ms = Math.min(60_000, 1000 * 2 ** this.failedProbes);
    this.failedProbes++;
    return ms / 2 + (Math.random() * ms) / 2;
  }
}
