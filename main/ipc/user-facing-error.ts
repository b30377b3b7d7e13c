import { describeError } from '../api/failure';

/** An error meant for the person using the app: dispatch (main/ipc/registry.ts) shows its message as it is. */
export class UserFacingError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs a handler body so that whatever it throws reaches the person as a UserFacingError: one
 * already meant for them passes as it is, `translate` may word an area's own errors, a service
 * failure is described as for a request, anything else keeps its message under `code`.
 */
export async function userFacing<T>(code: string, fn: () => T | Promise<T>, translate?: (err: unknown) => UserFacingError | null): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof UserFacingError) throw err;
    const own = translate?.(err);
    if (own) throw own;
    throw new UserFacingError(code, describeError(err, 'request'));
  }
}
