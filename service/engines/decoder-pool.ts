/**
 * A bound on speech-decoder processes across the whole service. Each job cuts its recording into
 * chunks and asks the pool for a slot per chunk, so one job alone uses every core, and several
 * jobs at once (--engine-concurrency) share the same slots instead of multiplying them.
 */
import { availableParallelism } from 'node:os';

export class DecoderPool {
  private running = 0;
  private waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  /** Slots: as many as cores, or as many as jobs may run at once if that is more (each job then keeps one). */
  static forService(engineConcurrency: number): DecoderPool {
    return new DecoderPool(Math.max(1, engineConcurrency, availableParallelism()));
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    // A freed slot passes straight to the next waiter, so a newcomer can never slip in between.
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      signal?.throwIfAborted();
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
