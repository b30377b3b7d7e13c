import type { FastifyReply } from 'fastify';
import type { ServiceContext } from '../context';
import { plainError } from './errors';

interface Window {
  resetAt: number;
  used: number;
}

/**
 * A fixed window per credential (README: Interface choices): every credential (session, API
 * token, or the caller's address for anonymous and failed requests) gets `max` requests per
 * `windowMs`. State is in memory: a restart forgives everyone, which is fine for a local service.
 */
class RateLimiter {
  private readonly windows = new Map<string, Window>();
  constructor(private readonly max: number, private readonly windowMs: number) {}

  /** Counts one request; sets the X-RateLimit-* headers and throws 429 when the window is spent. */
  hit(key: string, reply: FastifyReply): void {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (this.windows.size > 50_000) this.sweep(now);
      w = { resetAt: now + this.windowMs, used: 0 };
      this.windows.set(key, w);
    }
    w.used++;
    const headers = {
      'x-ratelimit-limit': String(this.max),
      'x-ratelimit-remaining': String(Math.max(0, this.max - w.used)),
      'x-ratelimit-reset': String(Math.ceil(w.resetAt / 1000)),
    };
    reply.headers(headers);
    if (w.used > this.max) {
      throw plainError(429, 'rate limit exceeded; retry after the window resets', { ...headers, 'retry-after': String(Math.max(1, Math.ceil((w.resetAt - now) / 1000))) });
    }
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's one rate limiter (decorated in app.ts), shared by every route and plugin. */
    rateLimiter: RateLimiter;
  }
}

export function newRateLimiter(ctx: ServiceContext): RateLimiter {
  return new RateLimiter(ctx.config.rateLimit.max, ctx.config.rateLimit.windowMs);
}
