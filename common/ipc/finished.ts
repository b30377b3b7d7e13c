/**
 * A document marked finished is read-only until reopened. The editors lock their undo
 * history; these are the whole-document changes that bypass it, which the Document menu disables
 * and main refuses, by this one list and in these words.
 */
import type { DocumentMutation } from './contract';

/** Why a change to a finished document is refused, with the way out. */
export const FINISHED_REFUSAL = 'Marked finished: reopen to change it.';

/** Mutations that change what a finished document says or when: reset, clear and the timecode offset. */
const CHANGING: ReadonlySet<DocumentMutation['op']> = new Set(['resetToOriginal', 'clearText', 'setTimecodeOffset']);

/** Whether `op` would change a document, so a finished one must refuse it (finalize, rename, copy, share, summarize, delete stay open). */
export function changesFinishedDocument(op: DocumentMutation['op']): boolean {
  return CHANGING.has(op);
}
