/** documents.*: reads from the cache; every edit goes to the cache and the outbox in one transaction. */
import { requireAccount, type AreaHandlers, type CoreContext } from './context';

export function documentsHandlers(ctx: CoreContext): AreaHandlers<'documents'> {
  const { cache, accountId, changedLocally } = ctx;
  return {
    'documents.get': async ({ documentId }) => (accountId() === null ? null : cache.getDocument(documentId)),
    'documents.save': async ({ documentId, content, filename }) => {
      requireAccount(ctx);
      const rec = cache.saveDocument(documentId, content, filename);
      changedLocally([documentId], rec.session_id);
      return rec;
    },
    'documents.mutate': async ({ documentId, mutation }) => {
      requireAccount(ctx);
      const sessionId = cache.getDocument(documentId)?.session_id;
      const r = cache.mutate(documentId, mutation);
      changedLocally([documentId, ...(r.documentId && r.documentId !== documentId ? [r.documentId] : [])], sessionId);
      return r;
    },
    'documents.discardUnsent': async ({ documentId }) => {
      requireAccount(ctx);
      const sessionId = cache.row(documentId)?.session_id;
      const r = cache.discardUnsent(documentId);
      changedLocally([documentId], sessionId);
      return r;
    },
    'documents.merge': async ({ documentIds, outputFilename }) => {
      requireAccount(ctx);
      cache.queueMerge(documentIds, outputFilename);
      ctx.engine.kick();
      return { queued: true as const };
    },
    'documents.shareLinks': async ({ documentId }) => (accountId() === null ? { links: [], pending: false } : cache.shareLinks(documentId)),
  };
}
