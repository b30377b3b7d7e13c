import { normalizeError, type NormalizedError } from '../../common/api';

/**
 * The one error the client throws. HTTP failures carry the service's status and its error body
 * normalised from any of the three shapes; failures without a response use status 0 and one of
 * the codes NETWORK, TIMEOUT, ABORTED; a response that breaks the contract is MALFORMED_RESPONSE.
 */
export class ApiError extends Error implements NormalizedError {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly routeId: string;
  constructor(routeId: string, e: NormalizedError) {
    super(e.message);
    this.name = 'ApiError';
    this.routeId = routeId;
    this.status = e.status;
    this.code = e.code;
    this.details = e.details;
  }

  static fromResponse(routeId: string, status: number, body: unknown): ApiError {
    return new ApiError(routeId, normalizeError(status, body));
  }

  /** No answer at all: the service is unreachable or the request was cut short. */
  get transport(): boolean {
    return this.status === 0 && (this.code === 'NETWORK' || this.code === 'TIMEOUT');
  }
}

/** A request the app cancelled (its AbortSignal), as ApiClient reports one. */
export function cancelledError(routeId: string): ApiError {
  return new ApiError(routeId, { status: 0, code: 'ABORTED', message: `${routeId} was cancelled`, details: {} });
}

/** The service answered, but not in the shape the route table promises. */
export class MalformedResponseError extends ApiError {
  readonly field: string;
  constructor(routeId: string, status: number, field: string, problem: string) {
    super(routeId, { status, code: 'MALFORMED_RESPONSE', message: `malformed response from ${routeId}: ${field ? `field "${field}"` : 'body'} ${problem}`, details: { field } });
    this.name = 'MalformedResponseError';
    this.field = field;
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}
