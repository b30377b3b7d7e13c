import { plainError } from '../http/errors';

/**
 * Failed password and second-factor attempts per account (README: Interface choices): after
 * MAX_FAILURES within WINDOW_MS the account's logins answer 429 until the window passes, so
 * neither a password nor a six-digit code can be guessed at request speed. In memory: a restart
 * forgives, which suits a local service.
 */
const MAX_FAILURES = 10;
const WINDOW_MS = 15 * 60 * 1000;

const failures = new Map<string, number[]>();

function recent(key: string, now: number): number[] {
  const list = (failures.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
  if (list.length) failures.set(key, list);
  else failures.delete(key);
  return list;
}

/** Throws 429 with Retry-After while the account is locked. */
export function assertNotLocked(key: string): void {
  const now = Date.now();
  const list = recent(key, now);
  if (list.length >= MAX_FAILURES) {
    const retry = Math.max(1, Math.ceil((list[0] + WINDOW_MS - now) / 1000));
    throw plainError(429, 'too many failed sign-in attempts for this account; try again later', { 'retry-after': String(retry) });
  }
}

export function recordFailure(key: string): void {
  const now = Date.now();
  failures.set(key, [...recent(key, now), now]);
  if (failures.size > 100_000) failures.clear();
}

export function clearFailures(key: string): void {
  failures.delete(key);
}
