/** How an item's step fails: for good (until a retry), and in words a person can act on. */
import { classifyFailure, describeFailure } from '../api/failure';

/** Stops the item for good (until a retry). */
export class Fail extends Error {}

/** A message for a person from whatever went wrong. */
export function reason(err: unknown): string {
  const failure = classifyFailure(err);
  if (failure) return describeFailure(failure, 'watch');
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT') return 'the file is gone from the folder';
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return `no permission to read or write: ${e.path ?? ''}`.trim();
  return e?.message ?? String(err);
}
