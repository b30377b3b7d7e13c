import { PermanentEngineError } from '../engines/engine';
import { MediaError } from '../media/decode';

/** A failure no retry can fix (bad media, unsupported language), as the engines and media code raise it. */
export function isPermanent(e: Error): boolean {
  return e instanceof PermanentEngineError || e instanceof MediaError;
}
