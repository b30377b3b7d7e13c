/**
 * Files the browser streamed to main (browser mode's stageFile) wait under the data dir's
 * imports/staged/ until imports.add queues them; the queue deletes each once the service has it,
 * and a cancelled one stays for Retry until the finished imports are cleared. A staged id is random and checked by shape, so it never names a
 * path outside that folder.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export const STAGED_ID = /^[\w-]{8,64}$/;

export function stagedDir(dataDir: string): string {
  return join(dataDir, 'imports', 'staged');
}

export function newStagedId(): string {
  return randomBytes(18).toString('base64url');
}

/** The file of a staged id; throws on an id of the wrong shape. */
export function stagedPath(dataDir: string, stagedId: string): string {
  if (!STAGED_ID.test(stagedId)) throw new Error('not a staged file id');
  return join(stagedDir(dataDir), stagedId);
}
