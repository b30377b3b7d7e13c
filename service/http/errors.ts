import type { ErrorBody } from '../../common/api';

/** An error with the exact status and body (one of the spec's three shapes) to send. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.error === 'string' ? body.error : body.error.message);
  }
}

/** `{ error }`: validation failures and other plain refusals. */
export function plainError(status: number, message: string, headers?: Record<string, string>): HttpError {
  return new HttpError(status, { error: message }, headers);
}

export const validationError = (message: string) => plainError(422, message);
export const unauthorized = (message = 'authorization missing, invalid, expired or revoked') => plainError(401, message);
export const forbidden = (message = 'this role may not call this endpoint') => plainError(403, message);

/** `{ error, error_description, status }`: documents and sessions. */
export function documentError(status: number, error: string, description: string): HttpError {
  return new HttpError(status, { error, error_description: description, status });
}

export const notFound = (what = 'resource') => documentError(404, 'not_found', `${what} does not exist`);

/** `{ error: { code, message, details } }`: the newer shape. */
export function codedError(status: number, code: string, message: string, details: Record<string, unknown> = {}): HttpError {
  return new HttpError(status, { error: { code, message, details } });
}
