import { plainError } from '../http/errors';

/**
 * Failed password and second-factor attempts (README: Security), counted per account and source
 * (the caller's address) together, as large identity providers do, so that a stranger guessing
 * cannot lock the real user out:
 *
 * - one source gets SOURCE_MAX failures on one account per WINDOW_MS, then 429 until the window
 *   passes; another source (the real user's) is not slowed by it;
 * - spread over many sources, an account takes ACCOUNT_MAX failures per window; past that only
 *   sources that have signed in to it before (within KNOWN_MS) may still try.
 *
 * In memory: a restart forgives, which suits a local service.
 */
const SOURCE_MAX = 10;
const ACCOUNT_MAX = 100;
const WINDOW_MS = 15 * 60 * 1000;
const KNOWN_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_KEYS = 100_000;

/** Who is trying: the account (lower-cased e-mail) and the source address. */
export interface Attempt {
  account: string;
  source: string;
}

const failures = new Map<string, number[]>();
/** account -> source -> last successful sign-in. */
const known = new Map<string, Map<string, number>>();

const sourceKey = (a: Attempt) => `s:${a.account.toLowerCase()}\n${a.source}`;
const accountKey = (a: Attempt) => `a:${a.account.toLowerCase()}`;

function recent(key: string, now: number): number[] {
  const list = (failures.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
  if (list.length) failures.set(key, list);
  else failures.delete(key);
  return list;
}

function knownSource(a: Attempt, now: number): boolean {
  const at = known.get(a.account.toLowerCase())?.get(a.source);
  return at !== undefined && at > now - KNOWN_MS;
}

function locked(list: number[], max: number, now: number): number | undefined {
  return list.length >= max ? Math.max(1, Math.ceil((list[list.length - max] + WINDOW_MS - now) / 1000)) : undefined;
}

/** Throws 429 with Retry-After while this source may not try this account. */
export function assertNotLocked(a: Attempt): void {
  const now = Date.now();
  const retry = locked(recent(sourceKey(a), now), SOURCE_MAX, now) ?? (knownSource(a, now) ? undefined : locked(recent(accountKey(a), now), ACCOUNT_MAX, now));
  if (retry !== undefined) throw plainError(429, 'too many failed attempts for this account from here; try again later', { 'retry-after': String(retry) });
}

export function recordFailure(a: Attempt): void {
  const now = Date.now();
  if (failures.size > MAX_KEYS) failures.clear();
  for (const key of [sourceKey(a), accountKey(a)]) failures.set(key, [...recent(key, now), now]);
}

/** A full sign-in succeeded: this source's failures are forgiven and it becomes a known source. */
export function recordSuccess(a: Attempt): void {
  failures.delete(sourceKey(a));
  if (known.size > MAX_KEYS) known.clear();
  const account = a.account.toLowerCase();
  const sources = known.get(account) ?? new Map<string, number>();
  sources.set(a.source, Date.now());
  known.set(account, sources);
}
