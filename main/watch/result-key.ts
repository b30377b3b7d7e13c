/**
 * What makes two transcriptions of the same content the same: the content hash and the profile
 * fields that change the result. Reuse across watch folders (store.admit) matches on this key, so
 * the same file in a French folder and an English folder is two jobs, not one "delivered" twice.
 * schema.ts migration 3 builds the same string in SQL for the items it carries over: keep the two alike.
 */
import type { WatchProfile } from '../../common/ipc';

type ResultFields = Pick<WatchProfile, 'language' | 'sessionMode' | 'diarization' | 'punctuation' | 'glossaryId' | 'customModelId' | 'allowProfanity' | 'maskProfanity' | 'speechEngine'>;

export function resultKey(hash: string, p: ResultFields): string {
  // Booleans as 1/0 and no spaces: what SQLite's json_array(json_extract(...)) writes.
  const base = `${hash}:${JSON.stringify([p.language, p.sessionMode, p.diarization ? 1 : 0, p.punctuation ? 1 : 0, p.glossaryId, p.customModelId])}`;
  // Offensive-word options and the speech engine joined later: only a non-default choice adds to
  // the key, so the keys of items made before (and migration 3's) stay as they were.
  const offensive = p.allowProfanity || p.maskProfanity ? `:offensive=${p.allowProfanity ? 1 : 0}${p.maskProfanity ? 1 : 0}` : '';
  const engine = p.speechEngine ? `:engine=${p.speechEngine}` : '';
  return `${base}${offensive}${engine}`;
}
