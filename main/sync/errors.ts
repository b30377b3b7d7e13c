/**
 * Sync failures in words for the person using the app (SyncState.lastError): what happened, and
 * what the app does about it. The technical detail (route, field, status) stays in brackets, so a
 * support request can quote it.
 */
import { ApiError } from '../api/errors';

/** Failures after which pulling is pointless too: no answer at all, cancelled, signed out, or asked to slow down. */
export function stopsTheRun(err: unknown): boolean {
  return err instanceof ApiError && (err.transport || err.code === 'ABORTED' || err.status === 401 || err.status === 429);
}

export function describeSyncError(err: unknown): string {
  if (!(err instanceof ApiError)) {
    return `Syncing failed unexpectedly (${(err as Error)?.message ?? String(err)}). Your changes are kept and syncing will try again.`;
  }
  if (err.transport) return 'The service cannot be reached. Your changes are kept here and will be sent when it is back.';
  if (err.code === 'ABORTED') return 'Syncing was stopped.';
  if (err.status === 401) return 'Your session has ended. Please sign in again to sync.';
  if (err.code === 'MALFORMED_RESPONSE') {
    return `The service sent an answer this app does not understand (${err.message}). Syncing will try again; if this keeps happening, the app may need an update.`;
  }
  if (err.status === 429) return 'The service asked the app to slow down. Syncing will resume shortly.';
  if (err.status >= 500) return `The service had a problem (HTTP ${err.status}: ${err.message}). Syncing will try again shortly.`;
  return `The service refused a request (HTTP ${err.status}: ${err.message}).`;
}

/** Why one unsent change is now blocked: kept, shown, and no longer retried. */
export function describeBlocked(filename: string, op: string, reason: string): string {
  return `A change to "${filename}" (${op}) could not be sent: ${reason}. It is kept here and will not be retried.`;
}
