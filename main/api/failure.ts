/**
 * One classification of a failed service call, which sync, the IPC layer and watch folders map
 * from, and the one place its message is worded for a person. The kind says what the app does about it:
 *   offline       no answer at all (unreachable, timed out): wait for the network
 *   signed-out    401: the credentials are gone or refused; wait for a sign-in
 *   rate-limited  429: wait as long as the service asks
 *   server        5xx or 408: the service is unwell; a few more tries
 *   refused       any other answer (4xx, a response outside the contract, a request the client would not send): trying again will not help
 *   aborted       cancelled by the app itself
 */
import { ApiError } from './errors';

export type FailureKind = 'offline' | 'signed-out' | 'rate-limited' | 'server' | 'refused' | 'aborted';

export interface Failure {
  kind: FailureKind;
  /** The HTTP status; 0 when there was no answer. */
  status: number;
  /** ApiError's code: the service's error code, or NETWORK, TIMEOUT, ABORTED, MALFORMED_RESPONSE, BAD_REQUEST. */
  code: string;
  /** How long the service asked us to wait (Retry-After), when it did. */
  retryAfterMs?: number;
  /** The technical detail, for brackets and logs. */
  detail: string;
}

/** The kind of a failed service call; null for anything else (a bug, a local file error), which callers word themselves. */
export function classifyFailure(err: unknown): Failure | null {
  if (!(err instanceof ApiError)) return null;
  const asked = err.details.retryAfterMs;
  return {
    kind: kindOf(err),
    status: err.status,
    code: err.code,
    ...(typeof asked === 'number' ? { retryAfterMs: asked } : {}),
    detail: err.message,
  };
}

function kindOf(err: ApiError): FailureKind {
  if (err.code === 'ABORTED') return 'aborted';
  if (err.transport) return 'offline';
  if (err.status === 401) return 'signed-out';
  if (err.status === 429) return 'rate-limited';
  if (err.status === 408 || err.status >= 500) return 'server';
  return 'refused';
}

/** Kinds after which waiting and trying the same thing again can succeed. */
export function isTransient(f: Failure | null): boolean {
  return f !== null && (f.kind === 'offline' || f.kind === 'signed-out' || f.kind === 'rate-limited' || f.kind === 'server');
}

/**
 * Where the message is read: the sign-in screen, a watch-folder item (lower case, it follows the
 * file's name), the sync status (SyncState.lastError: what happened and what the app does about
 * it), or any other request answered over IPC. The technical detail stays in brackets, so a
 * support request can quote it.
 */
export type FailureReader = 'sign-in' | 'watch' | 'sync' | 'request';

/** The failure in words for the person using the app. */
export function describeFailure(f: Failure, reader: FailureReader): string {
  const { kind, status, detail } = f;
  if (reader === 'sign-in') {
    if (kind === 'offline') return `The service at this address cannot be reached (${detail}).`;
    if (status === 401 || status === 403) return 'The e-mail address or password is wrong.';
    return detail;
  }
  if (reader === 'watch') {
    if (kind === 'offline') return `waiting for the service (${detail})`;
    if (kind === 'signed-out') return 'waiting for sign-in: the service refused our credentials';
    if (status === 413) return 'the service refused the file as too large';
    if (status === 415 || status === 422 || status === 400) return `the service cannot use this file: ${detail}`;
    return `the service answered ${status}: ${detail}`;
  }
  if (reader === 'sync') {
    if (kind === 'offline') return 'The service cannot be reached. Your changes are kept here and will be sent when it is back.';
    if (kind === 'aborted') return 'Syncing was stopped.';
    if (kind === 'signed-out') return 'Your session has ended. Please sign in again to sync.';
    if (f.code === 'MALFORMED_RESPONSE') {
      return `The service sent an answer this app does not understand (${detail}). Syncing will try again; if this keeps happening, the app may need an update.`;
    }
    if (kind === 'rate-limited') return 'The service asked the app to slow down. Syncing will resume shortly.';
    if (status >= 500) return `The service had a problem (HTTP ${status}: ${detail}). Syncing will try again shortly.`;
    return `The service refused a request (HTTP ${status}: ${detail}).`;
  }
  switch (kind) {
    case 'offline':
      return `The service cannot be reached (${detail}).`;
    case 'signed-out':
      return `Please sign in again (${detail}).`;
    case 'rate-limited':
      return `The service asked the app to slow down; try again shortly (${detail}).`;
    case 'server':
      return `The service had a problem (HTTP ${status}: ${detail}).`;
    case 'aborted':
      return `The request was cancelled (${detail}).`;
    case 'refused':
      return status === 0 ? detail : `The service refused the request (HTTP ${status}: ${detail}).`;
  }
}

/** Any error in words for the person: a service failure described for `reader`, anything else by its own message. */
export function describeError(err: unknown, reader: FailureReader): string {
  const failure = classifyFailure(err);
  return failure ? describeFailure(failure, reader) : (err as Error).message;
}
