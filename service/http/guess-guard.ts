import { plainError } from './errors';

/**
 * Failed guesses at secrets that stand alone (magic-link tokens), per client address (behind a
 * trusted proxy, the client behind it: --trust-proxy). The general rate limit allows thousands
 * of requests a minute, far too many tries at a token; this allows MAX_FAILURES wrong ones per
 * WINDOW_MS, then answers 429 from that address until the window passes. Right tokens are not
 * counted, so a person opening their links is never slowed. In memory, like the sign-in throttle.
 */
export const MAX_FAILURES = 20;
const WINDOW_MS = 15 * 60 * 1000;
const MAX_KEYS = 100_000;

const failures = new Map<string, number[]>();

function recent(address: string, now: number): number[] {
  const list = (failures.get(address) ?? []).filter((t) => t > now - WINDOW_MS);
  if (list.length) failures.set(address, list);
  else failures.delete(address);
  return list;
}

/** Seconds until this address may guess again, or undefined when it may now. */
export function guessLockSeconds(address: string): number | undefined {
  const now = Date.now();
  const list = recent(address, now);
  return list.length >= MAX_FAILURES ? Math.max(1, Math.ceil((list[list.length - MAX_FAILURES] + WINDOW_MS - now) / 1000)) : undefined;
}

/** Throws 429 with Retry-After while this address has spent its wrong guesses. */
export function assertMayGuess(address: string): void {
  const retry = guessLockSeconds(address);
  if (retry !== undefined) throw plainError(429, 'too many invalid links tried from here; try again later', { 'retry-after': String(retry) });
}

export function recordFailedGuess(address: string): void {
  if (failures.size > MAX_KEYS) failures.clear();
  failures.set(address, [...recent(address, Date.now()), Date.now()]);
}
