import { z } from 'zod';

/** Validation failures: `{ error }`. */
export const ValidationError = z.object({ error: z.string() });
/** Document and session errors: `{ error, error_description, status }`. */
export const DocumentError = z.object({ error: z.string(), error_description: z.string(), status: z.number().int() });
/** The newer shape from the migration guides: `{ error: { code, message, details } }`. */
export const CodedError = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});

export const ErrorBody = z.union([CodedError, DocumentError, ValidationError]);
export type ErrorBody = z.infer<typeof ErrorBody>;

/** One shape for all three, as the client and the UI see an error. */
export interface NormalizedError {
  status: number;
  code: string;
  message: string;
  details: Record<string, unknown>;
}

export function normalizeError(status: number, body: unknown): NormalizedError {
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success) {
    return { status, code: `HTTP_${status}`, message: typeof body === 'string' && body ? body.slice(0, 500) : `HTTP ${status}`, details: {} };
  }
  const b = parsed.data;
  if (typeof b.error === 'object') return { status, code: b.error.code, message: b.error.message, details: b.error.details ?? {} };
  if ('error_description' in b) return { status: b.status || status, code: b.error, message: b.error_description, details: {} };
  return { status, code: `HTTP_${status}`, message: b.error, details: {} };
}

/**
 * The local service's wording for a right code of the authenticator that was already used (the
 * same 30-second window as the one that turned two-factor on or signed in); the app tells it
 * apart from a wrong code by this text, since both are a 401.
 */
export const USED_TOTP_CODE = 'that code was already used: wait for the next code';

export const SUPPORTED_MEDIA_FORMATS = ['wav', 'mp3', 'flac', 'ogg', 'opus', 'm4a', 'aac', 'mp4', 'mov', 'mkv', 'webm', 'avi'] as const;
