/**
 * Sync failures by kind (main/api/failure.ts classifies and words them), and the sentences of
 * sync's own: an unexpected failure, a blocked change.
 */
import { classifyFailure, describeFailure } from '../api/failure';

/** Failures after which pulling is pointless too: no answer at all, cancelled, signed out, or asked to slow down. */
export function stopsTheRun(err: unknown): boolean {
  const kind = classifyFailure(err)?.kind;
  return kind === 'offline' || kind === 'aborted' || kind === 'signed-out' || kind === 'rate-limited';
}

export function describeSyncError(err: unknown): string {
  const failure = classifyFailure(err);
  if (failure) return describeFailure(failure, 'sync');
  return `Syncing failed unexpectedly (${(err as Error)?.message ?? String(err)}). Your changes are kept and syncing will try again.`;
}

/** Why one unsent change is now blocked: kept, shown, and no longer retried. */
export function describeBlocked(filename: string, op: string, reason: string): string {
  return `A change to "${filename}" (${op}) could not be sent: ${reason}. It is kept here and will not be retried.`;
}
