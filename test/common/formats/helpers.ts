/** Shared by the format tests. */
import { expect } from 'vitest';
import { FormatError } from '../../../common/formats';

/** Runs `fn`, which must throw a FormatError, and returns it (for its line, byte offset or message). */
export function errorOf(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}
