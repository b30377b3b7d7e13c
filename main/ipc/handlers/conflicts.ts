/**
 * conflicts.*: a conflict copy beside its original, and the user's decision written back. The
 * resolve goes the ways every edit goes: the original through the documents' save (with its
 * captions following, as documents.save does), the copy through the delete mutation, so both
 * reach the service with the next push; all of it in one cache transaction.
 */
import { createHash } from 'node:crypto';
import type { ConflictPair } from '../../../common/ipc';
import { alignConflict, applyConflictChoices, undecided } from '../../../common/transcript/conflict-pair';
import type { DocumentBody } from '../../../common/transcript/model';
import { conflictLinkOf, conflictLinks, forgetConflictLink, type ConflictLink } from '../../cache/conflicts';
import type { DocumentRow } from '../../cache/documents';
import { UserFacingError } from '../user-facing-error';
import { requireAccount, type AreaHandlers, type CoreContext } from './context';

const bodyOf = (d: DocumentRow): DocumentBody | null => (d.body ? (JSON.parse(d.body) as DocumentBody) : null);

/**
 * What the view showed, as a fingerprint: the kind and the aligned rows. A pick means the same
 * as long as these are the same; a change to either document that shows in them refuses it.
 * (Not the bodies' text: the copy's id and stored text change when it is sent, its rows do not.)
 */
function versionOf(kind: string, rows: ConflictPair['rows']): string {
  return createHash('sha256').update(JSON.stringify([kind, rows])).digest('base64url');
}

function summary(l: ConflictLink) {
  return { copyId: l.copy.id, copyFilename: l.copy.filename, originalId: l.original.id, originalFilename: l.original.filename, created: l.created };
}

function pairOf(l: ConflictLink): ConflictPair {
  const original = bodyOf(l.original);
  const copy = bodyOf(l.copy);
  if (!original || !copy) throw new UserFacingError('NO_CONTENT', 'One of the two documents has no content in the local cache yet; sync first.');
  try {
    const rows = alignConflict(original.content, copy.content, l.clashed);
    return { ...summary(l), kind: original.content.kind, version: versionOf(original.content.kind, rows), rows };
  } catch (err) {
    throw new UserFacingError('NOT_COMPARABLE', (err as Error).message);
  }
}

export function conflictsHandlers(ctx: CoreContext): AreaHandlers<'conflicts'> {
  const { cache, accountId } = ctx;
  return {
    'conflicts.list': async ({ sessionId }) => (accountId() === null ? [] : conflictLinks(cache.db, sessionId).map(summary)),
    'conflicts.get': async ({ documentId }) => {
      if (accountId() === null) return null;
      const l = conflictLinkOf(cache.db, documentId);
      return l ? pairOf(l) : null;
    },
    'conflicts.resolve': async ({ copyId, version, choices }) => {
      requireAccount(ctx);
      const done = cache.db.transaction(() => {
        const l = conflictLinkOf(cache.db, copyId);
        if (!l || (l.copy.id !== copyId && l.linkId !== copyId)) throw new UserFacingError('NOT_FOUND', 'That conflict copy is no longer here (it may have been resolved already).');
        const pair = pairOf(l);
        if (pair.version !== version) throw new UserFacingError('CHANGED', 'The document or its conflict copy changed since you opened the comparison. Look again and pick once more.');
        const missing = undecided(pair.rows, choices);
        if (missing.length) throw new UserFacingError('UNDECIDED', `Pick a version for every segment that differs (${missing.length} still undecided).`);
        const original = bodyOf(l.original)!.content;
        const content = applyConflictChoices(original, bodyOf(l.copy)!.content, choices);
        let rebuilt: string[] = [];
        // All theirs leaves the original as it is: nothing to save.
        if (JSON.stringify(content) !== JSON.stringify(original)) {
          // As documents.save: a transcript's captions follow it.
          if (content.kind === 'transcript') rebuilt = ctx.captions.saveTranscript(l.original.id, content).rebuilt;
          else cache.saveDocument(l.original.id, content);
        }
        cache.mutate(l.copy.id, { op: 'delete' });
        forgetConflictLink(cache.db, l.linkId);
        return { originalId: l.original.id, copyId: l.copy.id, sessionId: l.original.session_id, rebuilt };
      }).immediate();
      ctx.changedLocally([done.originalId, done.copyId, ...done.rebuilt], done.sessionId);
      return { documentId: done.originalId };
    },
  };
}
