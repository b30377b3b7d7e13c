/** captions.*: the explicit "Rebuild captions from transcript". */
import { FINISHED_REFUSAL } from '../../common/ipc/finished';
import { requireAccount, type AreaHandlers, type CoreContext } from '../ipc/handlers/context';
import { UserFacingError } from '../ipc/user-facing-error';
import type { CaptionFollower } from './follow';

export function captionsHandlers(ctx: CoreContext & { captions: CaptionFollower }): AreaHandlers<'captions'> {
  return {
    'captions.rebuild': async ({ documentId }) => {
      requireAccount(ctx);
      const doc = ctx.cache.getDocument(documentId);
      if (!doc || doc.type !== 'caption') throw new UserFacingError('NOT_FOUND', 'That caption document is not in the local cache.');
      if (doc.finished) throw new UserFacingError('FINISHED', FINISHED_REFUSAL);
      if (!doc.body) throw new UserFacingError('NO_CONTENT', `“${doc.filename}” has no content in the local cache yet; sync first.`);
      const r = ctx.captions.follow(documentId, true);
      if (!r) throw new UserFacingError('NO_TRANSCRIPT', 'This session has no transcript with content to rebuild the captions from.');
      if (r.changed.length || r.removed.length) ctx.changedLocally([documentId], doc.session_id);
      return r;
    },
  };
}
