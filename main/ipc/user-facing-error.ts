/** An error meant for the person using the app: dispatch (main/ipc/registry.ts) shows its message as it is. */
export class UserFacingError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
